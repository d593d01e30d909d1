"""Close combat: one figure against one figure, d6 plus modifiers, high total wins.

Ties are rolled again. The loser's result comes from the loser's die (option
`cc_result_from` can read the modified total instead): FFL 1 killed, 2-3
wounded, falls back 2d6 and pinned, 4-6 falls back and pinned; Arab 1-3
killed, 4-6 falls back and pinned, or surrenders if surrounded. A berserk
loser is killed; a wounded legionnaire wounded again is killed; a hero
ignores wounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from companion.rules.core import (
    Action,
    DiceGroup,
    DieKind,
    Odds,
    Outcome,
    Param,
    ParamKind,
    Params,
    RollRequest,
    RulesError,
    check_dice,
)
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.dicemath import D6, odds_of

LEADERS = ("none", "sergeant", "captain", "lieutenant", "tribal", "mounted")
POSITIONS = ("open", "cover", "loophole")


@dataclass(frozen=True)
class Fighter:
    """One figure in a close combat and everything that modifies its die."""

    side: str
    leader: str = "none"  # the leader whose bonus this figure gets
    berserk: bool = False
    pinned: bool = False
    low_water: bool = False
    wounded: bool = False
    hero: bool = False
    gun_crew: bool = False
    position: str = "open"  # defenders only: "cover" +1, "loophole" +2
    surrounded: bool = False  # an Arab who cannot fall back surrenders

    def modifiers(self) -> tuple[tuple[str, int], ...]:
        mods: list[tuple[str, int]] = []
        if self.leader != "none":
            key = t.LEADER_CC_KEY[self.leader]
            mods.append((key.replace("_", " "), t.CC_MODIFIERS[key]))
        flags = (
            ("hero", self.hero),
            ("berserk", self.berserk),
            ("pinned", self.pinned),
            ("low_on_water", self.low_water),
            ("wounded", self.wounded),
            ("gun_crew", self.gun_crew),
        )
        for key, on in flags:
            if on:
                mods.append((key.replace("_", " "), t.CC_MODIFIERS[key]))
        if self.position == "cover":
            mods.append(("defending cover", t.CC_MODIFIERS["defending_cover"]))
        elif self.position == "loophole":
            mods.append(("defending loophole", t.CC_MODIFIERS["defending_loophole"]))
        return tuple(mods)

    @property
    def modifier(self) -> int:
        return sum(v for _, v in self.modifiers())

    def loses(self, die: int, total: int, *, from_total: bool) -> str:
        """What happens to this figure when it loses with `die` (modified `total`)."""
        read = max(1, min(6, total)) if from_total else die
        if self.berserk:
            return "killed"
        result = t.cc_loser_result(self.side, read)
        if self.side == "FFL" and result == "wounded":
            if self.hero:
                return "fell back"
            if self.wounded:
                return "killed"
        if self.side == "Arab" and result == "fell back" and self.surrounded:
            return "surrendered"
        return result


@dataclass(frozen=True)
class Bout:
    attacker: Fighter
    defender: Fighter
    from_total: bool = False

    def request(self) -> RollRequest:
        a = self.attacker.modifier
        d = self.defender.modifier
        return RollRequest(
            f"close combat: {self.attacker.side} attacker {a:+d} vs "
            f"{self.defender.side} defender {d:+d}",
            (
                DiceGroup(DieKind.D6, 1, "attacker", f"d6 {a:+d}; high total wins"),
                DiceGroup(DieKind.D6, 1, "defender", f"d6 {d:+d}; ties roll again"),
            ),
        )

    def evaluate(self, a_die: int, d_die: int) -> tuple[int, frozenset[str], tuple[str, ...]]:
        """(winner, effects, explanation) for one pair of dice.

        The winner is ATTACKER_WINS, DEFENDER_WINS or TIE (the headline); the
        effects say what befalls the loser, named for the loser so that a line of
        odds reads on its own: LOSER_KILLED, LOSER_SURRENDERS, or LOSER_FALLS_BACK
        and LOSER_PINNED, with LOSER_WOUNDED for a legionnaire wounded as well.
        """
        a_total = a_die + self.attacker.modifier
        d_total = d_die + self.defender.modifier
        lines = [
            f"attacker {a_die}{self.attacker.modifier:+d} = {a_total}, "
            f"defender {d_die}{self.defender.modifier:+d} = {d_total}"
        ]
        if a_total == d_total:
            return TIE, frozenset(), (*lines, "tie: roll again")
        if a_total > d_total:
            won, name, loser, die, total = ATTACKER_WINS, "defender", self.defender, d_die, d_total
        else:
            won, name, loser, die, total = DEFENDER_WINS, "attacker", self.attacker, a_die, a_total
        result = loser.loses(die, total, from_total=self.from_total)
        lines.append(f"the {name} ({loser.side}) loses with {die}: {LOSER_WORDS[result]}")
        return won, LOSER_EFFECTS[result], tuple(lines)

    def resolve(self, dice: Sequence[int]) -> Outcome:
        check_dice(self.request(), dice)
        winner, effects, lines = self.evaluate(dice[0], dice[1])
        return Outcome(winner, HEADLINE, effects, lines)

    def odds(self) -> Odds:
        return odds_of(
            HEADLINE, [(Fraction(1, 36), *self.evaluate(a, d)[:2]) for a in D6 for d in D6]
        )


# The headline names who won the pair of dice; a tie is rolled again.
TIE, ATTACKER_WINS, DEFENDER_WINS = 0, 1, 2
HEADLINE = f"result ({ATTACKER_WINS} attacker wins, {DEFENDER_WINS} defender wins, {TIE} tie)"

# What befalls the loser, as effects: the odds line says "loser killed 47%",
# never a bare "killed" that could be either figure's.
LOSER_KILLED = "loser_killed"
LOSER_WOUNDED = "loser_wounded"
LOSER_FALLS_BACK = "loser_falls_back"
LOSER_PINNED = "loser_pinned"
LOSER_SURRENDERS = "loser_surrenders"

# the loser's result (see `Fighter.loses`) -> its effects: a wounded legionnaire
# also falls back 2d6 and is pinned, as does every other loser who lives and
# can get away
LOSER_EFFECTS: dict[str, frozenset[str]] = {
    "killed": frozenset({LOSER_KILLED}),
    "wounded": frozenset({LOSER_WOUNDED, LOSER_FALLS_BACK, LOSER_PINNED}),
    "fell back": frozenset({LOSER_FALLS_BACK, LOSER_PINNED}),
    "surrendered": frozenset({LOSER_SURRENDERS}),
}


def loser_result(effects: frozenset[str]) -> str:
    """The loser's result ("killed", "surrendered", "wounded", "fell back") that a
    bout's effects name; "" for a tie."""
    for result in ("killed", "surrendered", "wounded", "fell back"):
        if LOSER_EFFECTS[result] <= effects:
            return result
    return ""


# what happens to a figure that loses, as the referee reads it out
LOSER_WORDS: dict[str, str] = {
    "killed": "killed",
    "wounded": "wounded, falls back",
    "fell back": "falls back",
    "surrendered": "surrenders",
}


SIDE_LEADERS: dict[str, tuple[str, ...]] = {
    "FFL": ("none", "sergeant", "captain", "lieutenant"),
    "Arab": ("none", "tribal", "mounted"),
}


def _fighter(p: Params, who: str, side: str) -> Fighter:
    leader = str(p[f"{who}_leader"])
    if leader not in SIDE_LEADERS[side]:
        raise RulesError(
            f"{who}_leader={leader}: the {who} is {side}, whose leaders are "
            + ", ".join(SIDE_LEADERS[side])
        )
    if side == "Arab":
        # wounds and heroes are the Legion's: an Arab hit is simply removed
        for flag, words in (("wounded", "wounded"), ("hero", "a hero")):
            if bool(p[f"{who}_{flag}"]):
                raise RulesError(f"{who}_{flag}=yes: only a legionnaire can be {words}")
    return Fighter(
        side=side,
        leader=leader,
        berserk=bool(p[f"{who}_berserk"]),
        pinned=bool(p[f"{who}_pinned"]),
        low_water=bool(p[f"{who}_low_water"]),
        wounded=bool(p[f"{who}_wounded"]),
        hero=bool(p[f"{who}_hero"]),
        gun_crew=bool(p[f"{who}_gun_crew"]),
        position=str(p["defender_position"]) if who == "defender" else "open",
        surrounded=who == "defender" and bool(p["defender_surrounded"]),
    )


def bout_from_params(p: Params) -> Bout:
    attacker_side = str(p["attacker_side"])
    defender_side = "FFL" if attacker_side == "Arab" else "Arab"
    if defender_side == "Arab" and str(p["defender_position"]) == "loophole":
        raise RulesError("defender_position=loophole: only legionnaires defend the loopholes")
    return Bout(
        _fighter(p, "attacker", attacker_side),
        _fighter(p, "defender", defender_side),
        from_total=str(p["result_from"]) == "total",
    )


def _side_params(who: str) -> tuple[Param, ...]:
    return (
        Param(
            f"{who}_leader", ParamKind.CHOICE, f"the {who}'s leader bonus", "none", choices=LEADERS
        ),
        Param(f"{who}_berserk", ParamKind.BOOL, f"the {who} is berserk (+1)", False),
        Param(f"{who}_pinned", ParamKind.BOOL, f"the {who} is pinned (-1)", False),
        Param(f"{who}_low_water", ParamKind.BOOL, f"the {who}'s side is low on water (-1)", False),
        Param(f"{who}_wounded", ParamKind.BOOL, f"the {who} is a wounded legionnaire (-1)", False),
        Param(f"{who}_hero", ParamKind.BOOL, f"the {who} is a hero (+2)", False),
        Param(f"{who}_gun_crew", ParamKind.BOOL, f"the {who} is gun crew (-1)", False),
    )


CLOSE_COMBAT = Action(
    name="close-combat",
    title="Close combat between two figures",
    help="Attacker and defender each roll a d6 and add modifiers; high total wins, ties roll "
    "again; the loser's die gives the result for the loser's side.",
    params=(
        Param(
            "attacker_side", ParamKind.CHOICE, "the charging side", "Arab", choices=("Arab", "FFL")
        ),
        *_side_params("attacker"),
        *_side_params("defender"),
        Param(
            "defender_position",
            ParamKind.CHOICE,
            "where the defender stands",
            "open",
            choices=POSITIONS,
        ),
        Param("defender_surrounded", ParamKind.BOOL, "the defender cannot fall back", False),
        Param(
            "result_from",
            ParamKind.CHOICE,
            "read the loser's result from",
            "die",
            choices=("die", "total"),
        ),
    ),
    request=lambda p: bout_from_params(p).request(),
    resolve=lambda p, dice: bout_from_params(p).resolve(dice),
    odds=lambda p: bout_from_params(p).odds(),
    examples=(
        {},
        {"attacker_berserk": True, "defender_position": "loophole", "defender_leader": "sergeant"},
        {
            "attacker_side": "FFL",
            "attacker_wounded": True,
            "defender_surrounded": True,
            "defender_leader": "mounted",
        },
        {
            "defender_hero": True,
            "defender_low_water": True,
            "attacker_leader": "tribal",
            "result_from": "total",
        },
    ),
)

ACTIONS: tuple[Action, ...] = (CLOSE_COMBAT,)
