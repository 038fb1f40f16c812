"""What both pages share: resources loaded once per server, and safe ways to show rule text.

Safety: everything a user or a document supplied goes through :func:`app.presenters.escape_markdown`
before ``st.markdown``, or through ``st.text``/``st.code``; nothing here uses ``unsafe_allow_html``.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from rulesjudge.app import services
from rulesjudge.app.presenters import badge, escape_markdown, record_neighbours

NOT_LOADED = (
    "Official release not loaded — add the Comprehensive Rules with `rulesjudge corpus add FILE_OR_URL` "
    "to read this rule."
)
MAX_QUESTION = 500


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


@st.cache_resource(show_spinner="Embedding the scenario library…")
def library_vectors() -> Any:
    entries = library()
    texts = [f"{entry.name}. {entry.why}" for entry in entries]
    if not texts:
        return []
    return services.encoder(searcher()).encode(texts)


def closest_library(question: str, k: int = 3) -> list[tuple[services.LibraryScenario, float]]:
    """The library scenarios closest in meaning to a question (same MiniLM model as the search)."""
    from rulesjudge.app.whatif import closest_scenarios

    vectors = library_vectors()
    if len(vectors) == 0:
        return []
    query = services.encoder(searcher()).encode([question])[0]
    entries = library()
    return [(entries[i], score) for i, score in closest_scenarios(list(query), [list(v) for v in vectors], k)]


# ------------------------------------------------------------------------------------------ rendering


def md(text: str) -> str:
    return escape_markdown(text)


def show_record_text(record: Any) -> None:
    """A record's text and examples, escaped."""
    st.markdown(md(record.text) if record.text else "_(no text)_")
    for example in getattr(record, "examples", ()) or ():
        st.markdown("> " + md(example))


def record_heading(record: Any) -> str:
    number = record.number or record.title or record.id
    title = f" — {record.title}" if record.title and record.number else ""
    return f"**{md(str(number))}**{md(title)} · {md(record.document_title)} · {md(record.edition)}"


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
    with st.expander(f"Rule: {md(label)}"):
        record = corpus().get(record_id) if record_id else None
        if record is None:
            st.info(NOT_LOADED)
            return
        st.markdown(record_heading(record))
        show_record_text(record)
        for other in citation.get("also") or ():
            st.caption("Also in another edition: " + md(str(other)))
