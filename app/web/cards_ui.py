"""Cards in the app (issue 21.4): the Cards page's lookup with suggestions as you type, and the cards a
question names shown on the search page. What a card shows is decided by :mod:`app.cards_view` (the same
view ``rulesjudge card`` prints); this module only lays it out.

Safety: every card text, ruling and typed name goes through :func:`app.presenters.escape_markdown`
(``common.md``) before ``st.markdown``; nothing here uses ``unsafe_allow_html``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import streamlit as st

from rulesjudge.app import card_cache, card_sources, cards_view
from rulesjudge.app.web import common
from rulesjudge.common.errors import InputError
from rulesjudge.corpus.cards import load_cards

if TYPE_CHECKING:
    from rulesjudge.corpus.cards import Card, CardDB

md = common.md
SUGGESTED = 8  # suggestion buttons under the name box
RULINGS_FIRST = 3  # a named card's rulings shown before "all rulings" (the first screen)
MAX_NAME = 200  # a card's name is far shorter; longer input is cut, never looked up whole


@st.cache_resource(show_spinner="Reading the card snapshot (once per server)…")
def card_db() -> CardDB:
    card_cache.wait()  # the child reading it at the first start: its cache, not a parse here
    return load_cards()


def wait_for_cards() -> None:
    """Before a search (which reads the cards a question names): wait, saying why, for the child reading
    the card snapshot at a first start (the index is usually ready before it is)."""
    if not card_cache.ready():
        with st.spinner("Reading the card snapshot into its cache (first start only, a few seconds)…"):
            card_cache.wait()


def card_link(name: str) -> str:
    """The Cards page's shareable address of a card (``Cards?card=NAME``)."""
    return "Cards?card=" + quote(name, safe="")


def rule_link(record_id: str) -> str:
    """The search page opening a rule (``?rule=ID`` on the home page)."""
    return "./?rule=" + quote(record_id, safe="@/")


def marked(text: str, words: Sequence[str]) -> str:
    """Escaped markdown of ``text`` with the question's ``words`` marked."""
    return "".join(f":orange-background[{md(piece)}]" if hit else md(piece)
                   for piece, hit in cards_view.marked_spans(text, words))


def show_card(view: cards_view.CardView, words: Sequence[str] = ()) -> None:
    """A whole card: faces, Commander facts, every ruling with its date, the rules its text refers to."""
    st.markdown(f"### {md(view.name)}")
    link = f"[link to this card]({card_link(view.name)})"
    st.caption(md(f"{view.id} · card snapshot {view.edition}") + " · " + link)
    show_faces(view, words)
    st.markdown(md(view.commander))
    if view.rulings:
        st.markdown(f"**Official rulings ({len(view.rulings)})**")
        st.markdown(rulings_markdown(view.rulings, words))
    else:
        st.markdown("Official rulings: none published")
    if view.rules:
        st.markdown("**Rules its text refers to**")
        lines = []
        for rule in view.rules:
            cited = "; ".join(f"[{md(text)}]({rule_link(rid)})"
                              for text, rid in zip(rule.cited, rule.ids, strict=True))
            summary = f" — {md(rule.summary)}" if rule.summary else ""
            lines.append(f"- **{md(rule.term)}**: {cited}{summary}")
        st.markdown("\n".join(lines))


def show_faces(view: cards_view.CardView, words: Sequence[str]) -> None:
    for face in view.faces:
        with st.container(border=True):
            parts = [f"**{md(face.name)}**"] if view.several_faces else []
            parts.append(f"_{md(face.head)}_")
            parts += [marked(p, words) for p in face.paragraphs if p]
            if face.stats:
                parts.append(f"**{md(face.stats)}**")
            st.markdown("\n\n".join(parts))


def rulings_markdown(rulings: Sequence[cards_view.RulingView], words: Sequence[str]) -> str:
    # "- **2.**": the ruling's own number, which a markdown ordered list would renumber
    return "\n".join(f"- **{r.number}.** {md(r.date)} · {marked(r.text, words)}" for r in rulings)


def choose(name: str) -> None:
    st.session_state["card"] = name


@st.fragment
def card_lookup() -> None:
    """The name box (the page's address keeps it: ``?card=NAME``), suggestions while typing, the card."""
    typed = st.text_input("Card name", key="card", live="300ms", bind="query-params", max_chars=MAX_NAME,
                          placeholder="Thalia, platnum angle, O-Ring, Fire…",
                          help="Any case, no accents or punctuation needed, one face, a short name, a "
                               "nickname, a typo.")
    typed = (typed or "").strip()
    if not typed:
        st.caption("Type a card's name; suggestions appear as you type.")
        return
    try:
        db = card_db()
    except InputError as error:
        st.error(md(str(error)))
        return
    cards = cards_view.find_cards(db, typed)
    shown = cards[0] if len(cards) == 1 else None
    if len(cards) > 1:
        suggestions = [c.name for c in cards][:cards_view.MAX_LISTED]
    elif shown is None:
        suggestions = db.suggest(typed, SUGGESTED)
    else:  # the card is shown: only longer names that start so ("Fog" -> "Fog Bank")
        suggestions = [n for n in db.suggest(typed, SUGGESTED + 1)
                       if n != shown.name and cards_view.starts_one(typed, [n], words=False)][:SUGGESTED]
    if len(cards) > 1:
        st.markdown(md(f"{len(cards)} cards answer to “{typed}”:"))
    elif shown is None and not cards_view.starts_one(typed, suggestions):
        st.warning(md(cards_view.unknown_message(db, typed)))
    elif shown is None:
        st.caption("Cards whose name starts so:")
    if suggestions:
        columns = st.columns(min(len(suggestions), 4))
        for i, name in enumerate(suggestions):
            columns[i % len(columns)].button(md(name), key=f"suggest-{i}", on_click=choose, args=(name,))
    if shown is not None:
        refs = cards_view.rules_refs([shown], common.corpus())
        show_card(cards_view.card_view(shown, refs.get(shown.id, [])))


def cards_page() -> None:
    st.title("rulesjudge — cards")
    st.caption("A card's Oracle text, its Commander facts, its official rulings with their dates, and the "
               "rules its text refers to — the same as `rulesjudge card NAME`.")
    card_lookup()


# ------------------------------------------------------------------------------------------ search page


def show_named_cards(cards: Sequence[Any], question: str) -> None:
    """The cards part of a search result (``SearchResult.cards``): each named card with its text and its
    rulings ranked by the question, the question's words marked; the first :data:`RULINGS_FIRST` rulings
    shown, the others folded."""
    if not cards:
        return
    words = marking_words(question, [part.said for part in cards] + [part.card.name for part in cards])
    st.markdown(f"**Cards named in the question ({len(cards)})**")
    for part in cards:
        card: Card = part.card
        with st.container(border=True, key=f"named-card-{card.id.rsplit('/', 1)[-1]}"):
            st.markdown(f"**[{md(card.name)}]({card_link(card.name)})**"
                        + ("" if part.said == card.name else md(f" (“{part.said}”)")))
            show_faces(cards_view.card_view(card, []), words)
            rulings = [cards_view.ruling_view(ruling) for ruling, _score in part.rulings]
            if not rulings:
                st.caption("No official rulings published for this card.")
                continue
            st.caption(f"Official rulings, closest to the question first ({len(rulings)}):")
            st.markdown(rulings_markdown(rulings[:RULINGS_FIRST], words))
            if len(rulings) > RULINGS_FIRST:
                with st.expander(f"The other {len(rulings) - RULINGS_FIRST} rulings"):
                    st.markdown(rulings_markdown(rulings[RULINGS_FIRST:], words))


def marking_words(question: str, names: Sequence[str]) -> list[str]:
    """The question's words to mark, less the words of the cards' names (every ruling of a card says
    its name)."""
    in_names = {w.lower() for name in names for w in cards_view.question_words(name)}
    return [w for w in cards_view.question_words(question) if w.lower() not in in_names]


# ------------------------------------------------------------------------------------------ checker page


def show_sources(game: Mapping[str, Any], events: Sequence[Any]) -> None:
    """The cards the table's effects come from (``source: Platinum Angel``), each with its Oracle text,
    and a "did you mean" for a near-miss of a card's name (:mod:`app.card_sources`); nothing when no
    effect names a source that is or nearly is a card."""
    names = card_sources.sources_of(card_sources.data_effects(game, events))
    if not names:
        return
    try:
        db = card_db()
    except InputError:
        return  # the cards are an aid to the derivation; the checker works without them
    sources = [s for s in card_sources.resolve_all(db, names) if s.card is not None or s.did_you_mean]
    if not sources:
        return
    with st.expander(f"Cards the effects come from ({len(sources)})", expanded=True):
        for source in sources:
            card = source.card
            if card is None:
                st.warning(md(f"{source.name}: no card of that name; did you mean {source.did_you_mean}?"))
                continue
            said = "" if card.name == source.name else md(f" (“{source.name}”)")
            st.markdown(f"**[{md(card.name)}]({card_link(card.name)})**{said}")
            show_faces(cards_view.card_view(card, []), ())
