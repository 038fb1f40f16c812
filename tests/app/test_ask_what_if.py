"""`rulesjudge ask --what-if`: a plain-English question about a table, from the command line.

Seats clockwise as listed; the first player is active unless the file says otherwise. Each expected answer
comes from the rules, with the rule beside it.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

FOUR = "Ann, Ben, Cat, Dan"


def scenario(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "table.yaml"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


MONARCH_DAN = """\
    name: Dan is the monarch on Ann's turn
    why: a table for what-if questions
    game:
      players: [Ann, Ben, Cat, Dan]
      active: Ann
      monarch: Dan
    expect:
      monarch: Dan
"""


def test_725_4_the_monarch_leaving_on_anothers_turn_crowns_the_active_player(tmp_path, cli):
    code, out, err = cli("ask", str(scenario(tmp_path, MONARCH_DAN)), "--what-if",
                         "who becomes the monarch if Dan leaves the game?")
    assert code == 0, err
    # 725.4: the monarch leaves the game -> the active player (Ann) becomes the monarch.
    assert "Answer: Ann becomes the monarch (725.4)." in out  # the judge's sentence, with the deciding rule
    assert "CR 725.4 (2026-04-17)" in out  # each step names its rule and edition
    assert "Before:" not in out  # the file has no events


def test_a_question_by_role_reads_the_file_table_725_4(tmp_path, cli):
    code, out, _ = cli("ask", str(scenario(tmp_path, MONARCH_DAN)), "--what-if",
                       "what if the monarch concedes, who gets the crown", "--json")
    assert code == 0
    answer = json.loads(out)
    # 104.3a and 725.4: Dan concedes on Ann's turn; Ann, the active player, becomes the monarch.
    assert answer["understood"] is True
    assert answer["answer"] == "Ann"
    assert answer["events"] == [{"concedes": "Dan"}]
    cited = [rule for step in answer["steps"] for rule in step["rules"]]
    assert any(rule.startswith("CR 725.4 (") for rule in cited)


def test_506_2_a_table_of_players_from_the_command_line(cli):
    code, out, err = cli("ask", "--players", FOUR, "--what-if", "can Ben attack Dan?")
    assert code == 0, err
    # 506.2 / 802.1: in free-for-all every other player is an opponent, and a player attacks opponents.
    assert "\nAnswer: Yes: Ben can attack Dan (" in out
    assert "can-attack" not in out  # the model's notation only in --json


def test_800_4j_the_turn_of_a_player_who_left_goes_on_then_passes(cli):
    code, out, _ = cli("ask", "--players", FOUR, "--what-if", "whose turn is it after Ann leaves", "--json")
    assert code == 0
    # 800.4j: Ann leaves during her own turn; the turn goes on without an active player, then passes on
    # to the next player in turn order, Ben (101.4 / 500.1).
    answer = json.loads(out)
    assert answer["events"] == [{"leaves": "Ann"}]
    assert answer["values"]["next-turn"] == "Ben"
    assert answer["values"]["active"].startswith("nobody")


def test_an_unknown_player_is_one_line_and_exit_2(cli):
    code, out, err = cli("ask", "--players", FOUR, "--what-if", "can Zed attack Ann")
    assert code == 2 and out == ""
    assert err.strip() == ("rulesjudge: --what-if: there is no player called 'Zed' at this table "
                           "(players: Ann, Ben, Cat, Dan)")


@pytest.mark.parametrize(("argv", "key"), [
    (["--players", "Ann", "--what-if", "who wins if Ann leaves"], "--players: game.players"),
    (["--players", "Ann, Ann", "--what-if", "who wins if Ann leaves"], "--players: game.players"),
    (["--what-if", "who wins"], "--what-if: needs a table"),
    (["--players", FOUR, "--what-if", "  "], "--what-if: empty question"),
    ([], "ask: give a scenario FILE"),
    (["--players", FOUR], "--players: gives the table of a --what-if question"),
])
def test_bad_tables_are_one_line_and_exit_2(cli, argv, key):
    code, out, err = cli("ask", *argv)
    assert code == 2 and out == ""
    assert err.startswith("rulesjudge: " + key) and err.count("\n") == 1


def test_file_and_players_together_are_refused(tmp_path, cli):
    table = str(scenario(tmp_path, MONARCH_DAN))
    code, _, err = cli("ask", table, "--players", FOUR, "--what-if", "who wins")
    assert code == 2 and "--players: give FILE or --players, not both" in err


def test_a_malformed_file_names_its_line_and_key(tmp_path, cli):
    bad = scenario(tmp_path, MONARCH_DAN.replace("monarch: Dan\n    expect", "monarch: Zed\n    expect"))
    code, _, err = cli("ask", str(bad), "--what-if", "who is the monarch if Ann leaves")
    assert code == 2
    assert str(bad) in err and "monarch" in err and err.count("\n") == 1


def test_not_a_model_question_gives_the_closest_rules(app_env, cli):
    code, out, _ = cli("ask", "--players", FOUR, "--what-if", "what does deathtouch do to a blocker",
                         "--json")
    assert code == 1  # not a failure of the tool: not a question for the rules model
    answer = json.loads(out)
    assert answer["understood"] is False
    # 702.2: deathtouch's own rules are what a judge reads for it
    assert any(hit["id"].split("/", 1)[-1].startswith("702.2") for hit in answer["closest_rules"])


LIBRARY = Path(__file__).resolve().parents[2] / "scenarios" / "library"
# Two-Headed Giant, spelled as the rules title it; Ann's Bear has hit Dan in combat; Cat has the initiative
HOLDERS_TEAMMATE = str(LIBRARY / "two-headed-giant"
                       / "726-2-damage-to-the-holders-teammate-leaves-the-initiative.yaml")


@pytest.mark.parametrize("question", ["who ventures in the upkeep", "who ventures at cat's upkeep"])
def test_726_2_after_combat_the_upkeep_is_the_next_team_turns(cli, question):
    code, out, err = cli("ask", HOLDERS_TEAMMATE, "--what-if", question, "--json")
    assert code == 0, err
    answer = json.loads(out)
    # The file's turn is in combat, past its upkeep (503.1 comes before 506), so the upkeep asked about is the
    # next turn's: Cat and Dan's team turn (805.4), and Cat, holding the initiative, ventures (726.2).
    assert answer["events"] == (["next-turn", "upkeep"] if "cat's" not in question else
                                [{"until-turn": "Cat"}, "upkeep"])  # the model passes the turns to Cat's
    assert answer["answer"] == "Cat (1)"


def test_805_4_pass_priority_counts_teams_when_the_variant_is_spelled_as_a_title(cli):
    code, out, err = cli("ask", HOLDERS_TEAMMATE, "--what-if", "everyone passes priority, who has priority",
                         "--json")
    assert code == 0, err
    # 805.5b: teams have priority; both teams pass in succession with the stack empty, the step ends and
    # the active team (Ann and Ben) receives priority.
    assert json.loads(out)["events"] == ["pass-priority", "pass-priority"]


def test_809_5_an_emperor_file_spelled_emperor_knows_its_emperors(tmp_path, cli):
    table = scenario(tmp_path, """\
        name: an Emperor table
        why: a table for what-if questions
        game:
          variant: Emperor
          teams: [[Ann, Ben, Cat], [Dan, Eve, Fay]]
        expect:
          in-game: [Ann, Ben, Cat, Dan, Eve, Fay]
    """)
    code, out, err = cli("ask", str(table), "--what-if", "who wins if Dan's emperor leaves", "--json")
    assert code == 0, err
    answer = json.loads(out)
    # 809.2: Eve sits in the middle of Dan's team; 809.5b: her team loses, so Ben's team wins (104.2a).
    assert answer["events"] == [{"leaves": "Eve"}]
    assert answer["answer"] == "Ann, Ben, Cat"


def test_807_4_a_later_turn_at_a_grand_melee_table_is_refused_in_one_line(cli):
    table = str(LIBRARY / "grand-melee" / "807-4h-attack-left-after-the-neighbour-leaves.yaml")
    code, out, err = cli("ask", table, "--what-if", "who draws at Cat's end step")
    # 807.4c-d: turn markers pass left and wait, so "Cat's turn" is not a count of turns: not guessed.
    assert code == 2 and out == ""
    assert "several players take turns at once" in err and err.count("\n") == 1


def test_310_8b_a_battle_in_a_library_file_is_asked_about_by_name(cli):
    table = str(LIBRARY / "combat" / "310-6-battle-protector-concedes-attacker-still-damages-the-battle.yaml")
    code, out, err = cli("ask", table, "--what-if", "whats the siege's defense", "--json")
    assert code == 0, err
    # 310.6/120.3h: the file's Bear (3 power) hit the Siege (5 defense) after Ben conceded: 2 left.
    answer = json.loads(out)
    assert answer["answer"] == "2" and list(answer["values"]) == ["defense(Siege)"]
    code, out, err = cli("ask", table, "--what-if", "can ben attack the battle", "--json")
    # 310.8b: a battle's protector can never attack it (Ben has also left the game, 800.4a)
    assert code == 0 and json.loads(out)["answer"] == "no"


def test_104_1_no_event_after_the_game_is_over(cli):
    # The file's game is over: Eve decked (704.5b), then the Leader Ann lost; Cat is a face-up Assassin
    table = str(LIBRARY / "treachery" / "725-4-hidden-traitor-monarch-decks-out-leader-takes-the-crown.yaml")
    code, out, err = cli("ask", table, "--what-if", "if the leader concedes who's monarch")
    # Ann has lost already and the game has ended (104.1): read anyway, it answered as if she were playing.
    assert code == 2 and out == ""
    assert "the game at this table is over already" in err and err.count("\n") == 1
    code, out, err = cli("ask", table, "--what-if", "who won", "--json")
    assert code == 0 and json.loads(out)["answer"] == "Cat, Dan"  # 907.8a: the assassins team


def test_800_4a_a_player_the_file_took_out_does_not_concede_again(cli):
    # The Metamorph (Eve) took Cat's Leader card; Cat left the game (907.11, 907.11b)
    table = str(LIBRARY / "treachery" / "907-11b-stolen-identity-stays-with-its-new-controller.yaml")
    code, out, err = cli("ask", table, "--what-if", "what if cat concedes")
    assert code == 2 and "Cat left the game already" in err and err.count("\n") == 1
    code, out, err = cli("ask", table, "--what-if", "if the leader dies who wins", "--json")
    assert code == 0, err
    # "the Leader" is the player still holding a Leader card, Eve (907.11b); with every Leader gone the leader
    # team loses (907.8b), and Ann and Dan, who control Assassin identity cards (face down), win (907.8a).
    answer = json.loads(out)
    assert answer["events"] == [{"leaves": "Eve"}]
    assert answer["answer"] == "Ann, Dan"


def test_800_4a_a_team_whose_other_member_left_in_the_file_is_the_one_still_in(cli):
    # Team vs Team: Ben, the monarch, conceded on Ann's turn; Ann is the only one of her team still in
    table = str(LIBRARY / "team-vs-team" / "725-4-monarch-leaves-on-a-teammates-turn.yaml")
    code, out, err = cli("ask", table, "--what-if", "what if ann's team scoops", "--json")
    assert code == 0, err
    answer = json.loads(out)
    # 104.3a: Ann concedes; 725.4: the active player (Ann) is leaving, so the next in turn order, Cat, is
    # the monarch. Read as the team of the table before Ben left, it was refused for naming Ben.
    assert answer["events"] == [{"concedes": "Ann"}]
    assert answer["values"]["monarch"] == "Cat"


def test_907_11b_who_is_the_leader_is_the_player_holding_the_card_now(cli):
    # The Metamorph (Eve) took Cat's Leader card as Cat lost: Eve controls and owns it (907.11b, card note);
    # Cat left the game and only keeps her last team (907.12), so "the Leader" is Eve, not "Cat, Eve".
    table = str(LIBRARY / "treachery" / "907-8b-the-metamorph-steals-the-leader-identity-game-goes-on.yaml")
    code, out, err = cli("ask", table, "--what-if", "who is the leader?", "--json")
    assert code == 0, err
    answer = json.loads(out)["answer"]
    assert answer.startswith("Eve") and "Cat, Eve" not in answer
    assert "Cat" in answer and "907.12" in answer  # the departed Leader is named as such, not as the Leader
    # Eve, the only Traitor, left: nobody in the game controls a Traitor card, so the answer is Eve, as a
    # player who left with that last identity (907.12); the Leader, Cat, still plays (907.4a)
    other = str(LIBRARY / "treachery" / "907-12-leaver-keeps-the-last-known-team.yaml")
    code, out, err = cli("ask", other, "--what-if", "who is the traitor?", "--json")
    assert code == 0, err
    answer = json.loads(out)["answer"]
    assert "Eve, who left the game" in answer and answer.startswith("nobody in the game")
    code, out, err = cli("ask", other, "--what-if", "who is the leader?", "--json")
    assert code == 0 and json.loads(out)["answer"] == "Cat", err


def test_725_4_a_question_that_states_its_table_needs_no_file_nor_players(cli):
    code, out, err = cli("ask", "--what-if",
                         "Ann is the monarch. On Ben's turn Ann concedes. Who is the monarch?")
    assert code == 0, err
    # 725.4: the monarch leaves during Ben's turn, so Ben, the active player, becomes the monarch.
    assert "Answer: Ben becomes the monarch (725.4)." in out
    assert "The question's table: Ann is the monarch." in out


def test_725_4_a_presupposition_is_taken_as_stated_and_said(cli):
    code, out, err = cli("ask", "--players", FOUR, "--what-if",
                         "who becomes monarch if the active player leaves?")
    assert code == 0, err
    # Nobody is the monarch at this table: the question only has an answer if Ann, who is leaving, is the
    # monarch; 725.4: the active player is the one leaving, so the next player in turn order, Ben.
    assert "Answer: Assuming Ann, the active player, is the monarch: Ben becomes the monarch (725.4)." in out


def test_725_4_a_fact_contradicting_the_file_is_said_and_the_question_wins(tmp_path, cli):
    code, out, err = cli("ask", str(scenario(tmp_path, MONARCH_DAN)), "--what-if",
                         "Ben is the monarch. Ben concedes. Who is the monarch?", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["overridden"] == ["the table said Dan is the monarch"]
    assert answer["answer"] == "Ann"  # 725.4: Ann, the active player, as Ben leaves
    assert answer["sentence"] == "Ann becomes the monarch (725.4)."


def test_809_3c_the_variant_and_teams_said_in_the_question_set_the_table(cli):
    asked = "in Emperor with Ben, Ann, Cat against Eve, Dan, Fay, whom can Dan attack?"
    code, out, err = cli("ask", "--what-if", asked, "--json")
    assert code == 0, err
    answer = json.loads(out)
    # 809.2: Ann and Dan sit in the middle of their teams, so they are the emperors; 809.3c: an emperor
    # attacks only an opponent seated next to them, and Dan sits between his own generals Eve and Fay.
    assert answer["game"]["variant"] == "emperor" and answer["answer"] == "nobody"
    assert answer["sentence"].startswith("Dan can attack nobody.")


THG = """\
    name: Two-Headed Giant
    why: the fallback search is scoped to the table's variant
    game:
      variant: two-headed-giant
      teams: [[Ann, Ben], [Cat, Dan]]
"""


def test_805_10d_the_fallback_search_reads_the_variants_own_rules_first(app_env, tmp_path, cli):
    code, out, _ = cli("ask", str(scenario(tmp_path, THG)), "--what-if", "can ben block for ann", "--json")
    assert code == 1  # blocking is not a question the model answers: the rules search does
    first = json.loads(out)["closest_rules"][0]["id"]
    # 810.2 -> 805.10d: under shared team turns the defending team makes one combined block, the rule a judge
    # reads here rather than the general 509.1b or 802.4a.
    assert first.endswith("/805.10d"), first


BEASTS = """\
    name: Ann's Bear, Ben's Wall and Cat's Dragon
    why: a table for what-if questions
    game:
      players: [Ann, Ben, Cat, Dan]
      active: Ann
      permanents:
        Bear: {owner: Ann, power: 2, toughness: 2}
        Wall: {owner: Ben, power: 0, toughness: 4}
        Dragon: {owner: Cat, power: 5, toughness: 5}
    expect:
      active: Ann
"""


def test_508_1a_an_attack_with_anothers_creature_is_said_first_as_illegal_and_undone(tmp_path, cli):
    code, out, err = cli("ask", str(scenario(tmp_path, BEASTS)), "--what-if",
                         "Ann attacks Ben with the Dragon, no blocks. Ben's life?")
    assert code == 0, err
    answer = next(line for line in out.splitlines() if line.startswith("Answer:"))
    # 508.1a: only the Dragon's controller (Cat, not the active player) could attack with it; 733.1: the
    # illegal declaration is reversed, so nothing attacks and Ben stays at 20 (119.1). The judge hears the
    # illegality first, not "20" as if the Dragon's attack had been blocked or prevented.
    assert answer.startswith("Answer: Dragon is controlled by Cat, not by an attacking player (508.1a): "
                             "the declaration is illegal and undone (733.1)."), answer
    assert answer.endswith("Ben's life total is 20 (119.1)."), answer


def test_509_1a_a_block_of_a_creature_not_attacking_the_blocker_is_said_first_as_undone(tmp_path, cli):
    code, out, err = cli("ask", str(scenario(tmp_path, BEASTS)), "--what-if",
                         "Ann attacks Ben with the Bear and Cat blocks with the Dragon. Ben's life?")
    assert code == 0, err
    answer = next(line for line in out.splitlines() if line.startswith("Answer:"))
    # 509.1a / 802.4a: only the player the Bear attacks (Ben) may block it; the block is undone (733.1), so
    # the Bear is unblocked and deals its 2 damage to Ben (510.1a): 18 life.
    assert "the declaration of blockers is illegal and undone (733.1)." in answer, answer
    assert answer.endswith("Ben's life total is 18 (119.3)."), answer
