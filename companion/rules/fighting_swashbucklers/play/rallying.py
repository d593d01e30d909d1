"""The rally phase: the routed men the phasing side brings back (a roll, and a second
for a fraction of a man), and the squads they join (one man at a time, or a lost squad
whole beside its commander). The half ends when they are all placed.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.core import AwaitChoice, Choice, Outcome, counted
from companion.rules.fighting_swashbucklers import actions, rally
from companion.rules.fighting_swashbucklers.dice import read_d10
from companion.rules.fighting_swashbucklers.play.squads import commander_name
from companion.rules.fighting_swashbucklers.play.steps import (
    ChoiceStep,
    Out,
    PhaseStep,
    Roll,
    RollStep,
    d10_reading,
    label,
    opt_str,
    picked,
    zero,
)
from companion.rules.fighting_swashbucklers.play.turns import end_half
from companion.rules.fighting_swashbucklers.state import GameState, SquadState, Stage
from companion.rules.grammar import agree


def _rally_phase(s: GameState, out: Out) -> GameState:
    side = s.side(s.phasing)
    routed = any(
        u.routed > 0 and not u.airborne and not u.captured
        for u in s.units
        if u.side == side.name
    )
    if side.cp > 0 and routed:
        return s.at(stage=Stage("rally_roll"))
    return end_half(s, out)


def _ask_rally(s: GameState) -> Roll:
    return Roll(actions.RALLY, {"cp": s.side(s.phasing).cp, **d10_reading(s)}, s.phasing)


def _on_rally(
    s: GameState, st: Stage, dice: Sequence[int], outcome: Outcome, out: Out
) -> GameState:
    if actions.ONE_MORE_POSSIBLE in outcome.effects:
        die = read_d10(dice[0], opt_str(s, "d10_zero"))
        percent = rally.rally_fraction_percent(s.side(s.phasing).cp, die)
        return s.at(stage=Stage("rally_fraction", number=percent, count=outcome.headline))
    return _rally_place(s, outcome.headline, out, said_by_headline=True)


def _ask_fraction(s: GameState) -> Roll:
    return Roll(actions.RALLY_FRACTION, {"percent": s.stage.number, **zero(s)}, s.phasing)


def _on_fraction(
    s: GameState, st: Stage, dice: Sequence[int], outcome: Outcome, out: Out
) -> GameState:
    return _rally_place(s, st.count + outcome.headline, out)


def _rally_targets(s: GameState) -> tuple[tuple[SquadState, str], ...]:
    out = []
    for u in s.units:
        if u.side != s.phasing or u.routed <= 0 or u.airborne or u.captured:
            continue
        if u.men > 0 or opt_str(s, "lost_squad_rally") == "by_man":
            out.append((u, f"+1 {u.name}"))
        elif s.stage.number >= u.routed:
            out.append((u, f"{u.name} whole"))
    return tuple(out)


def _ask_squad(s: GameState) -> AwaitChoice:
    opts = [Choice(f"rally:{u.name}", label(text)) for u, text in _rally_targets(s)]
    men = counted(s.stage.number, "man", "men")
    return AwaitChoice(f"Rally {men} to?", tuple(opts), s.phasing)


def _rally_to(s: GameState, st: Stage, key: str, out: Out) -> GameState:
    """One man (or a lost squad whole) placed; the squad for the next asked while any
    are left."""
    name, men = picked(key), st.number
    u = s.unit(name)
    if u.men > 0:
        placed = 1
        out.log.append(f"1 man rallies to {name}")
    elif opt_str(s, "lost_squad_rally") == "by_man":
        placed = 1
        out.log.append(f"1 man of {name} rallies beside {commander_name(s, u.side)}")
    else:
        placed = u.routed
        out.log.append(
            agree(name, "rallies", "rally") + f" whole beside {commander_name(s, u.side)}"
        )
    s = s.with_unit(u.with_(men=u.men + placed, routed=u.routed - placed))
    left = men - placed
    if left > 0:
        s = s.at(stage=Stage("pick_rally", number=left))
        if _rally_targets(s):
            return s
        out.log.append(f"{counted(left, 'rallied man has', 'rallied men have')} nowhere to go")
    return end_half(s.at(stage=Stage()), out)


def _rally_place(s: GameState, men: int, out: Out, *, said_by_headline: bool = False) -> GameState:
    """`said_by_headline`: the roll's headline is these men, so the result screen need
    not say so twice (after the fraction's roll, the total is news)."""
    rallied = agree(s.phasing, "rallies", "rally") + f" {counted(men, 'man', 'men')}"
    out.log.append(rallied)
    if said_by_headline:
        out.headline_said.add(rallied)
    if men <= 0:
        return end_half(s, out)
    s = s.at(stage=Stage("pick_rally", number=men))
    if not _rally_targets(s):
        out.log.append("no squad can take them")
        return end_half(s.at(stage=Stage()), out)
    return s


# ----------------------------------------------------------------- what this module answers

PHASES: dict[str, PhaseStep] = {"rally": _rally_phase}

ROLLS: dict[str, RollStep] = {
    "rally_roll": RollStep(_ask_rally, _on_rally),
    "rally_fraction": RollStep(_ask_fraction, _on_fraction),
}

CHOICES: dict[str, ChoiceStep] = {"pick_rally": ChoiceStep(_ask_squad, _rally_to)}
