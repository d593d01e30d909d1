"""Grappling hooks on a fort's wall: the throw (harder with defenders near), up to
three climbers a turn, and a French unit attacking a hook's climbers (bouts fought from
the fort).
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import (
    YES_FIRST,
    Action,
    AwaitChoice,
    Choice,
    Outcome,
    Params,
    unit_choices,
)
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.grappling import HOOK_CLIMB, HOOK_THROW
from companion.rules.scrubs_of_the_desert.melee import pair_figures
from companion.rules.scrubs_of_the_desert.play.steps import (
    ChoiceStep,
    Result,
    RollStep,
    r,
    to,
)
from companion.rules.scrubs_of_the_desert.play.turns import end_activation
from companion.rules.scrubs_of_the_desert.state import GameState


def _ask_hook_defenders(state: GameState) -> AwaitChoice:
    c = state.ctx
    most = tables.HOOK_MAX_DEFENDERS_COUNTED
    return AwaitChoice(
        'Defenders within 1"?',
        tuple(Choice(str(n), str(n) if n < most else f"{n} or more") for n in range(most + 1)),
        c.actor,
    )


def _on_hook_defenders(state: GameState, key: str) -> Result:
    defenders = int(key)
    state = to(state, "hook_throw_roll", hook_defenders=defenders)
    if not defenders:
        return r(state)
    return r(state, f"the {defenders} defending the hook do nothing else this turn")


def _ask_hook_throw_roll(state: GameState) -> tuple[Action, Params]:
    c = state.ctx
    return HOOK_THROW, HOOK_THROW.complete_params({"defenders": c.hook_defenders})


def _on_hook_throw_roll(state: GameState, outcome: Outcome) -> Result:
    c = state.ctx
    b = state.band(c.actor)
    roll = outcome.details[0].split(":")[0]  # "rolled 6 - 1 for defenders ... = 5, needing 4+"
    if "hooked" in outcome.effects:
        state = state.with_band(replace(b, hook_up=True))
        held = f"{b.name}'s hook holds ({roll})"
        if state.options.hook_thrower_is_first_climber:
            return climbed(state, 1, held, "the thrower scales the wall")
        return climbed(
            state, 1, held, "the thrower scales the wall and the free climber follows", up=2
        )
    return r(end_activation(state), f"{b.name}'s hook falls back ({roll})")


def _ask_climb_more(state: GameState) -> AwaitChoice:
    c = state.ctx
    return AwaitChoice(f"Climber {c.climber + 1}?", YES_FIRST, c.actor)


def _on_climb_more(state: GameState, key: str) -> Result:
    yes = key == "yes"
    if yes:
        return r(to(state, "climb_roll"))
    return r(end_activation(state))


def _ask_climb_roll(state: GameState) -> tuple[Action, Params]:
    c = state.ctx
    return HOOK_CLIMB, HOOK_CLIMB.complete_params(
        {"climber": "second" if c.climber + 1 == 2 else "third"}
    )


def _on_climb_roll(state: GameState, outcome: Outcome) -> Result:
    c = state.ctx
    climb = f"{c.actor}'s {outcome.details[0]}"  # "...'s second climber rolled 6 ..."
    if "climbed" in outcome.effects:
        return climbed(state, c.climber + 1, climb)
    return r(end_activation(state), climb)


def climbed(state: GameState, nth: int, *lines: str, up: int = 1) -> Result:
    """`up` more figures over the wall; `nth` climbers have used the hook this turn."""
    b = state.band(state.ctx.actor)
    b = replace(b, over_wall=min(b.figures, b.over_wall + up))
    state = to(state.with_band(b), "climb_more", climber=nth)
    lines = (*lines, f"{b.name}: {b.over_wall} over the wall")
    if nth >= 3 or b.over_wall >= b.figures:
        return r(end_activation(state), *lines)
    return r(state, *lines)


def _ask_hook_target(state: GameState) -> AwaitChoice:
    c = state.ctx
    actor = state.band(c.actor)
    hooks = [
        a
        for a in state.bands
        if a.side != actor.side and a.hook_up and a.over_wall and a.in_play
    ]
    return AwaitChoice("Which hook?", unit_choices("unit", hooks), c.actor)


def _on_hook_target(state: GameState, key: str) -> Result:
    c = state.ctx
    arab = state.band(key.removeprefix("unit:"))
    french = state.band(c.actor)
    bouts = pair_figures(
        min(tables.HOOK_MAX_FRENCH_ATTACKERS, french.figures),
        min(tables.HOOK_MAX_ARAB_DEFENDERS, arab.over_wall),
    )
    state = to(
        state,
        "bout_roll",
        attacker=french.name,
        defender=arab.name,
        hook_fight=True,
        def_position="open",
        bouts=tuple((b.attackers, b.defenders) for b in bouts),
        bout_index=0,
    )
    return r(state, f"{french.does('attacks', 'attack')} the hook of {arab.name}")


CHOICES: dict[str, ChoiceStep] = {
    "hook_defenders": ChoiceStep(_ask_hook_defenders, _on_hook_defenders),
    "climb_more": ChoiceStep(_ask_climb_more, _on_climb_more),
    "hook_target": ChoiceStep(_ask_hook_target, _on_hook_target),
}

ROLLS: dict[str, RollStep] = {
    "hook_throw_roll": RollStep(_ask_hook_throw_roll, _on_hook_throw_roll),
    "climb_roll": RollStep(_ask_climb_roll, _on_climb_roll),
}
