"""Loading the whole corpus: the built-in documents and release, plus the releases in the data folder.

>>> corpus = load_corpus(include_user_releases=False)          # doctest: +SKIP
>>> corpus.lookup("725.4").citation                            # doctest: +SKIP
'CR 725.4 (2026-04-17)'

A rule read from two places (a release's 722.4 and the Monarch wiki page's quote of the same edition)
has one id and becomes one record with both provenances; the official release's text is kept.

Many releases at linear cost
----------------------------
Parsed releases live in one SQLite file, ``data_dir()/cache/corpus.sqlite`` (see :class:`Cache`), keyed by
the sha256 of the release file, one row per record, so that a process reads only the records it asks for:
``rulesjudge rule 100.1`` with 62 releases loaded touches a few dozen rows. A release file is hashed once;
afterwards its size, modification time and inode say it is unchanged. The cross-release map is kept per
pair of neighbouring releases of a document (oldest first): adding a release maps it onto its two
neighbours, once; "the same rule in every other edition" follows the maps from neighbour to neighbour.
Records the source documents quote from an edition no release provides (the Player page's 2015 rules) are
mapped onto the releases around that edition. Nothing here imports torch.

Where things live: :mod:`.loading` (:func:`load_corpus`, the data folder's release files), :mod:`.cache`
(the SQLite cache and how a parsed release gets into it), :mod:`.stored` (:class:`StoredCorpus`: records by
id, number and edition, the same rule across editions), :mod:`.assembly` (releases mapped onto their
neighbours, the built-in documents merged in; :func:`assemble` and :func:`corpus_of` for tests).
"""

from rulesjudge.corpus.store.assembly import assemble, corpus_of, typography_key
from rulesjudge.corpus.store.cache import CACHE_FILE, SCHEMA, Cache, cache_path, healed, keep_release
from rulesjudge.corpus.store.loading import (
    CONTENTS_FILE,
    RELEASES_FOLDER,
    builtin_release_paths,
    describe,
    load_corpus,
    open_cache,
    read_release,
    user_release_paths,
    user_releases_folder,
)
from rulesjudge.corpus.store.stored import LoadedRelease, StoredCorpus

__all__ = [
    "CACHE_FILE", "CONTENTS_FILE", "RELEASES_FOLDER", "SCHEMA", "Cache", "LoadedRelease", "StoredCorpus",
    "assemble", "builtin_release_paths", "cache_path", "corpus_of", "describe", "healed", "keep_release",
    "load_corpus", "open_cache", "read_release", "typography_key", "user_release_paths",
    "user_releases_folder",
]
