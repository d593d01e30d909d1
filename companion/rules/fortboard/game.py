"""FortBoard's sequence of play as a state machine.

Each turn: the attacker moves (and shoots, works his engines) with everything
he wishes, then the defender does the same, then every contact is fought out.
Turns run to the scenario's limit unless one side is wiped out or the keep
is taken. The box asks for each choice (which group, where, at what) and each
roll; what it cannot see (distance in spaces) it asks as a choice.

This module holds only the entry points (`start`, `next_step`, `advance`,
`describe`), the dispatch and the settling after each input: the steps themselves
are in `play/`, one module per part of the game (see `play/__init__.py` for the map).
What the game waits for is the `Ask` on top of the state's stack; its `kind` names the
stage: its question and what its answer does, one `StageStep` in `_CHOICES` or
`_ROLLS`, gathered here from every step module. The asks "combat" and "land" need no
input and are done by `_settle`. `MELEE_WINS` (a melee's count, now defined in
`play/combat.py`) may still be imported from here.
"""

from __future__ import annotations

from companion.rules.core import (
    AwaitChoice,
    AwaitRoll,
    Chosen,
    GameInput,
    GameOver,
    Rolled,
    Scenario,
    Step,
    Transition,
    check_input,
    counted,
    merged_handlers,
)
from companion.rules.fortboard import board, tables
from companion.rules.fortboard.layout import BRIDGE
from companion.rules.fortboard.play import (
    combat,
    guns,
    move_menu,
    moving,
    reactions,
    shooting,
    siege_engines,
    stonework,
    wall_weapons,
)
from companion.rules.fortboard.play.combat import MELEE_WINS as MELEE_WINS
from companion.rules.fortboard.play.combat import combat_next
from companion.rules.fortboard.play.move_menu import from_places
from companion.rules.fortboard.play.moving import land
from companion.rules.fortboard.play.reactions import reaction_options
from companion.rules.fortboard.play.shooting import missile_targets
from companion.rules.fortboard.play.steps import (
    ChoiceStep,
    Out,
    RollStep,
    alive,
)
from companion.rules.fortboard.play.turns import COMBAT, check_fallen, check_victory
from companion.rules.fortboard.scenario import layout_of, unit_place
from companion.rules.fortboard.state import ATTACKER, DEFENDER, Ask, Figure, GameState, pair_get

# ------------------------------------------------------------------ start


def start(scenario: Scenario) -> GameState:
    layout = layout_of(scenario)
    attacker_name = scenario.sides[0]
    figures: list[Figure] = []
    next_id = 1
    for unit in scenario.units:
        side = ATTACKER if unit.side == attacker_name else DEFENDER
        for number in range(1, unit.figures + 1):
            figures.append(Figure(next_id, unit.name, number, side, unit.kind, unit_place(unit)))
            next_id += 1
    options: list[tuple[str, bool | int | str]] = []
    for key, value in sorted(scenario.options.items()):
        assert isinstance(value, bool | int | str)
        options.append((key, value))
    return GameState(
        layout=layout,
        options=tuple(options),
        sides=(scenario.sides[0], scenario.sides[1]),
        title=scenario.title,
        figures=tuple(figures),
        aims=tuple((g, 0) for g in sorted(layout.defender_artillery)),
        oil_left=layout.oil_vats,
        stack=(Ask("menu"),),
        next_id=next_id,
    )


# ---------------------------------------------------------------- dispatch

# The ask kinds are persisted (a state's stack names them, and a state is rebuilt by
# replaying the journal's inputs through them); the handlers' names and modules are not.
_CHOICES: dict[str, ChoiceStep] = merged_handlers(
    siege_engines.CHOICES,
    moving.CHOICES,
    shooting.CHOICES,
    wall_weapons.CHOICES,
    guns.CHOICES,
    stonework.CHOICES,
    reactions.CHOICES,
    move_menu.CHOICES,
)

_ROLLS: dict[str, RollStep] = merged_handlers(
    siege_engines.ROLLS,
    combat.ROLLS,
    moving.ROLLS,
    shooting.ROLLS,
    wall_weapons.ROLLS,
    guns.ROLLS,
    stonework.ROLLS,
)


# ------------------------------------------------------------ next_step


def next_step(state: GameState) -> Step:
    known = state.memo.get("step")
    if isinstance(known, AwaitChoice | AwaitRoll | GameOver):
        return known
    step = _next_step(state)
    state.memo["step"] = step
    return step


def _next_step(state: GameState) -> Step:
    if state.over:
        return GameOver(state.winner, _summary(state))
    ask = state.top
    kind = ask.kind
    if kind in _CHOICES:
        prompt, options, about = _CHOICES[kind].ask(state, ask)
        return AwaitChoice(prompt, tuple(options), about=about)
    request, odds = _ROLLS[kind].ask(state, ask)
    return AwaitRoll(request, odds)


# ---------------------------------------------------------------- advance


def advance(state: GameState, given: GameInput) -> Transition:
    step = next_step(state)
    check_input(step, given)
    out = Out()
    if isinstance(given, Chosen):
        new = _CHOICES[state.top.kind].apply(state, given.key, out)
    else:
        assert isinstance(given, Rolled)
        out.cues.add("dice")
        new = _ROLLS[state.top.kind].apply(state, tuple(given.dice), out)
    new = _settle(new, out)
    return Transition(new, tuple(out.log), out.outcome, frozenset(out.cues))


def _settle(state: GameState, out: Out) -> GameState:
    """Do what needs no input, and drop asks that no longer make sense."""
    for _ in range(10_000):
        if state.option("buildings_fall") == "at_once":
            state = check_fallen(state, out)
        state = check_victory(state, out)
        if state.over:
            return state
        ask = state.top
        if ask.kind == "combat":
            state = combat_next(state, out)
            continue
        if ask.kind == "land":
            state = land(state, ask, out)
            continue
        if ask.kind == "reaction" and (
            not alive(state, ask.ids) or not reaction_options(state, ask)
        ):
            state = state.pop()
            continue
        if ask.kind == "wound_roll" and not board.at(state, ask.args[0]):
            state = state.pop()
            continue
        if ask.kind in ("missile_roll", "range") and (
            not missile_targets(state, ask) or not alive(state, ask.ids)
        ):
            out.log.append("No target left to shoot at")
            state = state.pop()
            continue
        if ask.kind in ("douse_roll", "survivors_roll", "survivor_place") and not alive(
            state, ask.ids
        ):
            state = state.pop()
            continue
        if (
            ask.kind == "weapon_roll"
            and not ask.args[1].startswith("engine:")
            and not (alive(state, ask.ids))
        ):
            state = state.pop()
            continue
        if ask.kind == "from" and not from_places(state, ask):
            state = state.pop()
            continue
        if ask.kind == "space_hit" and not _CHOICES["space_hit"].ask(state, ask)[1]:
            state = state.pop()
            continue
        return state
    raise AssertionError("settling did not finish")  # pragma: no cover


# ---------------------------------------------------------------- describe


def _summary(state: GameState) -> tuple[str, ...]:
    return describe(state)  # its first line says who won and why


def describe(state: GameState) -> tuple[str, ...]:
    phase = {
        ATTACKER: state.sides[0] + " move",
        DEFENDER: state.sides[1] + " move",
        COMBAT: "combat",
    }[state.phase]
    lines = [f"Turn {state.turn}/{state.layout.turn_limit}: {phase}"]
    if state.over:
        who = f"{state.winner} won" if state.winner else "Game over"
        lines[0] = f"{who} on turn {state.turn}: {state.end_reason}"
    for side in (ATTACKER, DEFENDER):
        figures = board.alive(state, side)
        wounded = sum(1 for f in figures if f.wounded)
        lines.append(
            f"{state.side_name(side)}: {counted(len(figures), 'figure')} ({wounded} wounded), "
            f"{pair_get(state.lost, side)} lost"
        )
    damage = [
        f"{name} {min(hits, state.layout.place(name).spaces)}/{state.layout.place(name).spaces}"
        for name, hits in state.hits
        if state.layout.place(name).damageable
    ]
    if damage:
        lines.append("Spaces hit: " + ", ".join(damage))
    engines_hit = [
        f"{name} {hits}/{tables.ENGINE_HITS_TO_DESTROY}"
        for name, hits in state.hits
        if state.layout.place(name).kind == "station"
    ]
    if engines_hit:
        lines.append("Engines hit: " + ", ".join(engines_hit))
    if state.fallen:
        lines.append("Fallen: " + ", ".join(sorted(state.fallen)))
    if state.burning:
        lines.append(
            "Burning: "
            + ", ".join(f"{s} {t}/{tables.OIL_BURN_TURNS} turns" for s, t in state.burning)
        )
    if state.guns_lost:
        lines.append("Guns lost: " + ", ".join(sorted(state.guns_lost)))
    bridges = [
        f"{state.layout.station_of_bridge(b)} {counted(len(board.at(state, b)), 'figure')}"
        for b in state.layout.names(BRIDGE)
        if board.at(state, b)
    ]
    if bridges:
        lines.append("On bridges: " + ", ".join(bridges))
    return tuple(lines)
