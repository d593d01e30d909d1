"""Infantry manning an abandoned machine gun: which gun, how many crew, whether they
reach it this move, and the new crew taking the gun over (a whole action setting up
first, by option).
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import AwaitChoice, unit_choices, yes_no
from companion.rules.scrubs_of_the_desert.play.steps import (
    ChoiceStep,
    Result,
    count_choices,
    r,
    to,
)
from companion.rules.scrubs_of_the_desert.play.turns import end_activation
from companion.rules.scrubs_of_the_desert.state import GameState


def _ask_gun_pick(state: GameState) -> AwaitChoice:
    c = state.ctx
    actor = state.band(c.actor)
    guns = [g for g in state.bands if g.side == actor.side and g.abandoned]
    return AwaitChoice("Which gun?", unit_choices("unit", guns), c.actor)


def _on_gun_pick(state: GameState, key: str) -> Result:
    return r(to(state, "gun_crew", target=key.removeprefix("unit:")))


def _ask_gun_crew(state: GameState) -> AwaitChoice:
    c = state.ctx
    actor = state.band(c.actor)
    gun = state.band(c.target)
    return AwaitChoice("How many crew?", count_choices(min(gun.start, actor.figures)), c.actor)


def _on_gun_crew(state: GameState, key: str) -> Result:
    c = state.ctx
    return r(
        to(state, "terrain", crew=int(key), manning=True),
        f"{key} of {c.actor} {'makes' if key == '1' else 'make'} for {c.target}",
    )



def _on_reached_gun(state: GameState, key: str) -> Result:
    c = state.ctx
    yes = key == "yes"
    if yes:
        return _man_gun(state)
    reach = f"{c.crew} of {c.actor} {'does' if c.crew == 1 else 'do'} not reach"
    return r(end_activation(state), f"{reach} {c.target} this time")


def _man_gun(state: GameState) -> Result:
    """The figures leave their unit (not as losses) and become the gun's crew, which tests
    morale as a unit of that size; the gun is done for this turn."""
    c = state.ctx
    foot = state.band(c.actor)
    gun = state.band(c.target)
    crew = min(c.crew, foot.figures)
    state = state.with_band(
        replace(foot, figures=foot.figures - crew, detached=foot.detached + crew)
    )
    setting_up = state.options.gun_crew_setup_action
    state = state.with_band(
        replace(
            gun,
            figures=crew,
            size=crew,
            detached=0,
            loss_per_figure=0,
            infantry_crew=True,
            setting_up=setting_up,
            activated=True,
            routed=False,
            base_morale=foot.base_morale,
        )
    )
    then = (
        "its next activation is a full action setting up, then it fires"
        if setting_up
        else "it fires from its next activation"
    )
    man = "mans" if crew == 1 else "man"
    return r(
        end_activation(state), f"{crew} of {foot.name} {man} {gun.name}: {then}, one die a man"
    )


CHOICES: dict[str, ChoiceStep] = {
    "gun_pick": ChoiceStep(_ask_gun_pick, _on_gun_pick),
    "gun_crew": ChoiceStep(_ask_gun_crew, _on_gun_crew),
    "reached_gun": ChoiceStep(yes_no("Reached the gun?", "actor", yes_first=True), _on_reached_gun),
}
