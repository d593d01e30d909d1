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
    subject,
    topic,
    where_on_tray,
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
])
def test_headlines_read_as_words(number: int, label: str, shown: str) -> None:
    assert headline(Outcome(number, label)) == shown


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
