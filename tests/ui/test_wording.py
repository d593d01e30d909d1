"""How the box words dice, odds, outcomes and places (companion/ui/wording.py)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from companion.rules.core import DiceGroup, DieKind, Odds, Outcome
from companion.rules.tenir_le_fort.actions import ACTIONS
from companion.ui.wording import (
    action_named,
    categories,
    counted,
    headline,
    named_outcomes,
    odds_line,
    rest_of,
    short_headline,
    subject,
    topic,
    unbracketed,
    where_on_tray,
    without_dice,
)


@pytest.mark.parametrize(("number", "label", "shown"), [
    (3, "hits", "3 hits"),
    (1, "hits", "1 hit"),
    (1, "inches", "1 inch"),
    (1, "casualties", "1 casualty"),
    (1, "sixes", "1 six"),
    (1, "men removed", "1 man removed"),
    (2, "men removed", "2 men removed"),
    (0, "attacker wins", "Attacker wins: no"),
    (1, "passed", "Passed: yes"),
    (6, "target number", "Target number: 6"),
    (2, "attacker's margin", "Attacker's margin: 2"),
    (4, "CP", "CP: 4"),
    (3, "fire divisor", "Fire divisor: 3"),
    # A count whose plural is not its first word, or that says what happened.
    (4, "reacting units", "4 reacting units"),
    (1, "reacting units", "1 reacting unit"),
    (1, "extra men", "1 extra man"),
    (0, "crew removed", "0 crew removed"),
    (2, "toss bonus", "Toss bonus: 2"),  # "bonus" is no plural
])
def test_headlines_read_as_words(number: int, label: str, shown: str) -> None:
    assert headline(Outcome(number, label)) == shown


@pytest.mark.parametrize(("number", "label", "values", "shown"), [
    # Tenir le Fort's wounds: 3 dice can kill 3; none killed is a count, not "Killed: no".
    (0, "killed", (0, 1, 2, 3), "0 killed"),
    (1, "killed", (0, 1, 2, 3), "1 killed"),
    # In-fighting: 1d6 figures lost, not "Figures lost: yes".
    (1, "figures lost", range(1, 7), "1 figure lost"),
    # What can only be 0 or 1 still reads yes or no.
    (0, "leader lost", (0, 1), "Leader lost: no"),
    (1, "killed", (0, 1), "Killed: yes"),
])
def test_a_label_is_yes_or_no_only_when_the_odds_allow_no_more_than_one(
        number: int, label: str, values: range | tuple[int, ...], shown: str) -> None:
    assert headline(Outcome(number, label), tuple(values)) == shown


@pytest.mark.parametrize(("number", "label", "shorter"), [
    # "0 defenders" would say no defender is left: what happened to them is the word kept.
    (0, "defenders beaten", ("0 beaten", "0")),
    (2, "men removed", ("2 removed", "2")),
    (6, "command points", ("6 points", "6")),
    (1, "reacting units", ("1 unit", "1")),
    (3, "wins for attacker", ("3 wins", "3")),
    (1, "passed", ("Yes",)),
    (6, "target number", ("6",)),
])
def test_a_headline_cut_short_keeps_the_word_that_means_something_alone(
        number: int, label: str, shorter: tuple[str, ...]) -> None:
    assert short_headline(Outcome(number, label)) == shorter


def test_categorical_headlines_name_the_category() -> None:
    groups = (DiceGroup(DieKind.D10, 1, "first side", ""),
              DiceGroup(DieKind.D10, 1, "second side", ""))
    assert categories("winner (1 attacker, 2 defender, 0 tie)") == (
        "winner", {1: "attacker", 2: "defender", 0: "tie"})
    assert categories("side activating (0 = tie)", groups) == (
        "side activating", {0: "tie", 1: "first side", 2: "second side"})
    assert categories("sighted (1 = yes)") == ("sighted", {1: "yes", 0: "no"})
    assert categories("hits") is None
    odds = Odds("winner (1 attacker, 2 defender, 0 tie)",
                {1: Fraction(1, 2), 2: Fraction(1, 3), 0: Fraction(1, 6)})
    assert odds_line(odds) == "attacker 50%, defender 33%, tie 17%"
    assert odds_line(Odds("passed", {1: Fraction(3, 4), 0: Fraction(1, 4)})) == "passed 75%"
    # An effect named like the headline is not said twice.
    assert odds_line(Odds("hits", {0: Fraction(1, 2), 2: Fraction(1, 2)},
                          {"hits": Fraction(1, 2), "pinned": Fraction(1, 10)})) == (
        "avg 1.0 hits, 50% 1+, pinned 10%")


HALF, THIRD, SIXTH = Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)
SIDES = (DiceGroup(DieKind.D10, 1, "Legion", ""), DiceGroup(DieKind.D10, 1, "Arabs", ""))


@pytest.mark.parametrize(("odds", "groups", "shown"), [
    # A count: the average and the chance of at least one; side effects after.
    (Odds("hits", {0: THIRD, 1: THIRD, 2: THIRD}, {"pinned": SIXTH}), (),
     "avg 1.0 hits, 67% 1+, pinned 17%"),
    (Odds("inches", {2: HALF, 4: HALF}), (), "avg 3.0 inches"),  # never 0: no "1+"
    # Yes or no: the chance of yes, and nothing that only says it again.
    (Odds("passed", {1: Fraction(62, 100), 0: Fraction(38, 100)},
          {"routed": Fraction(38, 100), "resolve failed": Fraction(38, 100)}), (), "passed 62%"),
    (Odds("leader lost", {0: Fraction(11, 12), 1: Fraction(1, 12)}), (), "leader lost 8%"),
    (Odds("sighted (1 = yes)", {0: Fraction(7, 10), 1: Fraction(3, 10)},
          {"sighted": Fraction(3, 10)}), (), "sighted 30%"),
    # One outcome among several: by name, the likeliest first, sides named by their dice.
    (Odds("side activating (0 = tie)", {1: Fraction(46, 100), 2: Fraction(46, 100),
                                         0: Fraction(8, 100)}, {"tie": Fraction(8, 100)}),
     SIDES, "Legion 46%, Arabs 46%, tie 8%"),
    (Odds("target number", {n: SIXTH for n in range(1, 7)},
          names={1: "N camp", 2: "E camp", 3: "S ram", 4: "W camp", 5: "N gate", 6: "Keep"}),
     (), "each 17%"),
    (Odds("interior number", {1: HALF, 2: Fraction(1, 4), 3: Fraction(1, 8), 4: Fraction(1, 8)},
          names={1: "artillery", 2: "keep", 3: "barracks", 4: "stables"}), (),
     "artillery 50%, keep 25%, barracks 12%, others 12%"),
])
def test_odds_are_said_by_what_the_headline_is(odds: Odds, groups: tuple[DiceGroup, ...],
                                                shown: str) -> None:
    assert odds_line(odds, groups) == shown


def test_a_result_named_by_the_rules_shows_the_name() -> None:
    names = {1: "N camp", 2: "E siege tower"}
    assert named_outcomes("target number", (), names) == ("target number", names)
    assert named_outcomes("hits") is None


def test_where_on_tray_and_counted() -> None:
    boxes = [(300, 0, 30, 30), (10, 0, 30, 30), (150, 0, 30, 30), (450, 0, 30, 30)]
    assert where_on_tray(boxes[1], boxes) == "the leftmost die"
    assert where_on_tray(boxes[2], boxes) == "the die 2nd from the left"
    assert where_on_tray(boxes[0], boxes) == "the die 3rd from the left"
    assert where_on_tray(boxes[3], boxes) == "the rightmost die"
    assert where_on_tray(boxes[0], boxes[:1]) == ""  # one die needs no place
    assert where_on_tray((0, 0, 0, 0), [(0, 0, 0, 0), boxes[0]]) == ""  # place unknown
    assert [counted(n, "die", "dice") for n in (0, 1, 2)] == ["0 dice", "1 die", "2 dice"]


# A roll whose 6s earn more dice (the Tenir le Fort Maxim): this roll's odds, and the
# average with the hits the 6s' dice are expected to add.
MAXIM = Odds("hits", {0: HALF, 8: HALF}, {"jammed": Fraction(13, 100)},
             follow_up_label="with 6s' dice")


def test_a_count_whose_6s_earn_more_dice_gives_the_chain_s_average_too() -> None:
    assert odds_line(MAXIM) == "avg 4.0 hits, 50% 1+, jammed 13%"
    chained = replace(MAXIM, follow_up_mean=Fraction(4, 5))
    assert odds_line(chained) == "avg 4.0 hits (4.8 with 6s' dice), 50% 1+, jammed 13%"
    # Nothing more to say: no follow-up, or one that adds nothing to a tenth.
    assert odds_line(replace(MAXIM, follow_up_mean=Fraction(0))) == odds_line(MAXIM)
    assert odds_line(replace(MAXIM, follow_up_mean=Fraction(1, 100))) == odds_line(MAXIM)
    # A single die is still a count when its 6 earns another: not "hits 50%".
    one = Odds("hits", {0: HALF, 1: HALF}, follow_up_mean=Fraction(1, 10))
    assert odds_line(one) == "avg 0.5 hits (0.6 with follow-ups), 50% 1+"
    assert odds_line(replace(one, follow_up_mean=None)) == "hits 50%"


def test_the_maxim_s_pre_roll_line_counts_its_6s_dice() -> None:
    action = ACTIONS["maxim-fire"]
    params = action.complete_params({"side": "FFL", "cover": "none"})
    line = odds_line(action.odds(params), action.request(params).groups)
    assert line.startswith("avg 4.0 hits (4.8 with 6s' dice), >99% 1+")


@pytest.mark.parametrize(("reason", "topics", "who"), [
    ("Tower bows at the defenders on East wall: Missile fire, 2-3 spaces away",
     ("Tower bows at the defenders on East wall",), ("Tower bows",)),
    ("Activation toss: a d10 each", ("Activation toss",), ()),
    ("Morale test for the Legion", (), ()),
    # No topic: who acts is still what comes before " at " or " on ".
    ("FFL fire at a target in the open", (), ("FFL fire",)),
    ("effect of 3 hits on legionnaires", (), ("Effect of 3 hits",)),
    ("Melee on E tower bridge: 1 fight", ("Melee on E tower bridge",), ("Melee",)),
    # A colon in brackets starts no rest: "Leader lost)" was once a title.
    ("Arab command points (halved: leader lost)", (), ()),
])
def test_a_long_topic_gives_way_to_who_acts(
        reason: str, topics: tuple[str, ...], who: tuple[str, ...]) -> None:
    """A result titled by the shooter, not by the kind of bow it carries."""
    assert topic(reason) == topics
    assert subject(reason) == who


@pytest.mark.parametrize(("reason", "named"), [
    ("Legion Standing v Riders 1: Melee round: 1 pair, 10 against 10", ("Melee round",)),
    ("Tower bows at the defenders on East wall: Missile fire, 2-3 spaces away",
     ("Missile fire",)),
    ("Morale test for the Legion", ()),
    ("Melee on E tower bridge: 1 fight", ()),  # a count names no action
    ("Arab command points (halved: leader lost)", ()),  # the colon is in brackets
])
def test_a_result_too_long_to_name_by_who_is_named_by_what_was_rolled(
        reason: str, named: tuple[str, ...]) -> None:
    assert action_named(reason) == named


@pytest.mark.parametrize("fights", [0, 1, 3, 12, 40])
def test_a_fortboard_melee_count_reads_whole_in_big_letters(fights: int) -> None:
    from companion.rules.fortboard.game import MELEE_WINS
    from companion.ui.screens import fits_line

    shown = headline(Outcome(fights, MELEE_WINS))
    assert shown.startswith(f"{fights} win")
    assert fits_line("big", shown)


def test_the_next_hint_never_ends_in_nothing() -> None:
    """A prompt too long for the footer, about no unit, said "Next:" and no more."""
    from companion.rules.core import AwaitChoice, Choice
    from companion.ui.wording import next_hint

    long_prompt = "Which of the units in the village takes the marker this turn?"
    options = (Choice("a", "A"),)
    assert next_hint(AwaitChoice(long_prompt, options)) == "Next: a choice"
    assert next_hint(AwaitChoice(long_prompt, options, "Riders 3")) == "Next: Riders 3"
    assert next_hint(AwaitChoice("Charge?", options, "Riders 3")) == "Next: Charge?"


@pytest.mark.parametrize(("title", "rest"), [
    ("Hill Snipers at Foot A Coy", "Musket fire, close"),
    ("Hill Snipers", "At Foot A Coy: musket fire, close"),
    ("Roll the dice", "Hill Snipers at Foot A Coy: musket fire, close"),
])
def test_under_a_title_the_reason_says_only_what_the_title_did_not(title: str, rest: str) -> None:
    assert rest_of("Hill Snipers at Foot A Coy: musket fire, close", title) == rest


def test_a_reason_with_an_aside_is_titled_without_it_and_the_aside_said_below() -> None:
    reason = "Arab command points (halved: leader lost)"
    assert unbracketed(reason) == ("Arab command points",)
    assert rest_of(reason, "Arab command points") == "Halved: leader lost"
    assert unbracketed("FFL fire at a target in the open") == ()
    assert rest_of("FFL fire at a target in the open", "FFL fire") == "At a target in the open"


@pytest.mark.parametrize(("line", "dice", "shown", "left"), [
    # The dice and the headline again: nothing left to say.
    ("rolled 3, 4: 0 hits", "3, 4", ("Jezail Men at Sappers", "0 hits"), ""),
    ("Come On! 4: no effect", "4", ("Come On!", "No effect"), ""),
    # The dice again, and something more: the more.
    ("rolled 9, 4, 0, 7: 2 hits, each kills a figure", "9, 4, 0, 7",
     ("French rifle fire", "2 hits"), "Each kills a figure"),
    ("rolled 7, 0, 2: lowest 2 dice = 2\"", "7, 0, 2", ("Leader move", "2 inches"),
     "Lowest 2 dice = 2\""),
    ("Steady! 1: the commander is hit", "1", ("Steady!", "0 hits cancelled"),
     "The commander is hit"),
    ("5, 3, 4: 1 wounded", "5, 3, 4", ("Effect of 3 hits", "0 killed"), "1 wounded"),
    # A number that only looks like the die: a unit's, a count's.
    ("Riders 1: no impact", "1", ("Legion Gun", "0 markers"), "Riders 1: no impact"),
    ("12 figures firing musket: 6 dice", "6", ("Hill Clansmen", "2 hits"),
     "12 figures firing musket: 6 dice"),
])
def test_a_detail_does_not_repeat_the_dice_shown_above_it(
        line: str, dice: str, shown: tuple[str, ...], left: str) -> None:
    assert without_dice(line, dice, shown) == left


def test_a_headline_that_cannot_vary_is_said_as_certain() -> None:
    """A jammed Maxim's clearing roll scores nothing whatever the dice: "hits 0%"."""
    assert odds_line(Odds("hits", {0: Fraction(1)}, {"cleared": Fraction(1, 2)})) == \
        "0 hits for certain, cleared 50%"
