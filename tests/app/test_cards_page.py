"""Cards in the app (issue 21.4), driven in-process by Streamlit's AppTest: the Cards page (a name as
people type it, suggestions, a shareable address, the same content as ``rulesjudge card``) and the cards
a question names on the search page (their text and rulings ranked by the question, its words marked).

Expected answers come from the cards' Oracle text and rulings in the built-in snapshot (2026-07-09) and
the Comprehensive Rules, never from running the code."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.test_apptest import HOME, TIMEOUT, WEB, plain, shown

CARDS = WEB / "pages" / "2_Cards.py"


def cards_page(name: str | None = None, *, link: bool = False) -> AppTest:
    at = AppTest.from_file(str(CARDS), default_timeout=TIMEOUT)
    if name is not None and link:
        at.query_params["card"] = name
    at.run()
    assert not at.exception, at.exception
    if name is not None and not link:
        at.text_input(key="card").set_value(name).run()
        assert not at.exception, at.exception
    return at


def buttons(at: AppTest) -> list[str]:
    return [plain(str(b.label)) for b in at.button]


def test_a_typo_finds_the_card_with_faces_commander_facts_rulings_and_rules(app_env):
    text = shown(cards_page("platnum angle"))
    assert "Platinum Angel" in text and "cards@2026-07-09/card/platinum-angel" in text
    # why: the card's Oracle text (Platinum Angel: "You can't lose the game and your opponents can't win")
    assert "You can't lose the game and your opponents can't win the game." in text
    assert "Artifact Creature — Angel {7}" in text and "4/4" in text
    assert "Commander: legal; can't be your commander" in text  # 903.3: an artifact creature, not legendary
    # why: "can't lose the game" refers to 104.3 (ways to lose) and Flying to 702.9
    assert "CR 104.3" in text and "CR 702.9 (2026-04-17)" in text


def test_the_page_shows_what_rulesjudge_card_prints(app_env):
    """One view for both: every line of the command's text (its words) is on the page."""
    from rulesjudge.app import cards_view, services
    from rulesjudge.corpus.cards import load_cards

    card = load_cards().named("Thalia, Heretic Cathar")
    assert card is not None
    view = cards_view.card_view(card, cards_view.rules_refs([card], services.corpus_of(None))[card.id])
    text = " ".join(shown(cards_page("Thalia, Heretic Cathar")).split())
    for ruling in view.rulings:  # every ruling with its date
        assert ruling.date in text and " ".join(ruling.text.split()) in text
    for rule in view.rules:
        assert rule.term in text and all(c in text for c in rule.cited)
    # why: Thalia's creatures of opponents "enter tapped": 614.12 (replacement effects on entering)
    assert "CR 614.12" in text


def test_a_short_name_lists_the_cards_as_buttons_and_one_opens(app_env):
    at = cards_page("Thalia")
    names = buttons(at)
    assert "Thalia, Heretic Cathar" in names and "Thalia, Guardian of Thraben" in names
    next(b for b in at.button if plain(str(b.label)) == "Thalia, Guardian of Thraben").click().run()
    assert not at.exception, at.exception
    assert at.text_input(key="card").value == "Thalia, Guardian of Thraben"
    assert "First strike" in shown(at)  # why: Thalia, Guardian of Thraben has first strike


def test_suggestions_while_typing_the_start_of_a_name(app_env):
    at = cards_page("Plat")
    assert "Platinum Angel" in buttons(at) and not at.warning  # a name being typed is not unknown


def test_a_card_shown_suggests_only_longer_names_that_start_so(app_env):
    at = cards_page("Fog")
    assert "Prevent all combat damage that would be dealt this turn." in shown(at)  # Fog's text
    names = buttons(at)
    assert "Fog Bank" in names and all(n.lower().startswith("fog") for n in names)


def test_a_nickname_and_a_face_name(app_env):
    assert "Oblivion Ring" in shown(cards_page("O-Ring"))  # the table's nickname, kept as data
    text = shown(cards_page("insectile aberration"))  # a back face names its card
    assert "Delver of Secrets // Insectile Aberration" in text and "Insectile Aberration" in text


def test_the_address_opens_the_card(app_env):
    at = cards_page("Fog", link=True)
    text = shown(at)
    assert "Prevent all combat damage that would be dealt this turn." in text  # Fog's Oracle text
    assert "Cards?card=Fog" in "\n".join(str(m.value) for m in at.caption)


def test_an_unknown_name_is_one_line_with_the_closest(app_env):
    at = cards_page("qwertyuiop zxcvbnm")
    assert [w.value for w in at.warning] and "no card named" in plain(str(at.warning[0].value))


def test_a_name_holding_markdown_is_shown_as_typed(app_env):
    at = cards_page("[x](javascript:alert(1))")
    assert not any("](javascript" in str(m.value) for m in [*at.markdown, *at.warning])


# ------------------------------------------------------------------------------------------ search page


def search(question: str) -> AppTest:
    at = AppTest.from_file(str(HOME), default_timeout=TIMEOUT)
    at.run()
    at.chat_input(key="query").set_value(question).run()
    assert not at.exception, at.exception
    return at


def test_the_cards_a_question_names_stand_beside_the_rules(app_env):
    at = search("Opponent controls Thalia, Heretic Cathar; I cast Gideon Blackblade. "
                "Does Gideon enter tapped?")
    text = shown(at)
    assert "Cards named in the question (2)" in text
    assert "Creatures and nonbasic lands your opponents control enter tapped." in plain(text.replace(
        ":orange-background[", "").replace("]", ""))  # why: Thalia's Oracle text answers it
    raw = "\n".join(str(m.value) for m in at.markdown)
    assert ":orange-background[tapped]" in raw  # the question's word marked in the card's text
    assert ":orange-background[control]" in raw  # "controls" in the question marks "control"
    assert "- **2.** 2016-07-13 · " in plain(raw)  # a ruling keeps its own number and date
    assert ":orange-background[Thalia]" not in raw  # a card's own name is not marked in its rulings


def test_the_rulings_closest_to_the_question_come_first(app_env):
    """Thalia's ruling about a permanent that enters at the same time (ruling text, not code) is the one a
    question about entering together should see among the first three."""
    at = search("Thalia, Heretic Cathar and my opponent's creature enter the battlefield at the same time: "
                "does it enter tapped?")
    first = next(str(m.value) for m in at.markdown if str(m.value).startswith("- **")).split("\n")[0]
    assert "same time" in plain(first.replace(":orange-background[", "")).replace("]", "")


def test_a_question_naming_no_card_shows_no_cards(app_env):
    assert "Cards named in the question" not in shown(search("who becomes the monarch if the monarch leaves"))


# ------------------------------------------------------------------------------------------ checker page


def test_the_checker_shows_the_oracle_text_of_an_effects_source(app_env):
    """A table where Platinum Angel's static ability is in force (added as an event, as the page does);
    its Oracle text is what the derivation's "Platinum Angel's static ability" refers to."""
    from rulesjudge.app import presenters

    game = {"players": ["Ann", "Ben", "Cat"],
            "permanents": {"Platinum Angel": {"owner": "Ann", "kind": "creature", "power": 4, "toughness": 4},
                           "Platnum Angle": {"owner": "Ben", "kind": "creature"},
                           "Angel": {"owner": "Cat", "kind": "creature"}}}
    events = [{"add-effect": {"cant-lose": {"controller-of": "Platinum Angel"}}},
              {"add-effect": {"cant-lose": "Ben", "source": "Platnum Angle"}},
              {"add-effect": {"cant-lose": "Cat", "source": "Angel"}}]
    at = AppTest.from_file(str(WEB / "pages" / "1_Scenario_checker.py"), default_timeout=TIMEOUT)
    at.query_params["ruling"] = presenters.encode_share(game, events)
    at.run()
    assert not at.exception, at.exception
    text = shown(at)
    assert "Cards the effects come from (2)" in [plain(str(e.label)) for e in at.expander]
    assert "You can't lose the game and your opponents can't win the game." in text  # its Oracle text
    assert "Platnum Angle: no card of that name; did you mean Platinum Angel?" in text
    assert "Angel:" not in text.replace("Platinum Angel", "")  # a name of the table's own is no card
