"""What both pages share: resources loaded once per server, and safe ways to show rule text.

Safety: everything a user or a document supplied goes through :func:`app.presenters.escape_markdown`
before ``st.markdown``, or through ``st.text``/``st.code``; nothing here uses ``unsafe_allow_html``.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from rulesjudge.app import services
from rulesjudge.app.presenters import (
    badge,
    current_edition,
    edition_status,
    escape_markdown,
    record_neighbours,
    record_title,
)

NOT_LOADED = (
    "Official release not loaded — add the Comprehensive Rules with `rulesjudge corpus add FILE_OR_URL` "
    "to read this rule."
)
MAX_QUESTION = 500
NEWEST = "(current: newest of each document)"


def setup_page(title: str, icon: str) -> None:
    st.set_page_config(page_title=f"rulesjudge · {title}", page_icon=icon, layout="wide")


# ------------------------------------------------------------------------------------------ resources


@st.cache_resource(show_spinner="Loading the rules index (once per server)…")
def searcher() -> Any:
    return services.open_searcher(progress=False, build=True)


@st.cache_resource(show_spinner=False)
def corpus() -> Any:
    return services.corpus_of(searcher())


@st.cache_resource(show_spinner="Reading the scenario library…")
def library() -> list[services.LibraryScenario]:
    return services.load_library()


@st.cache_resource(show_spinner="Indexing the scenario library by the rules it cites…")
def library_index() -> dict[str, list[services.LibraryScenario]]:
    return services.library_index(library(), corpus())


# ------------------------------------------------------------------------------------------ rendering


def md(text: str) -> str:
    return escape_markdown(text)


def show_record_text(record: Any) -> None:
    """A record's text and examples, escaped."""
    st.markdown(md(record.text) if record.text else "_(no text)_")
    for example in getattr(record, "examples", ()) or ():
        st.markdown("> " + md(example))


def record_heading(record: Any) -> str:
    title = record_title(record.number, record.title) or record.id
    return f"**{md(title)}** · {md(record.document_title)} · {md(record.edition)}"


def edition_labels(store: Any, editions: list[str]) -> dict[str, str]:
    """Edition names for the filter, "current" only on the newest official Comprehensive Rules."""
    newest = current_edition(store, "cr")
    return {e: f"{e} (current Comprehensive Rules)" if e == newest else e for e in editions}


def edition_badge(store: Any, document: str, edition: str) -> str:
    """ "current" or "older edition (current: …)" beside a hit: an edition is called current only when it
    is."""
    status = edition_status(store, document, edition)
    return ":blue-badge[current]" if status == "current" else f":gray-badge[{md(status)}]"


def show_badges(record: Any) -> None:
    """The official / fan-made badge and the edition's status."""
    edition = edition_badge(corpus(), record.document, record.edition)
    st.markdown(badge_markdown(record.official) + " " + edition)


def badge_markdown(official: bool) -> str:
    """The official / fan-made badge as Streamlit markdown (a badge directive, not HTML)."""
    return f":{'green' if official else 'orange'}-badge[{badge(official)}]"


def show_badge(official: bool) -> None:
    if hasattr(st, "badge"):
        st.badge(badge(official), color="green" if official else "orange")
    else:  # pragma: no cover - older Streamlit
        st.caption(badge(official))


def show_context(record: Any, *, key: str) -> None:
    """The parent rule, and the neighbouring subrules on demand."""
    store = corpus()
    parent = store.get(record.parent) if getattr(record, "parent", None) else None
    if parent is not None:
        st.caption("Part of " + md(f"{parent.number or parent.title}: {parent.title or ''}".strip(": ")))
        with st.expander("Context: the parent rule and its other subrules"):
            st.markdown(record_heading(parent))
            show_record_text(parent)
            for sibling in record_neighbours(store, record):
                st.markdown(f"**{md(sibling.number or sibling.title)}** " + md(sibling.text))


def citation_block(citation: dict[str, Any], *, key: str) -> None:
    """One cited rule, expandable to its text (or the note that the release is not loaded)."""
    label = str(citation.get("label") or citation.get("record_id") or "rule")
    record_id = citation.get("record_id")
    record = corpus().get(record_id) if record_id else None
    with st.expander(f"Rule: {md(label)}" + ("" if record is not None or not record_id else " (not loaded)")):
        if record is None:
            st.info(NOT_LOADED)
            return
        st.markdown(record_heading(record))
        show_badges(record)
        show_record_text(record)
        for other in citation.get("also") or ():
            st.caption("Also in another edition: " + md(str(other)))
