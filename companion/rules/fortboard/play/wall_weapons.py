"""The defender's wall weapons (1.5): what each reaches, its target (the foot of its
wall or an engine), the roll against figures or engine, and climbers who live through it.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from companion.rules import odds as odds_helpers
from companion.rules.core import Choice, DiceGroup, DieKind, Odds, Outcome, RollRequest, counted
from companion.rules.fortboard import actions, board, engines, movement, tables
from companion.rules.fortboard.play.losses import hit_order, kill
from companion.rules.fortboard.play.siege_engines import maybe_engine_destroyed
from companion.rules.fortboard.play.steps import (
    ChoiceStep,
    Out,
    RollStep,
    action_roll,
    alive,
    resolve,
)
from companion.rules.fortboard.state import ATTACKER, Ask, Figure, GameState, pair_get, pair_set


def _weapon_wall(state: GameState, name: str) -> str:
    return next(w.wall for w in state.layout.wall_weapons if w.name == name)


def weapon_spaces(state: GameState, name: str) -> int:
    return next(w.spaces for w in state.layout.wall_weapons if w.name == name)


def weapon_reach(state: GameState, name: str) -> int:
    """Figures below a wall weapon reaches: one per space (1.5), by default only
    the spaces artillery has not yet knocked out (option `weapon_reach`)."""
    spaces = weapon_spaces(state, name)
    if state.option("weapon_reach") == "all_spaces":
        return spaces
    return spaces - pair_get(state.weapon_hits, name)


def weapon_choices(state: GameState, name: str) -> list[Choice]:
    layout = state.layout
    wall = _weapon_wall(state, name)
    out: list[Choice] = []
    below = board.at(state, layout.foot_of(wall), ATTACKER)
    if below:
        out.append(Choice("foot", f"foot of wall ({len(below)})"))
    stations = list(layout.stations_facing(wall))
    if wall == layout.front:
        stations += list(layout.stations_facing(layout.gate()))
    for station in stations:
        if board.engine_intact(state, station):
            out.append(Choice(f"engine:{station}", f"{station} engine"))
    return out


def _choose_weapon_target(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    return f"{ask.args[0]} at?", weapon_choices(state, ask.args[0]), ask.args[0]


def _on_weapon_target(state: GameState, key: str, out: Out) -> GameState:
    weapon = state.top.args[0]
    state = state.pop()
    if key == "foot":
        wall = _weapon_wall(state, weapon)
        below = board.at(state, state.layout.foot_of(wall), ATTACKER)
        reached = hit_order(below)[: weapon_reach(state, weapon)]
        return state.push(Ask("weapon_roll", (weapon, key), tuple(f.id for f in reached)))
    return state.push(Ask("weapon_roll", (weapon, key)))


def _weapon_params(state: GameState) -> dict[str, int | bool | str]:
    barracks, keep = board.fort_penalty_flags(state)
    value = state.option("wall_weapon_value")
    assert isinstance(value, int)
    return {"weapon_value": value, "barracks_fallen": barracks, "keep_fallen": keep}


def _weapon_shares(state: GameState, ask: Ask) -> list[tuple[Figure, int]]:
    targets = alive(state, ask.ids)
    shares = engines.attempts_per_target(len(targets), weapon_reach(state, ask.args[0]))
    return list(zip(targets, shares, strict=False))


def _weapon_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    weapon, target = ask.args
    n = tables.WALL_WEAPON_ATTEMPTS
    if target.startswith("engine:"):
        request, odds = action_roll(
            "wall-weapon", {"attempts": n, "target": "engine", **_weapon_params(state)}
        )
        return replace(request, reason=f"{weapon} at {target[7:]}: {request.reason}"), odds
    shares = _weapon_shares(state, ask)
    meaning = "; ".join(f"{k} on {f.label}" for f, k in shares)
    value = actions.wall_weapon_value(actions.WALL_WEAPON.complete_params(_weapon_params(state)))
    request = RollRequest(
        f"{weapon} ({value}) at the foot of {_weapon_wall(state, weapon)}",
        (
            DiceGroup(DieKind.D6, n, "weapon", f"adds to {value}; higher wins"),
            DiceGroup(DieKind.D6, n, "targets", meaning),
        ),
    )
    total: dict[int, Fraction] = {0: Fraction(1)}
    for figure, share in shares:
        part = actions.WALL_WEAPON.odds(
            actions.WALL_WEAPON.complete_params(
                {
                    "attempts": share,
                    "target_kind": figure.kind,
                    "target_wounded": figure.wounded,
                    **_weapon_params(state),
                }
            )
        )
        total = odds_helpers.add(total, part.headline)
    return request, Odds("hits", total)


def _on_weapon_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    ask = state.top
    weapon, target = ask.args
    n = tables.WALL_WEAPON_ATTEMPTS
    weapon_dice, target_dice = dice[:n], dice[n:]
    params = _weapon_params(state)
    if target.startswith("engine:"):
        station = target[7:]
        state = state.pop()
        outcome = resolve("wall-weapon", {"attempts": n, "target": "engine", **params}, dice)
        out.outcome = outcome
        hits = min(pair_get(state.hits, station) + outcome.headline, tables.ENGINE_HITS_TO_DESTROY)
        state = replace(state, hits=pair_set(state.hits, station, hits))
        out.log.append(f"{weapon} against {state.layout.engine_name(station)}: "
                       f"{outcome.headline} hit{'' if outcome.headline == 1 else 's'}")
        return maybe_engine_destroyed(state, station, out)
    shares = _weapon_shares(state, ask)
    state = state.pop()
    value = actions.wall_weapon_value(actions.WALL_WEAPON.complete_params(params))
    at = 0
    total = 0
    survivors: list[Figure] = []
    for figure, share in shares:
        wins, wounded, killed = actions.wall_weapon_sequence(
            value,
            figure.kind,
            figure.wounded,
            weapon_dice[at : at + share],
            target_dice[at : at + share],
        )
        at += share
        total += wins
        if killed:
            state = kill(state, figure, out)
        else:
            if wounded and not figure.wounded:
                out.log.append(f"{figure.label} is wounded")
            current = replace(figure, wounded=wounded)
            state = state.with_figure(current)
            survivors.append(current)
    succeed = counted(total, "attempt succeeds", "attempts succeed")
    out.outcome = Outcome(total, "hits", details=(f"{weapon}: {succeed}",))
    if target == "climb":
        return state  # the survivors go on up the ladders (1.3)
    # fired in the defender's move: whoever lives through it reaches the top (1.5)
    wall = _weapon_wall(state, weapon)
    room = board.room(state, wall, ATTACKER)
    climbing = tuple(survivors[:room])
    if climbing:
        state, _log = movement.place_figures(state, climbing, wall, movement.CLIMB)
        one = len(climbing) == 1
        out.log.append(
            f"{len(climbing)} {'survives' if one else 'survive'} the {weapon} and "
            f"{'reaches' if one else 'reach'} the top of {wall}"
        )
    return state


CHOICES: dict[str, ChoiceStep] = {
    "weapon_target": ChoiceStep(_choose_weapon_target, _on_weapon_target),
}

ROLLS: dict[str, RollStep] = {
    "weapon_roll": RollStep(_weapon_roll, _on_weapon_roll),
}
