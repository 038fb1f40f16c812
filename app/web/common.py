"""What both pages share: resources loaded once per server, and safe ways to show rule text.

Safety: everything a user or a document supplied goes through :func:`md` (markup escaped, URLs and e-mail
addresses kept from becoming links) before ``st.markdown``, or through ``st.text``/``st.code``; nothing
here uses ``unsafe_allow_html``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import streamlit as st

from rulesjudge.app import library as scenario_library
from rulesjudge.app import services
from rulesjudge.app.presenters import (
    badge,
    current_edition,
    edition_badge,
    escape_markdown,
    record_neighbours,
    record_title,
)
from rulesjudge.app.whatif import MAX_QUESTION as MAX_QUESTION  # one limit: a search and a what-if
from rulesjudge.common.errors import escape_controls
from rulesjudge.corpus.records import Corpus, Record
from rulesjudge.scenarios.model.citations import Resolved

if TYPE_CHECKING:  # the type only: the pages import the search when they first need it
    from rulesjudge.indexer.search import Searcher

NOT_LOADED = (
    "Official release not loaded — add the Comprehensive Rules with `rulesjudge corpus add FILE_OR_URL` "
    "to read this rule."
)
NEWEST = "(current: newest of each document)"


def setup_page(title: str, icon: str) -> None:
    st.set_page_config(page_title=f"rulesjudge · {title}", page_icon=icon, layout="wide")


# ------------------------------------------------------------------------------------------ resources


@st.cache_resource(show_spinner="Loading the rules index (once per server)…")
def searcher() -> Searcher:
    return services.open_searcher(progress=False, build=True)


@st.cache_resource(show_spinner=False)
def corpus() -> Corpus:
    return services.corpus_of(searcher())


@st.cache_resource(show_spinner="Reading the scenario library…")
def library() -> list[scenario_library.LibraryScenario]:
    return scenario_library.load_library()


@st.cache_resource(show_spinner="Indexing the scenario library by the rules it cites…")
def library_index() -> dict[str, list[scenario_library.LibraryScenario]]:
    return scenario_library.library_index(library(), corpus())


# ------------------------------------------------------------------------------------------ rendering


#: Where GFM's autolink-literal rule would start a link: a scheme, "www.", or the "@" of an e-mail address.
_AUTOLINK_START = re.compile(r"(?i)https?://|mailto:|xmpp:|www\.|@(?=[-\w]+(?:\.[-\w]+)+)")
WORD_JOINER = "\u2060"
#: Characters that reorder or break what is shown around them (bidirectional controls, line and paragraph
#: separators): shown as escapes, as the command line shows them.
_REORDERING = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def md(text: str) -> str:
    """User or document text as markdown that shows it as written: markup escaped, and no link.

    Streamlit's markdown autolinks bare URLs, ``www.`` addresses and e-mail addresses *after* reading
    backslash escapes, so escaping is not enough. GFM links such a run only when it starts the text or
    follows whitespace or punctuation: an invisible word joiner (U+2060) before each scheme or
    ``www.``, and after the ``@`` of an address, keeps every character where it was and makes none a link.

    >>> md("Ann https://evil.example") == "Ann \u2060https\\://evil\\.example"
    True
    """
    defused = _AUTOLINK_START.sub(lambda m: m[0] + WORD_JOINER if m[0] == "@" else WORD_JOINER + m[0], text)
    shown = _REORDERING.sub(lambda m: escape_controls(m[0]), defused)  # an upload named "x\u202eavg.yaml"
    return escape_markdown(shown)


def record_text_parts(record: Record) -> list[str]:
    """A record's text and each example as escaped markdown blocks."""
    return [md(record.text) if record.text else "_(no text)_", *("> " + md(e) for e in record.examples)]


def show_record_text(record: Record) -> None:
    """A record's text and examples, escaped."""
    for part in record_text_parts(record):
        st.markdown(part)


def record_heading(record: Record) -> str:
    title = record_title(record.number, record.title) or record.id
    return f"**{md(title)}** · {md(record.document_title)} · {md(record.edition)}"


def edition_labels(store: Corpus, editions: list[str]) -> dict[str, str]:
    """Edition names for the filter, "current" only on the newest official Comprehensive Rules."""
    newest = current_edition(store, "cr")
    return {e: f"{e} (current Comprehensive Rules)" if e == newest else e for e in editions}


def show_badges(record: Record) -> None:
    """The official / fan-made badge and the edition's status (an older edition says where the rule lives
    in the current rules)."""
    st.markdown(badge_markdown(record.official) + " " + edition_badge(corpus(), record.id))


def badge_markdown(official: bool) -> str:
    """The official / fan-made badge as Streamlit markdown (a badge directive, not HTML)."""
    return f":{'green' if official else 'orange'}-badge[{badge(official)}]"


def show_context(record: Record, *, key: str) -> None:
    """The parent rule, and the neighbouring subrules on demand."""
    store = corpus()
    parent = store.get(record.parent) if record.parent else None
    if parent is not None:
        st.caption("Part of " + md(f"{parent.number or parent.title}: {parent.title or ''}".strip(": ")))
        with st.expander("Context: the parent rule and its other subrules"):
            # one markdown block: a page of eight hits draws eight of these (fewer elements render faster)
            parts = [record_heading(parent), *record_text_parts(parent)]
            parts += [f"**{md(sibling.number or sibling.title)}** " + md(sibling.text)
                      for sibling in record_neighbours(store, record)]
            st.markdown("\n\n".join(parts))


def citation_block(citation: Resolved, *, key: str) -> None:
    """One cited rule, expandable to its text (or the note that the release is not loaded)."""
    label = citation.label or citation.record_id or "rule"
    record_id = citation.record_id
    record = corpus().get(record_id) if record_id else None
    with st.expander(f"Rule: {md(label)}" + ("" if record is not None or not record_id else " (not loaded)")):
        if record is None:
            st.info(NOT_LOADED)
            return
        st.markdown(record_heading(record))
        show_badges(record)
        show_record_text(record)
        for other in citation.also:
            st.caption("Also in another edition: " + md(str(other)))
