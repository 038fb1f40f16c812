"""Readers for the five source documents: raw text in, clean edition-stamped records out.

Each document has one reader (``read_monarch_wiki``, ``read_monarch_rulings``, ``read_emperor_rules``,
``read_player_page``, ``read_treachery``): a small explicit state machine over the document's lines that
leans on :mod:`corpus.clean` for artefact removal. ``read_builtin()`` runs all of them over the files the
manifest (``corpus/sources/manifest.json``) names and merges what two documents quote alike: a rule or a
ruling read twice is one record with several provenances.

The edition of every document is read from its own text ("From the Comprehensive Rules (June 7,
2024—Modern Horizons 3)", "10/14/2022", "These rules are effective as of October 1st, 2024."); the manifest
states the expected value and a test checks that the code reads the same.

Where things live: :mod:`.manifest` (the sources and built-in releases), :mod:`.building` (dates, drafts,
the record builder, quoted rules and rulings), one reader module per document (:mod:`.monarch`,
:mod:`.emperor`, :mod:`.players`, :mod:`.treachery`), :mod:`.builtin` (all of them, merged and cached).


>>> long_date("From the Comprehensive Rules (June 7, 2024—Modern Horizons 3)")
'2024-06-07'
>>> slash_date("10/14/2022 |")
'2022-10-14'
"""

from rulesjudge.corpus.documents.building import (
    long_date,
    merge_records,
    rule_ancestors,
    rule_kind,
    slash_date,
)
from rulesjudge.corpus.documents.builtin import (
    READERS,
    _builtin,
    builtin_key,
    fold_quoted_rulings,
    read_builtin,
    read_source,
)
from rulesjudge.corpus.documents.manifest import (
    MANIFEST_PATH,
    SOURCE_KINDS,
    SOURCES_DIR,
    Source,
    builtin_releases,
    load_manifest,
)
from rulesjudge.corpus.documents.monarch import read_monarch_rulings, read_monarch_wiki
from rulesjudge.corpus.documents.treachery import is_card_heading, read_treachery, treachery_toc_entries

__all__ = ["MANIFEST_PATH", "READERS", "SOURCES_DIR", "SOURCE_KINDS", "Source", "_builtin", "builtin_key",
           "builtin_releases", "fold_quoted_rulings", "is_card_heading", "load_manifest", "long_date",
           "merge_records", "read_builtin", "read_monarch_rulings", "read_monarch_wiki", "read_source",
           "read_treachery", "rule_ancestors", "rule_kind", "slash_date", "treachery_toc_entries"]
