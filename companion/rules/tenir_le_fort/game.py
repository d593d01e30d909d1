"""The sequence of play as a state machine: preparations, two attacks, chip-bag turns.

`start` gives the first state; `next_step` says what the box waits for; `advance`
applies one input. Every pending question lives in `GameState.pending`, so a
state replayed from the journal asks exactly what it asked before.

This module holds only the entry points, the status lines (`describe`) and the
dispatch: the steps themselves are in `play/`, one module per part of the game
(see `play/__init__.py` for the map). A question is answered by the handler its
`purpose` names in `CHOICES` or `ROLLS`, gathered here from every step module.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules.core import (
    AwaitChip,
    AwaitChoice,
    AwaitRoll,
    ChipDrawn,
    Chosen,
    GameInput,
    GameOver,
    Scenario,
    Step,
    Transition,
    check_input,
    merged_handlers,
)
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.actions import ACTIONS
from companion.rules.tenir_le_fort.play import (
    activation,
    assaults,
    attack,
    charges,
    leader_chits,
    melee,
    night_operations,
    preparations,
    shooting,
    turns,
    unit_actions,
)
from companion.rules.tenir_le_fort.play.activation import on_chip
from companion.rules.tenir_le_fort.play.preparations import ask_preparation
from companion.rules.tenir_le_fort.play.shooting import after_wounds
from companion.rules.tenir_le_fort.play.steps import ChoiceHandler, RollHandler, Tx
from companion.rules.tenir_le_fort.play.units import attached_commanders
from companion.rules.tenir_le_fort.state import (
    AskChip,
    AskChoice,
    AskRoll,
    Config,
    GameState,
    Over,
    UnitState,
)
from companion.rules.tenir_le_fort.wounds import check_from_params

# ---------------------------------------------------------------- setup


def config_of(scenario: Scenario) -> Config:
    o = scenario.options
    su = scenario.setup
    return Config(
        title=scenario.title,
        turn_limit=int(str(su["turn_limit"])),
        max_preparation_days=int(str(su["max_preparation_days"])),
        tower=bool(su["tower"]),
        tower_donor=str(su["tower_donor"]),
        ffl_mines=int(str(su["ffl_mines"])),
        resolve_threshold=int(str(o["resolve_threshold"])),
        cp_per_turn=o["command_points_roll"] == "per_turn",
        max_heroes=int(str(o["max_heroes"])),
        artillery_wall_range=int(str(o["artillery_wall_range"])),
        ammo_eleven=str(o["ammo_eleven"]),
        cc_result_from=str(o["cc_result_from"]),
        leader_bonus_whole_unit=o["leader_cc_bonus"] == "unit",
        jam_clear_fires=bool(o["jam_clear_fires"]),
        pinned_recovery_moves=bool(o["pinned_recovery_moves"]),
        counter_charge_extra_die=o["counter_charge_die"] == "extra",
        wounded_leader_bonus_six=o["wounded_leader_bonus"] == "six",
        sentry_tie=str(o["sentry_tie"]),
        next_attack_roll=str(o["next_attack_roll"]),
        sergeants_command=o["ffl_command_without_officer"] == "halved",
        sentries=bool(su["sentries"]),
    )


def _int_trait(traits: Mapping[str, object], key: str) -> int:
    value = traits.get(key, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def start(scenario: Scenario) -> GameState:
    units: list[UnitState] = []
    for u in scenario.units:
        tr = u.traits
        joins = _int_trait(tr, "joins_on_day") or 1
        arrives_later = bool(tr.get("reinforcement", False)) or joins > 1
        units.append(
            UnitState(
                name=u.name,
                side=u.side,
                kind=u.kind,
                chip=u.chip or "",
                figures=u.figures,
                start_figures=u.figures,
                leader=u.leader or "",
                rank=str(tr.get("rank", "")) if (u.leader or u.kind == "leader") else "",
                mixed_tribes=bool(tr.get("mixed_tribes", False)),
                ladder=str(tr.get("ladder", "")),
                dynamite=_int_trait(tr, "dynamite"),
                on_wall=bool(tr.get("on_wall", False)),
                # a command figure listed with a pistol carries one (the sheikhs)
                pistols=_int_trait(tr, "pistols")
                or int(u.kind == "leader" and "pistol" in u.weapons),
                reinforcement=bool(tr.get("reinforcement", False)),
                present=not arrives_later,
                joins_on_day=joins,
                attached_to=str(tr.get("attached_to", "")),
            )
        )
    cfg = config_of(scenario)
    if cfg.tower:
        units.append(UnitState("Tower", "FFL", "tower", "", 0, t.TOWER_CAPACITY))
    s = GameState(config=cfg, units=tuple(units), pending=Over(None, ""))
    return ask_preparation(s)


# ---------------------------------------------------------------- dispatch

# The purposes are persisted (a journaled game's pending question names one), the
# handlers' names and modules are not: a step module may move a handler freely.
CHOICES: dict[str, ChoiceHandler] = merged_handlers(
    preparations.CHOICES,
    night_operations.CHOICES,
    attack.CHOICES,
    turns.CHOICES,
    activation.CHOICES,
    unit_actions.CHOICES,
    leader_chits.CHOICES,
    shooting.CHOICES,
    charges.CHOICES,
    melee.CHOICES,
    assaults.CHOICES,
)

ROLLS: dict[str, RollHandler] = merged_handlers(
    preparations.ROLLS,
    night_operations.ROLLS,
    attack.ROLLS,
    turns.ROLLS,
    unit_actions.ROLLS,
    leader_chits.ROLLS,
    shooting.ROLLS,
    charges.ROLLS,
    melee.ROLLS,
    assaults.ROLLS,
)


def next_step(s: GameState) -> Step:
    return _step(s, with_odds=True)


def _step(s: GameState, *, with_odds: bool) -> Step:
    p = s.pending
    if isinstance(p, AskChip):
        return AwaitChip(p.prompt, s.bag.in_bag)
    if isinstance(p, AskChoice):
        return AwaitChoice(p.prompt, p.options, p.about)
    if isinstance(p, AskRoll):
        action = ACTIONS[p.action]
        params = dict(p.params)
        return AwaitRoll(action.request(params), action.odds(params) if with_odds else None)
    head = _result_line(p)
    return GameOver(p.winner, (head, *(line for line in describe(s) if line != head)))


def advance(s: GameState, given: GameInput) -> Transition:
    # the odds are for the screen; checking the input needs only what is asked
    check_input(_step(s, with_odds=False), given)
    p = s.pending
    tx = Tx()
    if isinstance(given, ChipDrawn):
        new = on_chip(s, given.chip, tx)
    elif isinstance(given, Chosen):
        assert isinstance(p, AskChoice)
        new = CHOICES[p.purpose](s, given.key, tx)
    else:
        assert isinstance(p, AskRoll)
        action = ACTIONS[p.action]
        params = dict(p.params)
        out = action.resolve(params, given.dice)
        tx.outcome = out
        tx.cues.add("dice")
        if p.purpose == "wounds":
            new = after_wounds(s, check_from_params(params), given.dice, tx)
        else:
            new = ROLLS[p.purpose](s, out, tx)
    return Transition(new, tuple(tx.log), tx.outcome, frozenset(tx.cues))


def describe(s: GameState) -> tuple[str, ...]:
    """The state in a few lines: the status screen, and the summary at the end."""
    p = s.pending
    if s.attack == 0:
        head = f"{s.config.title}: before the game (day {s.day})"
    else:
        head = (
            f"Attack {s.attack}, day {s.day}, turn {s.turn}; Arab losses {s.casualties} "
            f"this attack, {s.total_casualties} in all"
        )
    gate = "destroyed" if s.gate_destroyed else f"{s.gate_damage}/{t.GATE_HITS} damage"
    lines = [head, f"CP FFL {s.cp_ffl}, Arab {s.cp_arab}; FFL ammo {s.ammo}; gate {gate}"]
    for side in ("FFL", "Arab"):
        standing = [_describe_unit(s, u) for u in s.side_units(side) if not u.attached_to]
        gone = [
            u.name
            for u in s.units
            if u.side == side and u.present and not u.figures and u.kind not in ("tower",)
        ]
        lines.append(f"{side}: " + ("; ".join(standing) or "none left"))
        if gone:
            lines.append(f"  {side} lost or unmanned: " + ", ".join(gone))
    # The supply train leaves the table by going into the fort: it came, it is not awaited.
    relief = [u.name for u in s.units if u.reinforcement and not u.present and u.figures
              and not (u.kind == "supply" and s.supply_through)]
    if relief and s.attack:
        lines.append("Relief column: not here yet")
    if s.supply_through:
        lines.append("Supply train inside the fort: no more ammunition rolls")
    if isinstance(p, Over):
        lines.append(_result_line(p))
    return tuple(lines)


def _result_line(over: Over) -> str:
    """Who won and why: "won" agrees with any side's name ("FFL", "Arabs")."""
    return f"{over.winner or 'Nobody'} won: {over.reason}."


def _describe_unit(s: GameState, u: UnitState) -> str:
    count = f"{u.figures}" + (f" ({u.wounded} wounded)" if u.wounded else "")
    with_it = [u.leader + (" wounded" if u.leader_wounded else "")] if u.leader else []
    with_it += [c.name + (" wounded" if c.wounded else "") for c in attached_commanders(s, u.name)]
    flags = [
        word
        for word, on in (
            ("pinned", u.pinned),
            ("berserk", u.berserk),
            ("jammed", u.jammed),
            ("broken", u.broken),
            ("hero", u.heroes > 0),
            ("carrying a dead officer", u.carrying_dead),
            ("ladder set", u.ladder_placed),
        )
        if on
    ]
    if u.command_figure:
        return u.name + (" (wounded)" if u.wounded else "")
    text = f"{u.name} {count}"
    if with_it:
        text += " with " + ", ".join(with_it)
    return text + (f" [{', '.join(flags)}]" if flags else "")
