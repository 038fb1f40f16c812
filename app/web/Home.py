"""rulesjudge — cited-rule search (the app's home page). Logic lives in app/services.py and presenters.py."""

from __future__ import annotations

import time
from urllib.parse import quote

import streamlit as st

from rulesjudge.app import services
from rulesjudge.app.web import common
from rulesjudge.corpus.errors import InputError
from rulesjudge.corpus.records import DOCUMENT_TITLES, document_title

common.setup_page("Rules search", "⚖️")
md = common.md
SCENARIOS_SHOWN = 6


def open_rule(record_id: str) -> None:
    st.query_params["rule"] = record_id


def close_rule() -> None:
    st.query_params.pop("rule", None)


st.title("rulesjudge — rules search")
st.caption(
    "Ask in your own words or type a rule number (722.4, rule 809.3c, CR 907.11b). Every hit names its rule "
    "number, document and edition. Official rules need a release added with `rulesjudge corpus add`."
)

searcher = common.searcher()
store = common.corpus()

with st.sidebar:
    st.header("Filters")
    documents = ["(all documents)", *sorted(searcher.documents)]
    document = st.selectbox("Document", documents, key="f_document",
                            format_func=lambda d: DOCUMENT_TITLES.get(d, d))
    editions = sorted({r.edition for r in store.records.values()
                       if document.startswith("(") or r.document == document})
    edition = st.selectbox("Rules as of (edition)", ["(current)", *editions], key="f_edition",
                           help="A date shows the rules in effect on that date; 4.0 is Treachery's version.")
    official_only = st.checkbox("Official only", key="f_official")
    k = st.slider("Hits", 3, 20, 8, key="f_k")

opened = st.query_params.get("rule")
if opened:
    record = store.get(opened)
    with st.container(border=True):
        cols = st.columns([6, 1])
        cols[1].button("Close", on_click=close_rule, key="close-rule")
        if record is None:
            cols[0].warning("Rule " + md(opened) + " is not loaded. " + common.NOT_LOADED)
        else:
            cols[0].markdown("Opened: " + common.record_heading(record))
            common.show_badge(record.official)
            common.show_record_text(record)
            common.show_context(record, key="opened")
            for i, ref in enumerate(record.cross_refs):
                if ref.target:
                    st.button(f"→ {md(ref.label)}", key=f"opened-xref-{i}", on_click=open_rule,
                              args=(ref.target,))

query = st.text_input("Question or rule number", key="query", max_chars=common.MAX_QUESTION,
                      placeholder="who becomes the monarch if the monarch leaves the game?")

if query.strip():
    if not services.model_ready():
        with st.spinner("Loading the language model (only the first question waits for it)…"):
            services.ready_for(query)
    started = time.perf_counter()
    try:
        result = searcher.search(
            query, k=k,
            document=None if document.startswith("(") else document,
            edition=None if edition.startswith("(") else edition,
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
    if not result.hits:
        st.warning("No rule matched. Try other words, or clear the filters.")
    for rank, hit in enumerate(result.hits, 1):
        with st.container(border=True):
            # One markdown block per hit (fewer elements: the page renders faster in the browser).
            head = f"{rank}. **{md(hit.number or hit.title or hit.id)}**"
            if hit.title and hit.number:
                head += " — " + md(hit.title)
            head += f" · {md(document_title(hit.document, hit.kind))} · {md(hit.edition)}"
            head += " " + common.badge_markdown(hit.official)
            parts = [head]
            if hit.note:
                parts.append(":blue[" + md(hit.note) + "]")
            parts.append(md(hit.text))
            parts += ["> " + md(example) for example in hit.examples]
            parts.append(":gray[" + md(hit.citation) + (" · " + md(hit.context) if hit.context else "") + "]")
            st.markdown("\n\n".join(parts))
            record = store.get(hit.id)
            if record is not None:
                common.show_context(record, key=f"hit-{rank}")
            targets = [t for t in hit.cross_refs if t]
            if targets:
                st.markdown("Cross-references:")
                cols = st.columns(min(len(targets), 4))
                for i, target in enumerate(targets):
                    label = target.split("/", 1)[-1]
                    cols[i % len(cols)].button(f"→ {md(label)}", key=f"xref-{rank}-{i}",
                                               help=f"open {target}", on_click=open_rule, args=(target,))
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
