"""Wounds: every hit on a legionnaire rolls on the Effect of Hits chart.

One d6 per hit: 1 dead, 2-3 wounded, 4-6 no effect. A wounded figure wounded
again is dead. The box reads the random figure as: deaths and wounds fall on
unwounded figures while there are any, further wounds kill wounded figures. A
hero (rolled as his own die when the players say he is among the hits)
ignores a wound.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
    counted,
)
from companion.rules.odds import odds_from_ways
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.dicemath import fold_pool_ways


@dataclass(frozen=True)
class WoundResult:
    killed: int  # figures removed, hero included
    newly_wounded: int  # unwounded figures now wounded
    hero_killed: bool
    lines: tuple[str, ...]


def apply_wounds(
    figures: int,
    already_wounded: int,
    dead: int,
    wounded: int,
    hero: str | None,
    *,
    explain: bool = True,
) -> WoundResult:
    """Apply `dead` and `wounded` results to a unit; `hero` is the hero's own result."""
    healthy = figures - already_wounded - (1 if hero is not None else 0)
    lines: list[str] = []
    killed = 0
    hero_killed = False
    if hero == "dead":
        killed += 1
        hero_killed = True
        lines.append("the hero is killed")
    elif hero == "wounded":
        lines.append("the hero ignores his wound")
    dead_healthy = min(dead, healthy)
    dead_wounded = min(dead - dead_healthy, already_wounded)
    killed += dead_healthy + dead_wounded
    healthy -= dead_healthy
    still_wounded = already_wounded - dead_wounded
    newly = min(wounded, healthy)
    again = min(wounded - newly, still_wounded)
    killed += again
    if not explain:
        return WoundResult(killed, newly, hero_killed, ())
    if dead:
        lines.append(f"{dead} dead")
    if newly:
        lines.append(f"{newly} wounded")
    if again:
        lines.append(f"{again} wounded again and dead")
    return WoundResult(killed, newly, hero_killed, tuple(lines))


# The wound roll's headline counts its casualties: the men it kills and the men
# it newly wounds (a wound on a wounded man kills him and counts once, as dead).
# The odds are of that count. A result of one kind names it, so that the box
# says "1 man wounded" or "2 men dead", never a yes or no ("Killed: no" for a
# wounded man); a mix is "3 casualties", its details saying how many of each.
CASUALTIES = "casualties"


def casualties_label(r: WoundResult) -> str:
    """The headline label of a wound roll's result: what its casualties are."""
    if r.killed and not r.newly_wounded:
        return "men dead"
    if r.newly_wounded and not r.killed:
        return "men wounded"
    return CASUALTIES


@dataclass(frozen=True)
class WoundCheck:
    hits: int  # hits on ordinary figures
    figures: int
    already_wounded: int
    hero_hit: bool

    def __post_init__(self) -> None:
        if self.already_wounded > self.figures:
            raise RulesError(
                f"already_wounded={self.already_wounded} is more than figures={self.figures}"
            )
        if self.hero_hit and self.figures < 1:
            raise RulesError("a hero hit needs at least one figure")

    def request(self) -> RollRequest:
        meaning = "1 dead, 2-3 wounded, 4-6 no effect"
        groups = [DiceGroup(DieKind.D6, self.hits, "wounds", meaning)] if self.hits else []
        if self.hero_hit:
            groups.append(DiceGroup(DieKind.D6, 1, "hero", "1 dead; a hero ignores wounds"))
        return RollRequest(
            f"effect of {counted(self.hits + self.hero_hit, 'hit')} on legionnaires", tuple(groups)
        )

    def evaluate(
        self, dead: int, wounded: int, hero: str | None, *, explain: bool = True
    ) -> WoundResult:
        return apply_wounds(
            self.figures, self.already_wounded, dead, wounded, hero, explain=explain
        )

    @staticmethod
    def effects_of(r: WoundResult) -> frozenset[str]:
        effects = set()
        if r.killed:
            effects.add("killed")
        if r.newly_wounded:
            effects.add("wounded")
        return frozenset(effects)

    def tally(self, dice: Sequence[int]) -> WoundResult:
        """What a roll of the requested dice does to the unit."""
        check_dice(self.request(), dice)
        results = [t.wound_result(d) for d in dice[: self.hits]]
        hero: str | None = None
        if self.hero_hit:
            hero = {"dead": "dead", "wounded": "wounded"}.get(t.wound_result(dice[-1]), "none")
        return self.evaluate(results.count("dead"), results.count("wounded"), hero)

    def resolve(self, dice: Sequence[int]) -> Outcome:
        r = self.tally(dice)
        label = casualties_label(r)
        count = r.killed + r.newly_wounded
        said = "; ".join(r.lines) or "no effect"
        kind = label.split()[-1]  # "dead" or "wounded" when the casualties are of one kind
        if label != CASUALTIES and r.lines == (f"{count} {kind}",):
            # the headline's own words ("1 man wounded"), so that the box, which shows
            # the dice and the headline already, does not say "1 wounded" again below
            said = f"{counted(count, 'man', 'men')} {kind}"
        lines = [f"{', '.join(map(str, dice))}: {said}"] if dice else ["no hits"]
        return Outcome(count, label, self.effects_of(r), tuple(lines))

    def odds(self) -> Odds:
        def step(dead: int, f: int) -> tuple[int, int]:
            res = t.wound_result(f)
            return dead + (res == "dead"), int(res == "wounded")

        ways, total = fold_pool_ways(0, [(self.hits, step)])
        heroes: list[tuple[str | None, int]] = [(None, 1)]
        if self.hero_hit:
            heroes = [("dead", 1), ("wounded", 2), ("none", 3)]
            total *= 6
        none: frozenset[str] = frozenset()
        names = {
            (False, False): none,
            (True, False): frozenset({"killed"}),
            (False, True): frozenset({"wounded"}),
            (True, True): frozenset({"killed", "wounded"}),
        }
        out = []
        for (dead, wounded), w in ways.items():
            for hero, wh in heroes:
                killed, newly = self.count(dead, wounded, hero)
                out.append((w * wh, killed + newly, names[(killed > 0, newly > 0)]))
        return odds_from_ways(CASUALTIES, out, total)

    def count(self, dead: int, wounded: int, hero: str | None) -> tuple[int, int]:
        """(killed, newly wounded): the arithmetic of `apply_wounds`, without the words."""
        healthy = self.figures - self.already_wounded - (hero is not None)
        dead_healthy = min(dead, healthy)
        dead_wounded = min(dead - dead_healthy, self.already_wounded)
        newly = min(wounded, healthy - dead_healthy)
        again = min(wounded - newly, self.already_wounded - dead_wounded)
        return (hero == "dead") + dead_healthy + dead_wounded + again, newly


def check_from_params(p: Params) -> WoundCheck:
    return WoundCheck(
        int(p["hits"]), int(p["figures"]), int(p["already_wounded"]), bool(p["hero_hit"])
    )


WOUND_CHECK = Action(
    name="wound-check",
    title="Effect of hits on legionnaires",
    help="One d6 per hit: 1 dead, 2-3 wounded, 4-6 no effect; wounded again is dead; a hero "
    "ignores wounds.",
    params=(
        Param("hits", ParamKind.INT, "hits on ordinary figures", 2, minimum=0, maximum=40),
        Param("figures", ParamKind.INT, "figures in the unit", 6, minimum=1, maximum=40),
        Param(
            "already_wounded", ParamKind.INT, "figures already wounded", 0, minimum=0, maximum=40
        ),
        Param("hero_hit", ParamKind.BOOL, "the hero is one of the hits (rolls his own die)", False),
    ),
    request=lambda p: check_from_params(p).request(),
    resolve=lambda p, dice: check_from_params(p).resolve(dice),
    odds=lambda p: check_from_params(p).odds(),
    examples=(
        {"hits": 2, "figures": 6},
        {"hits": 3, "figures": 3, "already_wounded": 2},
        {"hits": 1, "figures": 4, "hero_hit": True},
    ),
)

ACTIONS: tuple[Action, ...] = (WOUND_CHECK,)
