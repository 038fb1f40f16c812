"""The app's doors into the other packages: search, corpus, rules model and the scenario library.

Everything the Streamlit pages and ``rulesjudge app`` need from ``indexer``, ``corpus`` and ``scenarios``
goes through here, so the pages stay thin and the adapters live in one place. Nothing here imports
Streamlit; the pages wrap the loaders in ``st.cache_resource`` (see :mod:`app.web.common`), so the model,
the index and the library load once per server.

Heavy imports (torch, sentence-transformers, faiss) happen only inside the functions that need them.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rulesjudge.app import card_cache
from rulesjudge.app import situation as said
from rulesjudge.app.card_sources import oracle_text
from rulesjudge.app.creatures_said import creatures_said
from rulesjudge.app.game_start import at_the_start, start_of
from rulesjudge.app.library import library_index, library_vectors, load_library
from rulesjudge.app.memory import settle, trim
from rulesjudge.app.presenters import RulingStep, emperors, format_value, seat_order, variant_of
from rulesjudge.app.remarks_said import said_remarks
from rulesjudge.app.seats_said import said_seats
from rulesjudge.app.sentences import judge_sentence
from rulesjudge.app.speaker import first_person
from rulesjudge.app.states_said import said_states
from rulesjudge.app.stories import retell
from rulesjudge.app.table import Table
from rulesjudge.app.whatif import TableFacts, WhatIf, WhatIfError, answer_line, interpret
from rulesjudge.app.whatif import warm_up as warm_up_reader
from rulesjudge.app.whatif.restructure import restructure
from rulesjudge.common.errors import InputError
from rulesjudge.common.inputs import decode_text, read_text
from rulesjudge.corpus.records import Corpus
from rulesjudge.corpus.store import load_corpus
from rulesjudge.indexer import onnx_query
from rulesjudge.indexer.cache import index_root
from rulesjudge.indexer.embed import model_hash
from rulesjudge.indexer.search import Hit, Searcher, SearchResult, parse_query
from rulesjudge.indexer.search import open_searcher as _open
from rulesjudge.scenarios.format import Scenario, parse_scenario, read_scenario_yaml
from rulesjudge.scenarios.limits import MAX_CHARS
from rulesjudge.scenarios.model.citations import Resolved, resolve
from rulesjudge.scenarios.model.events import EVENT_TYPES
from rulesjudge.scenarios.model.questions import QUESTIONS
from rulesjudge.scenarios.model.steps import Reading, Step
from rulesjudge.scenarios.model.treachery_cards import ROLES
from rulesjudge.scenarios.runner import AnswerReport, ScenarioReport, same_answer

#: A searcher built by ``rulesjudge app`` before the server starts, reused by the pages (same process).
_PRELOADED: dict[str, Any] = {}
_LOCK = threading.Lock()


# ------------------------------------------------------------------------------------- search + corpus


def open_searcher(*, progress: bool = False, build: bool = True) -> Searcher:
    """The hybrid searcher over the corpus (built or refreshed when the corpus or model changed)."""
    with _LOCK:
        if "searcher" in _PRELOADED:
            return _PRELOADED["searcher"]
        searcher = _open(progress=progress, build=build)
        _PRELOADED["searcher"] = searcher
        return searcher


def preload(searcher: Searcher) -> None:
    """Hand a searcher built by the command line to the pages served from the same process."""
    _PRELOADED["searcher"] = searcher


def prepare_index(*, progress: bool = True) -> Searcher:
    """Load the index for the server, never importing torch in this process: when the index on disk is
    stale or missing (a fresh data folder, a new corpus) or the ONNX query model is not exported yet, a
    separate process builds them (:func:`build_index_here`, with its progress bar on stderr) and this one
    then loads what it wrote. Importing torch costs ~600 MB resident and seconds; it dies with the builder."""
    searcher = _open(progress=progress, build=False, lazy=True)
    # The dense index first: when it is missing the child builds BM25 too (bm25s, kept on disk), so this
    # process does not build it once more beforehand (3 s of a fresh start on two shared cores).
    if searcher.dense is None or not _query_model_ready(searcher):
        build_index_in_child()
        searcher = _open(searcher.corpus, progress=progress, build=False, lazy=True)  # the same corpus
        _ = searcher.dense
    _ = searcher.lexical  # BM25 over the chunks (bm25s: no torch)
    return searcher


def _query_model_ready(searcher: Searcher) -> bool:
    """Is the ONNX export of the query model on disk (so queries never need torch)?"""
    try:
        return onnx_query.onnx_path(index_root() / "onnx", model_hash(searcher.embedder.path)).is_file()
    except Exception:  # the indexer's layout changed: build in the child, which is always safe
        return False


def build_index_in_child() -> None:
    """Build the index and export the query model in a separate Python process (see :func:`prepare_index`).
    Its progress bar and messages go to this process's stderr; a failure is one line (InputError)."""
    import subprocess
    import sys

    code = "from rulesjudge.app.services import build_index_here; build_index_here()"
    done = subprocess.run([sys.executable, "-c", code], check=False)  # inherits the environment and stderr
    if done.returncode != 0:
        raise InputError("index", f"building the search index failed (the builder exited {done.returncode}); "
                                  "see the messages above")


def build_index_here() -> None:
    """Build or refresh the index, embedding only what changed, and export the ONNX query model while the
    model is loaded (the child process of :func:`prepare_index`; torch is imported here only)."""
    searcher = _open(progress=True, build=True, lazy=True)
    _ = searcher.lexical
    _ = searcher.dense  # FAISS: loaded, or (re)built
    searcher.embedder.prepare_queries()


#: How long the end of a process waits for the background threads still loading a model.
BACKGROUND_GRACE_SECONDS = 20.0


def join_background_threads(grace: float = BACKGROUND_GRACE_SECONDS) -> None:
    """Wait, at most ``grace`` seconds in all, for rulesjudge's background threads (``rulesjudge-*``: the
    warm-up, the library's vectors). Run at exit: onnxruntime and torch abort the process (SIGABRT,
    "terminate called without an active exception") when the interpreter's teardown destroys their objects
    while a daemon thread is still inside them."""
    deadline = time.monotonic() + grace
    for thread in threading.enumerate():
        if thread.name.startswith("rulesjudge-") and thread is not threading.current_thread():
            thread.join(max(0.0, deadline - time.monotonic()))


atexit.register(join_background_threads)

_MODEL_READY = threading.Event()
_WARMING: dict[str, threading.Thread] = {}


def warm_up(searcher: Searcher) -> threading.Thread:
    """Load the language model and everything a first search reads (the card names, the lexicon, the
    vocabulary), then index the library by the rules it cites, in the background, so the server answers
    its first page at once; :func:`ready_for` waits for the model and the search's parts when a question
    needs them. Last, what it loaded is put out of the garbage collector's reach (:func:`memory.settle`):
    walked by every full collection, it was the tail of eight judges' searches."""

    def work() -> None:
        try:
            searcher.embedder.prepare_queries()  # the ONNX query model: no torch once it is exported
            warm_search(searcher)
        except Exception:  # the first question will raise the same error, in the page, with its message
            pass
        finally:
            _MODEL_READY.set()
        with contextlib.suppress(Exception):
            library_index(load_library(), corpus_of(searcher))
        with contextlib.suppress(Exception):  # the closest-scenario fallback: read from disk, or encoded once
            library_vectors(searcher, load_library())
        with contextlib.suppress(Exception):  # the what-if typo mender's dictionary (the rules' words, 0.1 s)
            warm_up_reader()
        settle()  # the long-lived objects loaded by now: never walked by a full collection again
        trim()  # what the warm-up built and dropped goes back to the system, not kept in the heap

    thread = threading.Thread(target=work, name="rulesjudge-warm-up", daemon=True)
    _WARMING["thread"] = thread
    thread.start()
    return thread


#: The question the warm-up asks: any question that is not only a rule number reads everything a first
#: search would (the card snapshot's names, the judge's lexicon, the corpus vocabulary, the variants' scopes).
WARM_QUESTION = "what happens when the monarch leaves the game"


def warm_search(searcher: Searcher) -> None:
    """Ask :data:`WARM_QUESTION` once, unfiltered, so that no judge's first
    question loads the card names (0.5 s) or the lexicon and vocabulary (0.3 s) while others wait. The card
    snapshot's child, if one still reads it, is waited for first (the server never parses it itself)."""
    card_cache.wait()
    searcher.search(WARM_QUESTION)


def schedule_warm_up(searcher: Searcher) -> None:
    """Warm up once the first page has been served (:func:`start_warm_up`), so that importing torch does
    not slow down the first page."""
    _PRELOADED["warm-up"] = searcher


def start_warm_up() -> None:
    """Start the scheduled warm-up, once (the pages call this after drawing themselves)."""
    with _LOCK:
        searcher = _PRELOADED.pop("warm-up", None)
        if searcher is not None:
            warm_up(searcher)


def ready_for(query: str, timeout: float = 600) -> None:
    """Wait for the warm-up's model and its first search (:func:`warm_search`) when ``query`` needs them
    (rule numbers alone never do)."""
    start_warm_up()
    if "thread" not in _WARMING or _MODEL_READY.is_set():
        return
    if not parse_query(query).pure:
        _MODEL_READY.wait(timeout)


def model_ready() -> bool:
    if "warm-up" in _PRELOADED:
        return False
    return "thread" not in _WARMING or _MODEL_READY.is_set()


def corpus_of(searcher: Searcher | None = None) -> Corpus:
    """The corpus the searcher was built on (or a freshly loaded one)."""
    if searcher is not None:
        return searcher.corpus
    if "corpus" not in _PRELOADED:
        _PRELOADED["corpus"] = load_corpus()
    return _PRELOADED["corpus"]


def search(
    searcher: Searcher,
    query: str,
    *,
    k: int = 10,
    document: str | None = None,
    edition: str | None = None,
    official_only: bool = False,
) -> SearchResult:
    """One search with the app's filters (None means no filter)."""
    return searcher.search(query, k=k, document=document, edition=edition, official_only=official_only)


# ------------------------------------------------------------------------------------ the rules model


def parse_scenario_text(text: str, path: str = "<upload>") -> Scenario:
    """Validate a scenario file's text with the format's own reader (raises InputError, one line)."""
    return parse_scenario(text, path=path)


def read_scenario_file(path: str | Path) -> dict[str, Any]:
    """A scenario file's data, checked as ``rulesjudge check`` checks it (InputError: one line naming the
    file and line)."""
    return scenario_data(read_text(path, limit=MAX_CHARS, what="scenario file"), str(path))


def read_upload(data: bytes, name: str) -> dict[str, Any]:
    """An uploaded scenario file's data, checked as ``rulesjudge check`` checks a file: at most 64 KB of
    UTF-8, YAML bounded in depth and size, the limits on players, events and questions, a valid scenario.
    Bad input raises InputError (one line naming the file, line and key)."""
    if len(data) > MAX_CHARS:
        raise InputError(name, f"file too large: {len(data)} bytes (the limit is {MAX_CHARS // 1024} KB)")
    return scenario_data(decode_text(data, name), name)


def scenario_data(text: str, name: str) -> dict[str, Any]:
    """A scenario's text as data, once the format's own reader accepts it (InputError otherwise)."""
    parse_scenario(text, path=name)
    raw, _lines = read_scenario_yaml(text, name)
    return dict(raw)


def open_table(game: dict[str, Any], events: Sequence[Any] = ()) -> Table:
    """``game`` set up and ``events`` played once (:class:`app.table.Table`), to be asked many questions:
    the page and the command line make one per question or rerun and pass it to the services below. Bad
    input raises InputError, and so does a table running past the time budget of ``scenarios.limits``."""
    return Table.of(game, events)


def evaluate_full(game: dict[str, Any], events: Sequence[Any], questions: Sequence[str]) -> ScenarioReport:
    """The model's report on ``game`` after ``events``: ``.events`` (each with the steps it caused) and
    ``.answers`` to ``questions`` (scenario-format values; bad input raises InputError, and so does an
    evaluation running past the time budget of ``scenarios.limits``, so no table can hold the server).
    For one question list; to ask a table more than once, :func:`open_table` and ask it."""
    return open_table(game, events).report(questions)


def evaluate(game: dict[str, Any], events: Sequence[Any], questions: Sequence[str]) -> list[AnswerReport]:
    """Ask the model ``questions`` about ``game`` after ``events`` (scenario-format values)."""
    return evaluate_full(game, events, questions).answers


def table_facts(table: Table) -> TableFacts:
    """What a what-if question may refer to (:class:`app.whatif.TableFacts`), asked of the model about the
    table after its events: seats, who is in, the active player, turn order, monarch, initiative, teams,
    teammates, emperors, Treachery roles (the judge sees every card) and life totals.

    >>> facts = table_facts(open_table({"players": ["Ann", "Ben", "Cat"], "monarch": "Cat"},
    ...                                [{"leaves": "Ben"}]))
    >>> facts.monarch, facts.in_game, facts.active
    ('Cat', ('Ann', 'Cat'), ('Ann',))
    """
    game = dict(table.game)
    seats = seat_order(game)
    variant = variant_of(str(game.get("variant") or "free-for-all")).name  # a file may say "Two-Headed Giant"
    dealt = variant_of(variant).has_identities
    questions = ["active", "turn-order", "monarch", "initiative", "in-game", "game-over", "step"]
    questions += [f"life({p})" for p in seats]
    teamed = bool(game.get("teams")) or dealt
    if teamed:
        questions += [f"team({p})" for p in seats] + [f"teammates({p})" for p in seats]
    if dealt:
        questions += [f"role({p})" for p in seats]
        questions += [f"{q}({r})" for r in ROLES for q in ("role-holders", "left-with-role")]
    things = _attackable_things(game)
    questions += [f"controller({n})" for n, _k in things] + [f"exists({n})" for n, _k in things]
    beasts = _creatures(game)
    questions += [f"controller({n})" for n in beasts]
    values = table.values(questions)
    state = table.state

    def players(value: Any) -> tuple[str, ...]:
        if value is None:
            return ()
        return (str(value),) if isinstance(value, str) else tuple(str(v) for v in value)

    return TableFacts(
        players=tuple(seats),
        in_game=players(values.get("in-game")),
        active=players(values.get("active")),
        turn_order=players(values.get("turn-order")),
        monarch=values.get("monarch"),
        initiative=values.get("initiative"),
        variant=variant,
        teams={p: str(values[f"team({p})"]) for p in seats if values.get(f"team({p})") is not None},
        teammates={p: players(values.get(f"teammates({p})")) for p in seats} if teamed else {},
        emperors=tuple(p for p in seats if p in emperors(game)),
        roles={p: str(values[f"role({p})"]) for p in seats if values.get(f"role({p})")} if dealt else {},
        role_holders={r: players(values.get(f"role-holders({r})")) for r in ROLES} if dealt else {},
        left_with_role={r: players(values.get(f"left-with-role({r})")) for r in ROLES} if dealt else {},
        life={p: int(values[f"life({p})"]) for p in seats if isinstance(values.get(f"life({p})"), int)},
        pools=_life_pools(state, seats),
        shared_turns=any(len(state.variant.turn_group(state, p)) > 1 for p in seats),
        commanders=_commanders(game),
        objects=tuple((n, k, str(values[f"controller({n})"])) for n, k in things
                      if values.get(f"exists({n})") is True and values.get(f"controller({n})")),
        creatures=tuple((n, str(values[f"controller({n})"])) for n in beasts
                        if values.get(f"controller({n})")),
        owners={str(n): str(spec["owner"]) for n, spec in (game.get("permanents") or {}).items()
                if isinstance(spec, dict) and spec.get("owner")},
        double_strikers=tuple(str(n) for n, spec in (game.get("permanents") or {}).items()
                              if isinstance(spec, dict) and "double-strike" in (spec.get("keywords") or ())),
        step=str(values.get("step") or ""),
        over=values.get("game-over") is True,
        events=frozenset(EVENT_TYPES),
        questions=frozenset(QUESTIONS),
        cards=oracle_text,
    )


def _life_pools(state: Any, seats: Sequence[str]) -> dict[str, str]:
    """Each player's life total key, as the variant says (a Two-Headed Giant team's is shared, 810.9)."""
    if state is None:
        return {}
    return {p: state.variant.life_pool(state, p) for p in seats}


def _attackable_things(game: dict[str, Any]) -> list[tuple[str, str]]:
    """The planeswalkers and battles a table starts with (name, kind): what a question may attack besides a
    player (506.2)."""
    found = []
    for name, spec in (game.get("permanents") or {}).items():
        kind = str(spec.get("kind") or "").lower() if isinstance(spec, dict) else ""
        if kind in ("planeswalker", "battle"):
            found.append((str(name), kind))
    return found


def _creatures(game: dict[str, Any]) -> list[str]:
    """The creatures a table starts with (a permanent's ``kind`` is creature unless it says otherwise)."""
    return [str(name) for name, spec in (game.get("permanents") or {}).items()
            if isinstance(spec, dict) and str(spec.get("kind") or "creature").lower() == "creature"]


def _commanders(game: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The commanders on the table and their owners (permanents marked ``commander: true``, issue 13)."""
    found = []
    for name, spec in (game.get("permanents") or {}).items():
        if isinstance(spec, dict) and spec.get("commander") is True and spec.get("owner"):
            found.append((str(name), str(spec["owner"])))
    return tuple(found)


def identity_cards(table: Table) -> dict[str, str]:
    """Treachery identity cards by the player who controls them after the table's events (cards move: The
    Metamorph, The Puppet Master), for the picture; empty for other variants or identities dealt without a
    card.

    >>> identity_cards(open_table({"variant": "treachery", "players": ["Ann", "Ben", "Cat", "Dan"],
    ...     "identities": {"Ann": "leader", "Ben": {"role": "traitor", "card": "The Metamorph"},
    ...                    "Cat": "assassin", "Dan": "assassin"}}))
    {'Ben': 'The Metamorph'}
    """
    if not variant_of(str(table.game.get("variant") or "")).has_identities:
        return {}
    identities = table.state.identities
    return {str(p): str(i.card) for p, i in identities.items() if i.card}


def meets_expectation(answer: AnswerReport, wanted: Any) -> bool:
    """Does a model answer equal a scenario's expected value? The runner's own comparison: players as
    sets, orders in order, booleans exactly (so the page and ``rulesjudge check`` never disagree)."""
    # Not ``answer.passed``: answers of an ad-hoc evaluation carry no expectation and default to passed.
    spec = QUESTIONS.get(answer.question.name)
    return same_answer(spec.kind if spec else "", answer.value, wanted)


def event_steps(report: ScenarioReport) -> list[list[Step]]:
    """The derivation steps each event of a report caused, in event order."""
    return [list(event.steps) for event in report.events]


def step_citations(step: Step | Reading, corpus: Corpus | None) -> list[Resolved]:
    """A step's citations resolved against the corpus: label, record_id (None when not loaded), also (the
    same rule in other editions)."""
    return [resolve(cite, corpus) for cite in step.cites]


@dataclass(frozen=True)
class WhatIfOutcome:
    """A what-if played on the table: the model's report, the steps of the what-if's own events, the
    answer in one line, each question's value in words and the steps for the ruling text."""

    report: ScenarioReport
    event_steps: list[list[Step]]
    answer: str  # the judge's sentence: players, yes or no, the deciding rule (app.sentences)
    values: list[tuple[str, str]]
    ruling_steps: list[RulingStep]
    line: str = ""  # the short answer (whatif.answer_line), for --json and the phrase lists
    after: Table | None = None  # the table after the what-if's events (the picture after it)


def _whether_over(plan: WhatIf) -> tuple[str, ...]:
    """ "game-over" asked beside a designation after events: a player leaving may end the game (104.2a; the
    Leader's loss in Treachery, 907.8a), and then who holds it no longer matters (app.sentences says so)."""
    if plan.kind in ("monarch", "initiative") and plan.events and "game-over" not in plan.questions:
        return ("game-over",)
    return ()


def what_if(table: Table, plan: WhatIf, corpus: Corpus, before: TableFacts | None = None) -> WhatIfOutcome:
    """Play ``plan`` (a :class:`app.whatif.WhatIf`) after the table's own events (only the what-if's are
    played) and read the answers. ``before``: the table's facts before the what-if (so the sentence says
    "becomes" for a change)."""
    after = table.then(plan.events)
    report = after.report((*plan.questions, *_whether_over(plan)))
    mine = event_steps(report)[len(table.events):]
    by_question = {str(a.question): a.value for a in report.answers}
    values = [(question, format_value(value)) for question, value in by_question.items()
              if question in plan.questions or value]  # the game's end, when it ended
    line = answer_line(plan, by_question) or "; ".join(f"{q} → {v}" for q, v in values)
    reports = {str(a.question): a for a in report.answers}
    answer = judge_sentence(plan, reports, [s for group in mine for s in group], before) or line
    ruling: list[RulingStep] = []
    steps = [s for group in mine for s in group] + [s for a in report.answers for s in a.steps]
    for step in steps:
        rules = tuple(dict.fromkeys(c.label for c in step_citations(step, corpus)))
        readings = tuple(f"{r.text} → {format_value(r.value)}" for r in step.alternatives)
        text = step.text
        if ruling and ruling[-1].text == text and ruling[-1].rules == rules:
            continue  # the same step given for two questions
        ruling.append(RulingStep(text, rules, readings))
    return WhatIfOutcome(report, mine, answer, values, ruling, line, after)


# ------------------------------------------------------------------------------ the table's search


def search_for_table(question: str, game: Mapping[str, Any], searcher: Searcher, k: int = 10) -> list[Hit]:
    """The rules closest to a question about a table, scoped to its variant: the variant's own rules first
    (its sections, e.g. 810 and the 805 it plays by for Two-Headed Giant; Treachery's own document), the
    general rules next. "can ben block for ann" at a Two-Headed Giant table puts 805.10d (the team blocks as
    one) above the general 509.1b and 802.4a.
    """
    rules = variant_of(str(game.get("variant") or "free-for-all"))
    deep = list(searcher.search(question, k=max(k, DEEP)).hits)
    own = [h for h in deep if _in_sections(h, rules)][:3]
    seen: set[str] = set()
    ordered = []
    for hit in [*own, *deep]:
        if hit.id not in seen:
            seen.add(hit.id)
            ordered.append(hit)
    return ordered[:k]


#: How deep the table's search looks for the variant's own rules (a search of 80 hits is as fast as 10).
DEEP = 80


def _in_sections(hit: Hit, rules: Any) -> bool:
    """Is the hit one of the variant's own rules (a section it names, or its own document)?"""
    if hit.document in rules.documents[:-1]:  # Treachery's own document before the CR
        return True
    number = hit.number or ""
    return any(hit.document == c.document and (number == c.local or number.startswith(c.local + "."))
               for c in rules.own_sections)


# ------------------------------------------------------------------------------ a what-if, anywhere


@dataclass(frozen=True)
class AskedWhatIf:
    """A plain-English question asked of a table: the plan it was read as (None: not understood) and the
    model's outcome."""

    question: str
    plan: WhatIf | None
    outcome: WhatIfOutcome | None
    game: dict[str, Any] = field(default_factory=dict)  # the table as the question set it (facts it stated)
    stated: tuple[str, ...] = ()  # the facts the question stated, in words ("Ann is the monarch")
    overridden: tuple[str, ...] = ()  # what those facts replaced ("the table said Cat is the monarch")
    assumed: str = ""  # what the question took for granted ("Ann, the active player, is the monarch")
    table: Table | None = None  # the table the question was played on (``game`` and the events), played

    @property
    def situation(self) -> str:
        """The question's own table in one line, or nothing ("The question's table: Ann is the monarch; it
        is Ben's turn (the table said Cat is the monarch).")."""
        if not self.stated:
            return ""
        over = f" ({'; '.join(self.overridden)})" if self.overridden else ""
        return f"The question's table: {'; '.join(self.stated)}{over}."


def _checked(events: Sequence[Any], game: Mapping[str, Any], stated: Mapping[str, Any]) -> list[Any]:
    """The table's events, then a state-based action check when the question stated a life total, poison
    counters or commander damage: the table it states is one where a player holds priority, so a player at 0
    life or with 21 damage from one commander has already lost (117.5, 704.3). ``resolve: 0`` resolves
    nothing and checks them.

    >>> _checked([], {"players": ["Ann"]}, {"players": ["Ann"], "life": {"Ann": 0}})
    [{'resolve': 0}]
    """
    said = any(stated.get(key) != game.get(key) for key in ("life", "poison", "commander-damage"))
    return [*events, {"resolve": 0}] if said else list(events)


def ask_what_if(table: Table, question: str, corpus: Corpus, *, source: str = "--what-if") -> AskedWhatIf:
    """Read ``question`` against ``table`` (:func:`open_table`) and play it (the command line's and the app's
    what-if). The facts the question states set the table for it (``app.situation``), and what it takes for
    granted is assumed and said; only then is the table set up again. A question naming someone not at the
    table raises InputError naming ``source``.

    >>> from rulesjudge.scenarios.runner import default_citation_corpus
    >>> asked = ask_what_if(open_table({"players": ["Ann", "Ben", "Cat"], "monarch": "Cat"}),
    ...                     "who is the monarch if Cat leaves", default_citation_corpus())
    >>> asked.outcome.answer
    'Ann becomes the monarch (725.4).'
    >>> asked = ask_what_if(open_table({"players": ["Ann", "Ben", "Cat"]}),
    ...                     "who becomes monarch if the active player leaves?", default_citation_corpus())
    >>> asked.outcome.answer
    'Assuming Ann, the active player, is the monarch: Ben becomes the monarch (725.4).'
    """
    start = at_the_start(question)
    if start is not None:  # "who's the monarch at the start of the game": the table the setup deals
        asked = ask_what_if(open_table(start_of(table.game)), start, corpus, source=source) \
            if start != question or table.events or start_of(table.game) != table.game else None
        if asked is not None and asked.plan and asked.outcome and not asked.plan.events:
            return replace(asked, question=question, outcome=replace(
                asked.outcome, answer=f"At the start of the game: {asked.outcome.answer}"))
    game = dict(table.game)
    seated = game.get("players") or [p for team in game.get("teams") or () for p in team]
    names = [*seated, *(game.get("permanents") or {})]  # what a sentence about this table may name
    # the story said plainly, its first person ("me (Ann)", "did we lose") said as the players it names
    # its sentences made the shapes the readers know first: active voice, a count said in passing its own fact
    told = retell(first_person(restructure(question), [str(p) for p in seated], game),
                  [str(n) for n in names])
    told, remarks = said_remarks(told, game)  # "while Mika is still alive", "Bo is alone": checked, said
    told, seats = said_seats(told, game)  # "Sue (their emperor)", "they're on the same team": checked, said
    remarks = (*remarks, *seats)
    # what it says is in force beside the situation's facts: who controls a permanent, a "can't lose"
    # effect, a total said after the question
    states = said_states(told, game, oracle_text)
    states = replace(states, said=(*remarks, *states.said))
    # creatures described by power and toughness ("blocks with his 1/1 deathtouch Rat") join the table
    described = creatures_said(states.text, states.game)
    states = replace(states, text=described.text, game=described.game, said=(*states.said, *described.said))
    stated = said.read_situation(states.text, states.game)
    if states.said:
        stated = replace(stated, said=(*states.said, *stated.said))
    said.check(stated, source)
    played = table if stated.game == game else \
        open_table(stated.game, _checked(table.events, game, stated.game))
    try:
        facts = replace(table_facts(played), said=stated.said)
        plan = interpret(stated.rest, facts)
    except WhatIfError as error:
        raise InputError(source, str(error)) from error
    if plan is None and stated.changed:  # the facts misread: the question as it was, on the form's table
        played, stated = table, said.Situation(game, rest=told)
        facts = table_facts(played)
        try:
            plan = interpret(told, facts)
        except WhatIfError:  # refused on a table without the facts it states ("Tam is monarch"): never say
            plan = None  # "nobody is the monarch" of a question that says who is - the search answers it
    if plan is None:
        return AskedWhatIf(question, None, None)
    assumed = ""
    presumed = said.presupposed(stated.rest, plan.headline, plan.events, plan.questions,
                                {"monarch": facts.monarch, "initiative": facts.initiative}, stated.said)
    named = next((p for p in facts.playing if presumed and p.casefold() == presumed[1].casefold()), None)
    if presumed and named:
        key, who = presumed[0], named
        played = open_table({**played.game, key: who}, table.events)
        role = ", the active player," if who in facts.active else ""
        assumed = f"{who}{role} {'is the monarch' if key == 'monarch' else 'has the initiative'}"
        facts = table_facts(played)
    outcome = what_if(played, plan, corpus, facts)
    if assumed:
        outcome = replace(outcome, answer=f"Assuming {assumed}: {outcome.answer}")
    return AskedWhatIf(question, plan, outcome, dict(played.game), stated.said, stated.overridden, assumed,
                       played)
