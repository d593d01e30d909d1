"""What the roll and result screens say, and do not say twice, for rolls shaped like
the five rule systems' (built here, so that rules being edited do not move them)."""

from __future__ import annotations

from fractions import Fraction

from uirig import Rig

from companion.box.views import result_screen
from companion.rules.core import AwaitRoll, DiceGroup, DieKind, Odds, Outcome, RollRequest
from companion.session.events import DiceAccepted
from companion.ui.screens import Screen, fits_line, layout

D6 = DieKind.D6
HALF, THIRD, SIXTH = Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)


def result(rig: Rig, reason: str, groups: tuple[DiceGroup, ...], odds: Odds,
           dice: tuple[int, ...], outcome: Outcome) -> Screen:
    step = AwaitRoll(RollRequest(reason, groups), odds)
    return result_screen(step, DiceAccepted(dice), outcome, rig.box.step)


def roll(rig: Rig, reason: str, groups: tuple[DiceGroup, ...], odds: Odds) -> Screen:
    return rig.box.step_screen(AwaitRoll(RollRequest(reason, groups), odds))


def first_page(screen: Screen) -> list[str]:
    return [text.text for text in layout(screen).texts]


def test_no_one_killed_by_3_wounds_dice_reads_0_killed_and_the_wound_shows(rig: Rig) -> None:
    """Tenir le Fort's wounds: "Killed: no" read as if nothing had happened."""
    screen = result(
        rig, "effect of 3 hits on legionnaires",
        (DiceGroup(D6, 3, "wounds", "1 dead, 2-3 wounded, 4-6 no effect"),),
        Odds("killed", {0: HALF, 1: THIRD, 2: Fraction(1, 9), 3: Fraction(1, 18)},
             {"wounded": Fraction(7, 10)}),
        (5, 3, 4), Outcome(0, "killed", frozenset({"wounded"}), ("5, 3, 4: 1 wounded",)))
    assert screen.big == "0 killed"
    assert screen.title == "Effect of 3 hits"  # not the dice group's "Wounds"
    assert screen.lines == ("Dice 5 3 4", "Wounded", "1 wounded")


def test_figures_lost_to_1d6_read_as_a_count(rig: Rig) -> None:
    """Tenir le Fort's in-fighting said "Figures lost: yes" for 1 figure of 1-6."""
    screen = result(rig, "In-fighting losses: 1d6 figures",
                    (DiceGroup(D6, 1, "losses", "figures lost"),),
                    Odds("figures lost", dict.fromkeys(range(1, 7), SIXTH),
                         {"killed": Fraction(1)}),
                    (1,), Outcome(1, "figures lost", frozenset({"killed"})))
    assert screen.big == "1 figure lost"


def test_a_named_outcome_is_not_said_again_under_a_title_that_names_the_roll(rig: Rig) -> None:
    """On the Frontier's Come On! said "No effect", "Come On!: no effect" and
    "Come On! 4: no effect" on one screen."""
    names = {0: "no effect", 1: "cancel or inflict", 2: "commander hit"}
    screen = result(rig, "Come On!: Mullah with Ghazis must roll",
                    (DiceGroup(D6, 1, "Come On!", "1 commander hit, 5-6 cancel or inflict"),),
                    Odds("Come On!", {0: HALF, 1: THIRD, 2: SIXTH}, names=names),
                    (4,), Outcome(0, "Come On!", details=("Come On! 4: no effect",)))
    assert screen.title == "Come On!"
    assert screen.big == "No effect"
    assert screen.lines == ("Dice 4",)


def test_who_goes_first_says_the_side_once(rig: Rig) -> None:
    groups = (DiceGroup(D6, 1, "British", ""), DiceGroup(D6, 1, "Tribesmen", ""))
    screen = result(rig, "Who goes first: a d6 each, high goes first", groups,
                    Odds("side first (0 = tie)", {1: Fraction(5, 12), 2: Fraction(5, 12),
                                                  0: SIXTH}),
                    (3, 5), Outcome(2, "side first (0 = tie)",
                                    details=("first side 3, second side 5: side 2 goes first",)))
    assert (screen.title, screen.big) == ("Who goes first", "Tribesmen")
    assert screen.lines[:2] == ("British 3", "Tribesmen 5")  # each side's die
    assert not any("Tribesmen" in line for line in screen.lines[2:])


def test_a_tie_is_said_alone_with_what_comes_next(rig: Rig) -> None:
    """On the Frontier said "Goes first: tie", as if a side called "tie" went first."""
    groups = (DiceGroup(D6, 1, "British", ""), DiceGroup(D6, 1, "Tribesmen", ""))
    request = RollRequest("Who goes first: a d6 each, high goes first", groups)
    screen = result(rig, request.reason, groups,
                    Odds("goes first (0 = tie)", {1: Fraction(5, 12), 2: Fraction(5, 12),
                                                  0: SIXTH}),
                    (4, 4), Outcome(0, "goes first (0 = tie)", frozenset({"tie"}),
                                    ("British 4, Tribesmen 4: a tie, roll again",),
                                    follow_up=request))
    assert screen.big == "Tie: roll again"
    assert screen.lines[:2] == ("British 4", "Tribesmen 4")


def test_an_effect_that_only_repeats_the_headline_is_left_out(rig: Rig) -> None:
    # Scrubs of the Desert: "Sighted: yes" over "Sighted".
    sighted = result(rig, "Sighting at 2-4\": 3+", (DiceGroup(DieKind.D10, 1, "sighting", ""),),
                     Odds("sighted", {1: Fraction(7, 10), 0: Fraction(3, 10)},
                          {"sighted": Fraction(7, 10)}),
                     (6,), Outcome(1, "sighted", frozenset({"sighted"})))
    assert sighted.big == "Sighted: yes" and "Sighted" not in sighted.lines
    # Its activation toss: "Legion" over "First activates", the same event by its odds;
    # an effect with odds of its own (a tie's bonus) stays.
    groups = (DiceGroup(DieKind.D10, 1, "Legion", ""), DiceGroup(DieKind.D10, 1, "Arabs", ""))
    toss = result(rig, "Activation toss: a d10 each", groups,
                  Odds("side activating (0 = tie)",
                       {1: Fraction(45, 100), 2: Fraction(45, 100), 0: Fraction(10, 100)},
                       {"first_activates": Fraction(45, 100), "bonus": Fraction(3, 100)}),
                  (7, 0), Outcome(1, "side activating (0 = tie)",
                                  frozenset({"first_activates", "bonus"})))
    assert toss.big == "Legion"
    assert "Bonus" in toss.lines and not any("activates" in line for line in toss.lines)
    # Fortboard's catapult: "1 hit" over "Hit".
    hit = result(rig, "N catapult at NW tower: 2d6 must beat 9", (DiceGroup(D6, 2, "2d6", ""),),
                 Odds("hits", {0: Fraction(5, 6), 1: SIXTH}, {"hit": SIXTH}),
                 (5, 5), Outcome(1, "hits", frozenset({"hit"})))
    assert hit.lines == ("Dice 5 5",)


def test_a_count_cut_short_keeps_what_happened_and_says_it_all_below(rig: Rig) -> None:
    """Fighting Swashbucklers' melee said "0 defenders" large: none left, it seemed."""
    assert not fits_line("big", "0 defenders beaten")  # else nothing is cut
    screen = result(rig, "Legion Kneeling v Riders 1: Melee round: 1 pair, 8 against 10",
                    (DiceGroup(DieKind.D10, 1, "attackers", ""),
                     DiceGroup(DieKind.D10, 1, "defenders", "")),
                    Odds("defenders beaten", {0: Fraction(62, 100), 1: Fraction(38, 100)}),
                    (1, 1), Outcome(0, "defenders beaten"))
    assert screen.big == "0 beaten"
    assert screen.lines[0] == "0 defenders beaten"


def test_a_roll_with_no_topic_is_titled_by_who_rolls_or_its_dice_not_roll_the_dice(
        rig: Rig) -> None:
    """Tenir le Fort's reasons have no colon: every one was titled "Roll the dice"."""
    fire = roll(rig, "FFL fire at a target in the open",
                (DiceGroup(D6, 6, "FFL rifles", "hits on 4-6"),), Odds("hits", {0: HALF, 3: HALF}))
    assert fire.title == "FFL fire"
    assert first_page(fire)[3:] == ["avg 1.5 hits, 50% 1+", "At a target in the open"]
    leader = roll(rig, "is the mounted leader among the casualties?",
                  (DiceGroup(D6, 2, "leader check", "sum 11-12: the leader is one of them"),),
                  Odds("leader lost", {0: Fraction(11, 12), 1: Fraction(1, 12)}))
    assert leader.title == "Leader check"
    assert leader.lines[:2] == ("leader lost 8%", "is the mounted leader among the casualties?")


def test_a_reason_with_a_colon_in_brackets_is_titled_by_what_comes_before(rig: Rig) -> None:
    """The result of "Arab command points (halved: leader lost)" was titled "Leader lost)"."""
    reason = "Arab command points (halved: leader lost)"
    groups = (DiceGroup(D6, 1, "Arab", "points (halved: leader lost)"),)
    odds = Odds("points", {0: SIXTH, 1: THIRD, 2: THIRD, 3: SIXTH})
    shown = roll(rig, reason, groups, odds)
    assert shown.title == "Arab command points"
    assert "Halved: leader lost" in shown.lines
    done = result(rig, reason, groups, odds, (4,),
                  Outcome(2, "points", details=("4 halved (fractions dropped): 2 points",)))
    assert done.title == "Arab command points"


def test_every_casualty_of_a_many_fight_melee_is_on_the_result_screen(rig: Rig) -> None:
    """FortBoard's storming showed the last two of eight details: three of the four
    deaths were only in the play-by-play. And its eight dice ran together on one line."""
    details = ("N gunners #1 3+5 v N guard #1 1+2: attacker wins", "N guard #1 is killed",
               "N gunners #3 1+1 v N guard #2 1+4: defender wins", "N gunners #3 is killed",
               "N ladders #1 3+5 v N guard #3 1+1: attacker wins", "N guard #3 is killed",
               "N ladders #6 3+1 v N guard #4 3+4: defender wins", "N ladders #6 is wounded")
    screen = result(rig, "Storming Barracks: 4 fights",
                    (DiceGroup(D6, 4, "attackers", ""), DiceGroup(D6, 4, "defenders", "")),
                    Odds("wins for attacker", {2: Fraction(1)}),
                    (5, 1, 5, 1, 2, 4, 1, 4),
                    Outcome(2, "wins for attacker", frozenset({"killed"}), details))
    assert screen.lines[:2] == ("Attackers 5 1 5 1", "Defenders 2 4 1 4")  # apart
    assert [line for line in screen.lines if line in details] == list(details)
    assert layout(screen).cut == () and layout(screen).scroll_max > 0  # it scrolls


def test_a_groups_detail_does_not_repeat_the_dice_its_own_line_shows(rig: Rig) -> None:
    """Tenir le Fort's fire said "Arab rifles: 6, 6, 3 -> 1 hit (hits on 6)" under the
    rifles' dice; the group's name stays, since two groups may both score."""
    groups = (DiceGroup(D6, 3, "Arab rifles", "hits on 6"),
              DiceGroup(D6, 2, "Arab muskets", "hits on 5+"))
    screen = result(rig, "Arab fire at Legion 1", groups,
                    Odds("hits", {0: HALF, 1: THIRD, 2: SIXTH}), (6, 6, 3, 5, 1),
                    Outcome(3, "hits", details=("Arab rifles: 6, 6, 3 -> 2 hits (hits on 6)",
                                                "Arab muskets: 5, 1 -> 1 hit (hits on 5+)")))
    assert screen.lines == ("Arab rifles 6 6 3", "Arab muskets 5 1",
                            "Arab rifles: 2 hits (hits on 6)", "Arab muskets: 1 hit (hits on 5+)")


def test_one_groups_detail_under_the_dice_line_says_only_what_they_scored(rig: Rig) -> None:
    screen = result(rig, "Arab fire at Legion 1", (DiceGroup(D6, 3, "Arab rifles", "hits on 6"),),
                    Odds("hits", {0: HALF, 1: THIRD, 2: SIXTH}), (6, 6, 3),
                    Outcome(2, "hits", details=("Arab rifles: 6, 6, 3 -> 2 hits (hits on 6)",)))
    assert screen.lines == ("Dice 6 6 3", "2 hits (hits on 6)")
