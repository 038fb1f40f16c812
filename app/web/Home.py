"""rulesjudge — cited-rule search (the app's home page). Logic lives in app/services.py and presenters.py."""

from __future__ import annotations

import time
from urllib.parse import quote

import streamlit as st

from rulesjudge.app import presenters, services
from rulesjudge.app.web import cards_ui, common
from rulesjudge.common.errors import InputError
from rulesjudge.corpus.records import DOCUMENT_TITLES, document_title

common.setup_page("Rules search", "⚖️")
md = common.md
SCENARIOS_SHOWN = 6


def open_rule(record_id: str) -> None:
    st.query_params["rule"] = record_id


def close_rule() -> None:
    st.query_params.pop("rule", None)


def open_in_place(rank: int, record_id: str) -> None:
    """A cross-reference opens its rule right under the hit it was clicked in (the view stays put)."""
    st.session_state.setdefault("xref_open", {})[rank] = record_id


def close_in_place(rank: int) -> None:
    st.session_state.setdefault("xref_open", {}).pop(rank, None)


def share_search(query: str, document: str, edition: str, official_only: bool, k: int) -> None:
    """The question and filters in the address, so the page's link is this search."""
    wanted = {"q": query.strip(), "doc": "" if document.startswith("(") else document,
              "ed": "" if edition == common.NEWEST else edition, "official": "1" if official_only else "",
              "k": str(k) if k != 8 else ""}
    for param, value in wanted.items():
        if value and st.query_params.get(param) != value:
            st.query_params[param] = value
        elif not value and param in st.query_params:
            del st.query_params[param]


def show_section_rules(record_id: str) -> None:
    """A section ("704", "State-Based Actions") opens with its rules, not its title alone."""
    rules = presenters.section_rules(store, record_id)
    if rules:
        st.markdown("\n\n".join(f"**{md(r.number or '')}** {md(' '.join(r.text.split()))}" for r in rules))


st.title("rulesjudge — rules search")
st.caption(
    "Ask in your own words or type a rule number (725.4, rule 809.3c, CR 907.11b). Every hit names its rule "
    f"number, document and edition. Questions up to {common.MAX_QUESTION} characters."
)

searcher = common.searcher()
store = common.corpus()

#: The search in the address (?q=…&doc=…&ed=…&official=1&k=8): a link reopens the same question and filters.
SHARED = {"q": "last_query", "doc": "f_document", "ed": "f_edition", "official": "f_official", "k": "f_k"}
if not st.session_state.get("address_read"):
    st.session_state["address_read"] = True
    for param, key in SHARED.items():
        value = st.query_params.get(param)
        if value:
            st.session_state[key] = {"official": value == "1", "k": int(value) if value.isdigit() else 8}.get(
                param, value)

with st.container(key="search_box"):  # inline; wraps a long question, no hint drawn over the text
    submitted = st.chat_input("Question or rule number", key="query")
if submitted is not None:
    st.session_state["last_query"] = submitted
query = str(st.session_state.get("last_query") or "")

documents = ["(all documents)", *sorted(searcher.documents)]
chosen_document = str(st.session_state.get("f_document") or documents[0])
chosen_edition = str(st.session_state.get("f_edition") or common.NEWEST)
document_words = "all documents" if chosen_document.startswith("(") else DOCUMENT_TITLES.get(
    chosen_document, chosen_document)
summary = (f"{document_words} · {'current' if chosen_edition == common.NEWEST else chosen_edition}"
           f"{' · official only' if st.session_state.get('f_official') else ''} · "
           f"{st.session_state.get('f_k', 8)} hits")
with st.expander("Filters: " + md(summary)):
    f1, f2 = st.columns(2)
    document = f1.selectbox("Document", documents, key="f_document",
                            format_func=lambda d: DOCUMENT_TITLES.get(d, d))
    editions = sorted({r.edition for r in store.records.values()
                       if document.startswith("(") or r.document == document}, reverse=True)
    labels = common.edition_labels(store, editions)
    edition = f2.selectbox("Rules as of (edition)", [common.NEWEST, *editions], key="f_edition",
                           format_func=lambda e: labels.get(e, e),
                           help="A date shows the rules in effect on that date; 4.0 is Treachery's version.")
    f3, f4 = st.columns(2)
    official_only = f3.checkbox("Official only", key="f_official")
    k = f4.slider("Hits", 3, 20, 8, key="f_k")

opened = st.query_params.get("rule")
if opened:
    record = store.get(opened)
    with st.container(border=True, key="opened_rule"):
        cols = st.columns([6, 1])
        cols[1].button("Close", on_click=close_rule, key="close-rule")
        if record is None:
            cols[0].warning("Rule " + md(opened) + " is not loaded. " + common.NOT_LOADED)
        else:
            cols[0].markdown("Opened: " + common.record_heading(record))
            common.show_badges(record)
            common.show_record_text(record)
            show_section_rules(record.id)
            common.show_context(record, key="opened")
            for i, ref in enumerate(record.cross_refs):
                if ref.target:
                    st.button(f"→ {md(ref.label)}", key=f"opened-xref-{i}", on_click=open_rule,
                              args=(ref.target,))


def show_in_place(rank: int, record_id: str) -> None:
    """The rule a cross-reference names, opened under its hit, with its own cross-references."""
    record = store.get(record_id)
    with st.container(border=True, key=f"xref_open_{rank}"):
        cols = st.columns([6, 1])
        cols[1].button("Close", key=f"xref-close-{rank}", on_click=close_in_place, args=(rank,))
        if record is None:
            cols[0].warning("Rule " + md(record_id) + " is not loaded. " + common.NOT_LOADED)
            return
        cols[0].markdown("→ " + common.record_heading(record))
        common.show_badges(record)
        common.show_record_text(record)
        show_section_rules(record.id)
        st.markdown(f"[link to this rule](?rule={quote(record.id, safe='@/')})")
        targets = [ref for ref in record.cross_refs if ref.target]
        if targets:
            columns = st.columns(min(len(targets), 4))
            for i, ref in enumerate(targets):
                columns[i % len(columns)].button(f"→ {md(ref.label)}", key=f"xref-{rank}-in-{i}",
                                                 on_click=open_in_place, args=(rank, ref.target))


if len(query) > common.MAX_QUESTION:  # kept and said, not cleared: the judge cuts it down
    st.error(f"This question is {len(query)} characters; the limit is {common.MAX_QUESTION}: cut "
             f"{len(query) - common.MAX_QUESTION}. Your text, to copy back into the box:")
    st.code(query, language=None, wrap_lines=True)
elif query.strip():
    share_search(query, document, edition, official_only, k)
    if not services.model_ready():
        with st.spinner("Loading the language model and the card names (only the first question waits)…"):
            services.ready_for(query)
    cards_ui.wait_for_cards()
    started = time.perf_counter()
    try:
        result = searcher.search(
            query, k=k,
            document=None if document.startswith("(") else document,
            edition=None if edition == common.NEWEST else edition,
            official_only=official_only,
        )
    except InputError as error:
        st.error(md(str(error)))
        st.stop()
    elapsed = time.perf_counter() - started
    index = common.library_index()
    count = f"{len(result.hits)} hit{'s' if len(result.hits) != 1 else ''}"
    st.caption(md(f'{count} for "{query.strip()}" in {elapsed * 1000:.0f} ms'))
    for note in result.notes:
        st.info(md(note))
    cards_ui.show_named_cards(result.cards, query)  # the cards the question names, beside the rules
    if not result.hits:
        st.warning("No rule matched. Try other words, or clear the filters.")
    for rank, hit in enumerate(result.hits, 1):
        with st.container(border=True):
            # One markdown block per hit (fewer elements: the page renders faster in the browser).
            head = f"{rank}. **{md(presenters.record_title(hit.number, hit.title) or hit.id)}**"
            head += f" · {md(document_title(hit.document, hit.kind))} · {md(hit.edition)}"
            head += " " + common.badge_markdown(hit.official)
            head += " " + presenters.edition_badge(store, hit.id)
            parts = [head]
            if hit.note:
                parts.append(":blue[" + md(hit.note) + "]")
            parts.append(md(hit.text))
            parts += ["> " + md(example) for example in hit.examples]
            parts.append(":gray[" + md(hit.citation) + (" · " + md(hit.context) if hit.context else "") + "]")
            st.markdown("\n\n".join(parts))
            # the hit with its citation, to paste (the code block's copy button), and its own link
            st.code(f"{hit.citation}: {' '.join(hit.text.split())}\n?rule={hit.id}", language=None,
                    wrap_lines=True)
            record = store.get(hit.id)
            if record is not None:
                common.show_context(record, key=f"hit-{rank}")
            targets = [t for t in hit.cross_refs if t]
            if targets:
                st.markdown("Cross-references (open here):")
                cols = st.columns(min(len(targets), 4))
                for i, target in enumerate(targets):
                    label = target.split("/", 1)[-1]
                    cols[i % len(cols)].button(f"→ {md(label)}", key=f"xref-{rank}-{i}",
                                               help=f"open {target} here", on_click=open_in_place,
                                               args=(rank, target))
            in_place = st.session_state.get("xref_open", {}).get(rank)
            if in_place:
                show_in_place(rank, in_place)
            citing = index.get(hit.id, [])
            if citing:
                lines = [f"Scenarios in the library that cite it ({len(citing)}), each opens in the checker:"]
                for entry in citing[:SCENARIOS_SHOWN]:
                    link = "Scenario_checker?scenario=" + quote(entry.relpath, safe="/")
                    lines.append(f"- [{md(entry.name)}]({link}) — {md(entry.relpath)}")
                if len(citing) > SCENARIOS_SHOWN:
                    lines.append(f"- … and {len(citing) - SCENARIOS_SHOWN} more")
                st.markdown("\n".join(lines))
    st.caption(md(f'End of the hits for "{query.strip()}".'))

services.start_warm_up()  # after the first page is drawn: the model loads in the background
