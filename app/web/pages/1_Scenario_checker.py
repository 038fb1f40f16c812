"""rulesjudge — the scenario checker: ask about a table first, then build it, play events, read the model.

Thin page: the table form, answers, picture, ruling text, share links and download live in
app/presenters.py, the plain-English questions in app/whatif.py, the model and library in app/services.py.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import streamlit as st

from rulesjudge.app import library as scenario_library
from rulesjudge.app import presenters, services, whatif
from rulesjudge.app.presenters import DEFAULT, NOBODY, TableForm
from rulesjudge.app.table import Table
from rulesjudge.app.table_picture import render_svg
from rulesjudge.app.web import cards_ui, common
from rulesjudge.common.errors import InputError
from rulesjudge.scenarios.model.steps import Step
from rulesjudge.scenarios.model.variant import COMMANDER_STARTING_LIFE
from rulesjudge.scenarios.runner import AnswerReport

if TYPE_CHECKING:  # the type only: the search is imported when the page first needs it
    from rulesjudge.indexer.search import Hit

common.setup_page("Scenario checker", "👑")
md = common.md

STANDARD_QUESTIONS = ["active", "monarch", "initiative", "turn-order", "apnap-order", "in-game", "game-over",
                      "winners", "losers", "legal-setup", "first-player", "defending-players", "drawn"]
FIELDS = {"variant": "t_variant", "players": "t_players", "teams": "t_teams", "identities": "t_identities",
          "active": "t_active", "monarch": "t_monarch", "initiative": "t_initiative", "life": "t_life",
          "range": "t_range", "attack": "t_attack", "commander": "t_commander", "permanents": "t_permanents"}
KEPT = [*FIELDS.values(), "questions", "custom_questions", "save_name", "save_why"]

state = st.session_state


def default_questions(variant: str) -> list[str]:
    """The standard questions a new table of this variant is asked (the variant's own list)."""
    return list(presenters.variant_of(variant).default_questions)


state.setdefault("events", [])
state.setdefault("loaded", None)  # {"name", "why", "about", "expect", "source"} of a loaded scenario
state.setdefault("ask", "")  # the question on the page (answered on every run until cleared)
if "t_players" not in state:
    for name, key in FIELDS.items():
        state[key] = getattr(TableForm(players="Ann, Ben, Cat, Dan"), name)
    state["questions"] = default_questions(state["t_variant"])
    state["custom_questions"] = ""
    state["save_name"] = "A table from the rulesjudge app"
    state["save_why"] = ""
for kept in KEPT:  # a widget that is not drawn in a run loses its value: keep the table as typed
    if kept in state:
        state[kept] = state[kept]


def apply_table(game: dict[str, Any], events: Sequence[Any]) -> None:
    """Put a table and its events into the widgets (before they are drawn)."""
    form = presenters.game_to_form(game)
    for name, key in FIELDS.items():
        state[key] = getattr(form, name)
    state["events"] = list(events)


def apply_scenario(raw: dict[str, Any], source: str) -> None:
    """Put a scenario's table, events, questions, name and why into the widgets."""
    game_raw = raw.get("game")
    apply_table(game_raw if isinstance(game_raw, dict) else {}, list(raw.get("events") or []))
    expect_raw = raw.get("expect")
    expect: dict[str, Any] = expect_raw if isinstance(expect_raw, dict) else {}
    state["loaded"] = {"name": str(raw.get("name", "")), "why": str(raw.get("why") or ""),
                       "about": list(raw.get("about") or []), "expect": expect, "source": source}
    state["questions"] = [q for q in expect if q in STANDARD_QUESTIONS]
    state["custom_questions"] = "\n".join(q for q in expect if q not in STANDARD_QUESTIONS)
    state["save_name"] = str(raw.get("name") or "A table from the rulesjudge app")
    state["save_why"] = str(raw.get("why") or "")
    state["ask"] = ""


# ------------------------------------------------------------------------------ links, loads, uploads

saved_table = st.query_params.get("table")  # the table as last built, kept in the address across reloads
if saved_table and not state.get("table_restored") and not st.query_params.get("ruling"):
    state["table_restored"] = True
    try:
        restored = presenters.decode_share(saved_table, source="address")
        apply_table(restored.game, restored.events)
        state["questions"] = default_questions(str(restored.game.get("variant") or ""))
    except InputError as error:
        st.warning("The table in the address can't be read; the default table instead: " + md(str(error)))

library = common.library()
by_path = {entry.relpath: entry for entry in library}
pending = state.pop("load_scenario", None)
linked = st.query_params.get("scenario")  # a link from a search hit: ?scenario=<library path>
if linked and linked != state.get("linked_scenario"):
    state["linked_scenario"] = linked
    pending = pending or linked
if pending in by_path:
    apply_scenario(by_path[pending].raw, f"library: {pending}")
elif pending:
    st.warning("No library scenario at " + md(str(pending)))

shared = st.query_params.get("ruling")  # a shared ruling: ?ruling=<table, events and question>
if shared and shared != state.get("shared_ruling"):
    state["shared_ruling"] = shared
    try:
        ruling = presenters.decode_share(shared)
        apply_table(ruling.game, ruling.events)
        state["ask"] = ruling.question
        state["loaded"] = None
        state["questions"] = default_questions(str(ruling.game.get("variant") or ""))
        st.info("Opened a shared ruling: the table, its events and the question as they were shared.")
    except InputError as error:
        st.error(md(str(error)))

st.title("Scenario checker")
loaded = state.get("loaded")
if loaded:
    st.info(f"Loaded {md(loaded['source'])}: **{md(loaded['name'])}**" +
            (f" — {md(loaded['why'])}" if loaded["why"] else ""))

with st.expander("Load a scenario: the library or a file", expanded=False):
    pick, button = st.columns([4, 1], vertical_alignment="bottom")
    choice = pick.selectbox("Library scenario", ["", *by_path], key="library_choice",
                            format_func=lambda p: p or "(choose one)")
    if button.button("Load", disabled=not choice, key="load_button") and choice:
        apply_scenario(by_path[choice].raw, f"library: {choice}")
        st.rerun()
    # one limit said: ours (64 KB, services.read_upload), not Streamlit's larger per-file cap beside it
    st.html("<style>[data-testid='stFileUploaderDropzoneInstructions'] small {display: none}</style>")
    upload = st.file_uploader("Upload a scenario file (.yaml, up to 64 KB)", type=["yaml", "yml"],
                              key="upload")
    if upload is not None and state.get("upload_id") != upload.file_id:
        state["upload_id"] = upload.file_id
        try:
            raw = services.read_upload(upload.getvalue(), upload.name)  # bounded, as `rulesjudge check`
            apply_scenario(raw, f"upload: {upload.name}")
            state["upload_error"] = None
            st.rerun()
        except InputError as error:
            state["upload_error"] = str(error)
if state.get("upload_error"):  # outside the folded box, so it is seen
    st.error(md(state["upload_error"]))


# ------------------------------------------------------------------------------------- the table


def current_form() -> TableForm:
    """The widgets' values (a hidden widget's value may be gone from the session: its default then)."""
    blank = TableForm()
    return TableForm(**{name: state.get(key, getattr(blank, name)) for name, key in FIELDS.items()})


def read_table() -> tuple[dict[str, Any] | None, list[str], str | None]:
    """The table on screen as the scenario format's ``game:``, its seats, or the one-line error."""
    try:
        draft = current_form()
        draft_game = presenters.form_to_game(TableForm(**{**draft.__dict__, "active": DEFAULT,
                                                          "monarch": NOBODY, "initiative": NOBODY}))
        seats = presenters.seat_order(draft_game)
    except InputError as error:
        return None, presenters.split_names(str(state.get("t_players") or "")), str(error)
    for key, first in (("t_active", DEFAULT), ("t_monarch", NOBODY), ("t_initiative", NOBODY)):
        if state.get(key) not in (first, *seats):
            state[key] = first
    try:
        return presenters.form_to_game(current_form()), seats, None
    except InputError as error:
        return None, seats, str(error)


game, seats, table_error = read_table()
events: list[Any] = state["events"]
if game is not None:  # the address keeps the table: a reload (or a bookmark) reopens it as built
    state["table_restored"] = True
    token = presenters.encode_share(game, events)
    if st.query_params.get("table") != token:
        st.query_params["table"] = token


def show_steps(steps: Sequence[Step], *, key: str) -> None:
    """A derivation: numbered sentences, the readings a judge may choose, each cited rule expandable."""
    store = common.corpus()
    for i, step in enumerate(steps, 1):
        st.markdown(f"{i}\\. " + md(step.text))
        for reading in step.alternatives:
            st.markdown("- one reading: " + md(str(reading.text)) + " → "
                        + md(presenters.format_value(reading.value)))
        for c, citation in enumerate(services.step_citations(step, store)):
            common.citation_block(citation, key=f"{key}-{i}-{c}")


def show_answers(
    answers: list[AnswerReport], expect: dict[str, Any] | None = None, *, key: str, fold: bool = False
) -> None:
    """Each answer with its derivation (``fold``: the derivation in an expander, for a long list)."""
    for n, answer in enumerate(answers):
        question = str(answer.question)
        value = answer.value
        with st.container(border=True):
            line = f"**{md(question)}** → **{md(presenters.format_value(value))}**"
            if expect is not None and question in expect:
                wanted = expect[question]
                ok = services.meets_expectation(answer, wanted)
                verdict = "✓ as expected" if ok else "✗ NOT as expected:"
                line += f" — {verdict} {md(presenters.format_value(wanted))}"
            st.markdown(line)
            if fold:
                with st.expander("Why"):
                    show_steps(answer.steps, key=f"{key}-{n}")
            else:
                show_steps(answer.steps, key=f"{key}-{n}")


# --------------------------------------------------------------------------- ask about this table

st.subheader("Ask about this table")
facts = None
table = None  # the table played once for this rerun: the facts, the events' steps, the picture, the answers
if game is not None:
    try:
        table = services.open_table(game, events)
        facts = services.table_facts(table)
    except InputError as error:
        table_error = str(error)
def show_what_if(asked: str, events: Sequence[Any], answered: services.AskedWhatIf, started: float) -> None:
    """The answer as a judge says it, how the question was read, the derivation below, the picture after it,
    the share link and the ruling to copy (the model's notation stays in ``ask --json``)."""
    plan, outcome, asked_game = answered.plan, answered.outcome, answered.game
    assert plan is not None and outcome is not None and outcome.after is not None
    elapsed = time.perf_counter() - started
    with st.container(border=True, key="whatif_answer"):
        st.caption("You asked: " + md(asked))
        st.markdown("### " + md(outcome.answer))
        st.markdown("Read as: *" + md(plan.summary) + "*")
        if answered.situation:
            st.info(md(answered.situation))
        steps = [s for group in outcome.event_steps for s in group] + \
            [s for a in outcome.report.answers for s in a.steps]
        with st.expander(f"Why: the derivation, {len(steps)} steps", expanded=len(steps) <= 6):
            show_steps(_distinct(steps), key="whatif")
        st.caption(f"answered in {elapsed * 1000:.0f} ms")
        focus = plan.players[0] if plan.players else None
        after = presenters.build_picture(
            outcome.after, arrows_for=focus,
            show_range=plan.kind in ("in-range", "who-in-range", "range"),
            show_attacks=plan.kind in ("can-attack", "attack-targets", "attackers-of"),
            reveal=bool(state.get("reveal")),
            cards=services.identity_cards(outcome.after))
        drawn, _ = st.columns([3, 1])
        drawn.image(render_svg(after), caption="the table after the what-if", width="stretch")
        # st.context.url is Streamlit >= 1.46 (pyproject allows 1.40): without it, a relative link
        base = str(getattr(st.context, "url", "") or "").split("?")[0]
        link = f"{base}?ruling={presenters.encode_share(game or asked_game, events, asked)}"
        share, copy = st.columns(2)
        with share.expander("Share this ruling (a link)"):
            st.code(link, language=None, wrap_lines=True)
            st.caption("The link reopens this table, its events and the question.")
        with copy.expander("Copy ruling (plain text)"):
            ruling_text = presenters.ruling_text(
                question=asked, summary=plan.summary, answer=outcome.answer, game=asked_game, events=events,
                steps=outcome.ruling_steps, situation=answered.situation, link=link)
            st.code(ruling_text, language=None, wrap_lines=True)


def _distinct(steps: Sequence[Step]) -> list[Step]:
    """The steps once each (two questions often give the same step)."""
    seen: set[tuple[str, tuple[Any, ...]]] = set()
    kept = []
    for one in steps:
        key = (one.text, tuple(one.cites))
        if key not in seen:
            seen.add(key)
            kept.append(one)
    return kept


def show_fallback(asked: str, table: dict[str, Any], started: float) -> None:
    """A question the model can't take: the closest rules and library scenarios (no torch: ONNX vectors)."""
    with st.container(border=True, key="whatif_fallback"):
        st.caption("You asked: " + md(asked))
        st.warning("I can't turn that into a question for the rules model; here are the rules and the "
                   "library scenarios closest to it.")
        services.ready_for(asked)
        hits: list[Hit] = []
        try:  # ten hits for the scenarios citing them (the top three may be rulings no scenario cites)
            # the table's variant's own rules first, then the general ones
            hits = services.search_for_table(asked, table, common.searcher(), k=10)
        except InputError as error:
            st.error(md(str(error)))
        for hit in hits[:3]:
            st.markdown(f"**{md(hit.citation)}** — " + md(hit.text))
        for near in scenario_library.closest_library(asked, common.searcher(), library, hits=hits,
                                             index=common.library_index()):
            cols = st.columns([6, 1])
            cols[0].markdown(f"Scenario: **{md(near.entry.name)}** — {md(near.entry.why)}")
            if cols[1].button("Load", key=f"near-{near.entry.relpath}"):
                state["load_scenario"] = near.entry.relpath
                st.rerun()  # the whole page: the scenario goes into the table form
        st.caption(f"answered in {(time.perf_counter() - started) * 1000:.0f} ms")


@st.fragment
def ask_about_table(table: Table | None, facts: Any, table_error: str | None) -> None:
    """The question box and its answer. A fragment: asking reruns this part only, not the table form, the
    picture and the model's answers below, which a question does not change (most of the page's work, for
    the browser and for the server)."""
    with st.container(key="ask_box"):  # inline (a chat input outside a container is pinned to the bottom)
        submitted = st.chat_input("Ask about this table in plain English", key="whatif_q")
    if submitted is not None:
        state["ask"] = submitted
    if facts is not None:
        st.caption("Players by name, role or group (the monarch, the leader, Ann's teammate, everyone "
                   "except Dan); you may state the table first (\"Ann is the monarch. On Ben's turn Ann "
                   f"concedes.\"). Up to {whatif.MAX_QUESTION} characters. For example: "
                   + md(" · ".join(whatif.examples(facts)[:2])))
    asked = str(state.get("ask") or "").strip()
    if len(asked) > whatif.MAX_QUESTION:  # kept and said, not cleared: the judge cuts it down
        st.error(f"This question is {len(asked)} characters; the limit is {whatif.MAX_QUESTION}: cut "
                 f"{len(asked) - whatif.MAX_QUESTION}. Your text, to copy back into the box:")
        st.code(asked, language=None, wrap_lines=True)
    elif asked and table_error:
        st.warning("Mend the table below first: " + md(table_error))
    elif asked and table is not None and facts is not None:
        started = time.perf_counter()
        try:  # the facts the question states set its table; what it takes for granted is said
            answered = services.ask_what_if(table, asked, common.corpus(), source="question")
        except InputError as error:  # understood, but names someone not at the table
            st.error(md(str(error)))
        else:
            if answered.plan is not None:
                show_what_if(asked, list(table.events), answered, started)
            else:
                show_fallback(asked, dict(table.game), started)
    if asked and st.button("Clear the question", key="clear_ask"):
        state["ask"] = ""
        st.rerun(scope="fragment")


ask_about_table(table, facts, table_error)


# ------------------------------------------------------------------------------------- 1. the table


def on_variant() -> None:
    """A new variant: a table its rules accept (the variant says its teams, identities and fewest players)
    and its questions. The form still holds the previous variant's fields; the widget holds the new one."""
    variant = str(state.get("t_variant"))
    before = TableForm(**{**current_form().__dict__, "variant": str(state.get("shown_variant") or variant)})
    after = presenters.switch_variant(before, variant)
    for name, key in FIELDS.items():
        state[key] = getattr(after, name)
    state["shown_variant"] = variant
    state["questions"] = default_questions(variant)


st.subheader("1. The table")
col_a, col_b = st.columns(2)
with col_a:
    variant = st.selectbox("Variant", presenters.VARIANTS, key="t_variant", on_change=on_variant)
    state["shown_variant"] = variant
    rules = presenters.variant_of(variant)
    if rules.needs_teams:
        together = "seats clockwise, " if rules.teams_sit_together else ""
        st.text_area(f"Teams (one team per line, {together}*Name marks an emperor)", key="t_teams", height=90)
    if rules.needs_teams and rules.teams_sit_together:  # one field seats the table: the teams, in order
        st.caption("Seats clockwise: " + md(", ".join(seats)))
    else:
        st.text_input("Players in seat order (clockwise, comma-separated)", key="t_players")
    if rules.has_identities:
        st.text_area("Identities (one per line: Name: role[, card][, up|down])", key="t_identities",
                     height=130,
                     help="A legal deal for the player count is filled in; change it as dealt.")
    if len(seats) < rules.min_players:
        st.caption(f"{md(rules.title)} is played by {rules.min_players} or more players "
                   f"({rules.min_players_rule}).")
    st.text_input("Life totals (Name: N, …; others start at the variant's life)", key="t_life")
    st.text_area("Permanents (one per line: Bear: owner Ben, controller Ann)", key="t_permanents", height=68)
with col_b:
    st.selectbox("Active player", [DEFAULT, *seats], key="t_active")
    st.selectbox("Monarch", [NOBODY, *seats], key="t_monarch")
    st.selectbox("Initiative", [NOBODY, *seats], key="t_initiative")
    ranges = ["unlimited", "1", "2", "3", "4"]
    if state.get("t_range") not in ranges:
        ranges.append(str(state.get("t_range")))
    st.selectbox("Range of influence", ranges, key="t_range")
    st.selectbox("Attack option", presenters.ATTACK_OPTIONS, key="t_attack")
    st.checkbox(f"Commander (starting life {COMMANDER_STARTING_LIFE})", key="t_commander")

if table_error:
    st.error(md(table_error))
    st.stop()
assert game is not None and table is not None

# ------------------------------------------------------------------------------------------ 2. events

st.subheader("2. Events")
from rulesjudge.scenarios.model.events import (  # noqa: E402
    EVENT_TYPES,
    EventArgError,
    event_to_yaml,
    parse_event,
)

derivations = services.event_steps(table.report())  # played above: the steps each event caused
if events:
    for i, event in enumerate(events):
        with st.container(border=True):
            cols = st.columns([8, 1])
            cols[0].code(presenters.describe_event(event), language="yaml")
            if cols[1].button("✕", key=f"remove-{i}", help="remove this event"):
                events.pop(i)
                st.rerun()
            if i < len(derivations):
                with st.expander("Its derivation"):
                    show_steps(derivations[i], key=f"ev-{i}")
else:
    st.caption("No events yet: the table as it stands.")

with st.expander("Add an event", expanded=not events):
    kind = st.selectbox("Event", sorted(EVENT_TYPES), key="ev_kind",
                        index=sorted(EVENT_TYPES).index("leaves") if "leaves" in EVENT_TYPES else 0)
    cls = EVENT_TYPES[kind]
    seats_key = abs(hash(tuple(seats))) % 10**8  # player pickers start afresh when the seats change
    arg: dict[str, Any] = {}
    if kind == "combat-damage":
        c1, c2, c3 = st.columns(3)
        arg["from"] = c1.selectbox("Creature controlled by", seats, key=f"ev_from_{seats_key}")
        arg["to"] = c2.selectbox("deals combat damage to", seats, key=f"ev_to_{seats_key}",
                                 index=min(1, len(seats) - 1))
        arg["amount"] = int(c3.number_input("amount", min_value=0, max_value=999, value=1, key="ev_amount"))
    elif kind in ("poison", "set-life"):
        c1, c2 = st.columns(2)
        arg["player"] = c1.selectbox("player", seats, key=f"ev_{kind}_player_{seats_key}")
        if kind == "poison":
            arg["count"] = int(c2.number_input("poison counters", min_value=0, max_value=99, value=1,
                                               key="ev_poison_count"))
        else:
            arg["life"] = int(c2.number_input("life total becomes", min_value=-999, max_value=999, value=10,
                                              key="ev_set_life"))
    elif not cls.KINDS and kind not in ("upkeep", "end-step", "next-turn", "resolve"):
        # the other events with their own argument shapes (attack, add-effect, …): typed as in a file
        typed = st.text_input("argument, as in a scenario file (docs/scenario-format.md)",
                              key=f"ev_{kind}_raw", placeholder="{creature: Krenko, to: Ben}")
        try:
            raw_arg = presenters.event_argument(typed)
        except InputError as error:
            st.error(md(str(error)))
            raw_arg = None
        if isinstance(raw_arg, dict):
            arg.update(raw_arg)
        elif raw_arg is not None:
            arg = {"": raw_arg}
    else:
        permanents = list((game.get("permanents") or {}).keys())
        for key_name, arg_kind in cls.KINDS.items():
            widget = f"ev_{kind}_{key_name}_{seats_key}"
            label = key_name + ("" if key_name in cls.REQUIRED else " (optional)")
            if arg_kind == "player":
                options = seats if key_name in cls.REQUIRED else ["", *seats]
                value: Any = st.selectbox(label, options, key=widget)
            elif arg_kind == "players":
                value = st.multiselect(label + " (several: at the same time)", seats, key=widget)
            elif arg_kind == "int":
                value = int(st.number_input(label, min_value=0, max_value=999, value=1, key=widget))
            elif arg_kind == "str" and key_name in cls.CHOICES:
                options = list(cls.CHOICES[key_name])
                if key_name not in cls.REQUIRED:
                    options = ["", *options]
                value = st.selectbox(label, options, key=widget)
            elif arg_kind == "permanent" and permanents:
                value = st.selectbox(label, permanents, key=widget)
            elif arg_kind == "target":  # a player, planeswalker or battle
                value = st.selectbox(label, [*seats, *permanents], key=widget)
            else:
                value = st.text_input(label, key=widget)
            if value not in ("", [], None):
                arg[key_name] = value
    hold = st.checkbox("hold: its triggers wait on the stack", key="ev_hold")
    if hold:
        arg["hold"] = True
    if st.button("Add event", key="add_event", type="primary"):
        try:
            given: Any = arg.get("") if set(arg) == {""} else (arg or None)  # a bare value typed as is
            event = event_to_yaml(parse_event(kind, given))
            events.append(event)
            st.rerun()
        except EventArgError as error:  # a one-line message naming the key
            st.error(md(f"{kind}: {error.key} {error}".strip()))
        except Exception as error:  # an argument the reader did not foresee: its message, no traceback
            st.error(md(f"{kind}: {error}"))
if events and st.button("Clear all events", key="clear_events"):
    state["events"] = []
    st.rerun()


# ------------------------------------------------------------------------------------ 3. the picture

st.subheader("3. The table now")
picture_column, options_column = st.columns([2, 1])
with options_column:
    step_max = len(events)
    # A new slider for every list of events, so the picture is redrawn after the newest event.
    events_key = abs(hash(repr(events))) % 10**8
    shown = st.slider("Show the table after event", 0, step_max, step_max, key=f"picture_slider_{events_key}",
                      disabled=not step_max) if step_max else 0
    arrow_options = ["(none)", "everyone", *seats]
    if state.get("arrows_for") not in arrow_options:
        state["arrows_for"] = "(none)"
    arrows_for = st.selectbox("Arrows for", arrow_options, key="arrows_for")
    show_range = st.checkbox("range of influence", key="show_range", value=True)
    show_attacks = st.checkbox("who can attack whom", key="show_attacks", value=True)
    reveal = st.checkbox("reveal face-down identities (the judge's view)", key="reveal", value=False)
try:
    shown_table = table.upto(shown)  # the states after each event are kept: nothing is replayed
    picture = presenters.build_picture(
        shown_table,
        arrows_for=None if arrows_for == "(none)" else arrows_for,
        show_range=show_range, show_attacks=show_attacks, reveal=reveal,
        cards=services.identity_cards(shown_table),
    )
    with picture_column:
        st.image(render_svg(picture), width="stretch")
except InputError as error:
    st.error(md(str(error)))
    st.stop()

# ------------------------------------------------------------------------------ 4. the model's answers

cards_ui.show_sources(game, events)  # the cards the effects come from, with their Oracle text

chosen_now = [q for q in state.get("questions", []) if q in STANDARD_QUESTIONS]
custom_now = [q.strip() for q in str(state.get("custom_questions") or "").splitlines() if q.strip()]
with st.expander(f"4. The model's answers for this table ({len(chosen_now) + len(custom_now)} questions)",
                 expanded=bool(loaded)):
    chosen = st.multiselect("Questions", STANDARD_QUESTIONS, key="questions")
    custom = st.text_area("More questions, one per line (e.g. can-attack(Ann, Ben), opponents(Cat), "
                          "life(Dan))", key="custom_questions", height=80)
    questions = [*chosen, *(q.strip() for q in custom.splitlines() if q.strip())]
    answers: list[AnswerReport] = []
    if questions:
        try:
            started = time.perf_counter()
            answers = table.ask(questions)
            st.caption(f"answered in {(time.perf_counter() - started) * 1000:.0f} ms")
            show_answers(answers, loaded["expect"] if loaded else None, key="ans")
        except InputError as error:
            st.error(md(str(error)))
            answers = []

# ------------------------------------------------------------------------------------------- 5. save

st.subheader("5. Save")
name = st.text_input("Scenario name", key="save_name")
why = st.text_area("Why (a one-line reason with the rule)", key="save_why", height=68)
expect = presenters.expect_from_answers(answers)
text = presenters.scenario_yaml(game, events, expect, name=name, why=why,
                                about=[str(a) for a in (loaded["about"] if loaded else [])])
st.download_button("Download the table as a scenario file", data=text.encode("utf-8"),
                   file_name=presenters.file_name(name), mime="application/x-yaml", key="download")
st.caption("The expected answers in the file are the model's answers on screen: check them against the rules "
           "before adding the file to a library.")
with st.expander("The file"):
    st.code(text, language="yaml")

services.start_warm_up()  # after the first page is drawn: the model loads in the background
scenario_library.start_library_vectors(common.searcher(), library)
