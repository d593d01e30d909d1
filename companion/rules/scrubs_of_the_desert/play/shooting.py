"""Fire: whether the activated unit may fire (and why not, when it cannot), its target,
weapon, range and cover, the roll (a machine gun may jam), the figures lost and the
units that test morale after. Defensive fire at chargers goes the same way, at short
range, and then on to the attacker's test.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import (
    Action,
    AwaitChoice,
    Choice,
    Outcome,
    Params,
    counted,
    unit_choices,
    yes_no,
)
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.fire import FIRE
from companion.rules.scrubs_of_the_desert.play.losses import lose_figures
from companion.rules.scrubs_of_the_desert.play.spotting import spot
from companion.rules.scrubs_of_the_desert.play.steps import (
    ChoiceStep,
    Result,
    RollStep,
    r,
    then,
    to,
)
from companion.rules.scrubs_of_the_desert.play.turns import end_activation
from companion.rules.scrubs_of_the_desert.state import Band, GameState


def to_fire(state: GameState) -> Result:
    actor = state.band(state.ctx.actor)
    if actor.can_fire(state.turn) and state.enemies(actor.side):
        return r(to(state, "fire_pick"))
    why = _why_no_fire(state, actor)
    return r(end_activation(state), *((why,) if why else ()))


def _why_no_fire(state: GameState, b: Band) -> str:
    """Why a unit that could have fired does not, for the referee who expected it to."""
    if not b.in_play or b.routed or not b.weapons:
        return ""
    gun = b.support_weapon
    if gun and b.limbered:
        return f"{b.does('is', 'are')} limbered: no fire until a whole move unlimbers it"
    if gun == "machine_gun" and b.jammed_from <= state.turn <= b.jammed_until:
        return f"{b.does('is', 'are')} jammed: no fire this turn"
    if gun in tables.CANNONS and b.figures < tables.CANNON_MIN_CREW:
        return f"{b.name} cannot fire: a cannon needs {tables.CANNON_MIN_CREW} crew"
    if not state.enemies(b.side):
        return f"{b.name}: no enemy in sight to fire at"
    return ""


def _ask_fire_pick(state: GameState) -> AwaitChoice:
    c = state.ctx
    actor = state.band(c.actor)
    targets = unit_choices("target", state.enemies(actor.side))
    return AwaitChoice("Fire at?", (*targets, Choice("hold", "No fire")), c.actor)


def _on_fire_pick(state: GameState, key: str) -> Result:
    c = state.ctx
    if key == "hold":
        return r(end_activation(state), f"{state.band(c.actor).does('does', 'do')} not fire")
    return pick_weapon(
        to(state, "fire_pick", shooter=c.actor, target=key.removeprefix("target:"))
    )


def pick_weapon(state: GameState, *lines: str) -> Result:
    shooter = state.band(state.ctx.shooter)
    weapons = shooter.weapons
    if len(weapons) > 1:
        return r(to(state, "weapon_pick"), *lines)
    return then(_after_weapon(to(state, state.stage, weapon=weapons[0])), *lines)


def _ask_weapon_pick(state: GameState) -> AwaitChoice:
    c = state.ctx
    return AwaitChoice(
        "Which weapon?",
        tuple(Choice(w, tables.display_name(w)) for w in state.band(c.shooter).weapons),
        c.shooter,
    )


def _on_weapon_pick(state: GameState, key: str) -> Result:
    s = state.stage
    return _after_weapon(to(state, s, weapon=key))


def _after_weapon(state: GameState) -> Result:
    c = state.ctx
    if c.defensive:
        if c.weapon in tables.CANNONS:
            return r(to(state, "cannon_roll", range_band="short", cover=False, grapeshot=True))
        return r(to(state, "fire_roll", range_band="short", cover=False))
    return r(to(state, "fire_range"))


def _ask_fire_range(state: GameState) -> AwaitChoice:
    c = state.ctx
    row = tables.weapon_row(c.weapon)
    return AwaitChoice(
        "Range?",
        (
            Choice("short", f'Short, up to {row.short_inches}"'),
            Choice("long", f'Long, up to {row.long_inches}"'),
            Choice("out", "Out of range"),
        ),
        c.shooter,
    )


def _on_fire_range(state: GameState, key: str) -> Result:
    c = state.ctx
    if key == "out":
        out = state.band(c.target).does("is", "are")
        return r(end_activation(state), f"{out} out of range: no fire")
    return r(to(state, "fire_cover", range_band=key))



def _on_fire_cover(state: GameState, key: str) -> Result:
    c = state.ctx
    s = state.stage
    yes = key == "yes"
    state = to(state, s, cover=yes)
    if c.weapon in tables.CANNONS:
        return r(to(state, "grapeshot" if c.range_band == "short" else "cannon_roll"))
    if state.band(c.target).support_weapon:
        return r(to(state, "crew_near"))
    return r(to(state, "fire_roll"))


def _ask_fire_roll(state: GameState) -> tuple[Action, Params]:
    c = state.ctx
    b = state.band(c.shooter)
    return FIRE, FIRE.complete_params(
        {
            "weapon": c.weapon,
            "figures": min(40, b.figures),
            "range": c.range_band,
            "target_in_cover": c.cover,
            "did_not_move": not c.moved and not c.defensive,
            "before_melee": c.defensive,
            "target_mounted": state.band(c.target).kind == "horse",
            "crewed_by": "infantry" if b.infantry_crew else "crew",
        }
    )


def _fired(state: GameState, outcome: Outcome) -> Result:
    c = state.ctx
    shooter = state.band(c.shooter)
    lines = [
        f"{shooter.does('fires', 'fire')} {tables.display_name(c.weapon)} at {c.target}: "
        f"{counted(outcome.headline, 'hit')}"
    ]
    cues: frozenset[str] = frozenset()
    if "jammed" in outcome.effects:
        at_once = state.options.jam_silences_this_turn
        shooter = replace(
            shooter,
            jammed_from=state.turn if at_once else state.turn + 1,
            jammed_until=state.turn + 1,
        )
        state = state.with_band(shooter)
        lines.append(
            f"{shooter.does('jams', 'jam')}: "
            + ("no more fire this turn or next" if at_once else "no fire next turn")
        )
        cues = frozenset({"jam"})
    state, spotted = spot(state, shooter.name)
    lines.extend(spotted)
    if outcome.headline and c.crew_near:
        return r(to(state, "crew_roll", hits=outcome.headline), *lines, cues=cues)
    return then(apply_fire(state, ((c.target, outcome.headline),)), *lines, cues=cues)


def apply_fire(state: GameState, hits: tuple[tuple[str, int], ...], *lines: str) -> Result:
    out = list(lines)
    damaged = []
    for name, count in hits:
        state, said = lose_figures(state, name, count)
        out.extend(said)
        if said:
            damaged.append(name)
    c = state.ctx
    if c.crew_hits and state.band(c.target).in_play:
        damaged.insert(0, c.target)
    result = after_fire(state, tuple(dict.fromkeys(damaged)))
    cues = frozenset({"death"}) if damaged else frozenset()
    return then(result, *out, cues=cues)


def after_fire(state: GameState, damaged: tuple[str, ...], *lines: str) -> Result:
    c = state.ctx
    if c.defensive:
        state = to(state, "att_morale_roll", defensive=False, shooter="", hits=0, crew_hits=0)
        attacker = state.band(c.attacker)
        if not attacker.in_play:
            never = attacker.does("never reaches", "never reach")
            return r(end_activation(state), *lines, f"{never} the enemy")
        return r(state, *lines)
    pending = tuple(n for n in damaged if state.band(n).in_play)
    if pending:
        return r(to(state, "morale_position", pending=pending), *lines)
    return r(end_activation(state), *lines)


CHOICES: dict[str, ChoiceStep] = {
    "fire_pick": ChoiceStep(_ask_fire_pick, _on_fire_pick),
    "weapon_pick": ChoiceStep(_ask_weapon_pick, _on_weapon_pick),
    "fire_range": ChoiceStep(_ask_fire_range, _on_fire_range),
    "fire_cover": ChoiceStep(yes_no("Target in cover?", "target"), _on_fire_cover),
}

ROLLS: dict[str, RollStep] = {
    "fire_roll": RollStep(_ask_fire_roll, _fired),
}
