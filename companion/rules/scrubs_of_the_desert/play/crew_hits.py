"""Fire at a support weapon: whether infantry stands within 4" of its crew, how many
others are within 5", the roll that shares the hits between crew and others, and the
unit the others fall on.
"""

from __future__ import annotations

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
from companion.rules.scrubs_of_the_desert.crew_targeting import CREW_TARGETING
from companion.rules.scrubs_of_the_desert.play.losses import lose_figures
from companion.rules.scrubs_of_the_desert.play.shooting import apply_fire
from companion.rules.scrubs_of_the_desert.play.steps import (
    MAX_FIGURES_ASKED,
    ChoiceStep,
    Result,
    RollStep,
    count_choices,
    r,
    to,
)
from companion.rules.scrubs_of_the_desert.state import GameState


def _on_crew_near(state: GameState, key: str) -> Result:
    yes = key == "yes"
    return r(to(state, "crew_count" if yes else "fire_roll", crew_near=yes))


def _ask_crew_count(state: GameState) -> AwaitChoice:
    c = state.ctx
    return AwaitChoice('Others within 5"?', count_choices(MAX_FIGURES_ASKED), c.target)


def _on_crew_count(state: GameState, key: str) -> Result:
    return r(to(state, "fire_roll", crew_others=int(key)))


def _ask_crew_roll(state: GameState) -> tuple[Action, Params]:
    c = state.ctx
    gun = state.band(c.target)
    return CREW_TARGETING, CREW_TARGETING.complete_params(
        {
            "hits": min(40, c.hits),
            "crew": min(12, gun.figures),
            "others": c.crew_others,
            "double_zero": state.options.double_zero,
        }
    )


def _on_crew_roll(state: GameState, outcome: Outcome) -> Result:
    c = state.ctx
    crew_hits = outcome.headline
    others = c.hits - crew_hits
    fall = "falls" if crew_hits == 1 else "fall"
    line = f"{crew_hits} of {counted(c.hits, 'hit')} {fall} on the crew of {c.target}"
    if others:
        state = to(state, "crew_others", hits=others, crew_hits=crew_hits)
        state, said = lose_figures(state, c.target, crew_hits)
        cues = frozenset({"death"}) if crew_hits else frozenset()
        return r(state, line, *said, cues=cues)
    return apply_fire(state, ((c.target, crew_hits),), line)


def _ask_crew_others(state: GameState) -> AwaitChoice:
    c = state.ctx
    gun = state.band(c.target)
    near = [b for b in state.bands if b.side == gun.side and b.in_play and b.kind != "gun"]
    return AwaitChoice(
        "Other hits on?", (*unit_choices("unit", near), Choice("none", "No one")), c.target
    )


def _on_crew_others(state: GameState, key: str) -> Result:
    c = state.ctx
    if key == "none":
        return apply_fire(
            state, (), f"{counted(c.hits, 'hit falls', 'hits fall')} on no one else"
        )
    name = key.removeprefix("unit:")
    return apply_fire(state, ((name, c.hits),))


CHOICES: dict[str, ChoiceStep] = {
    "crew_near": ChoiceStep(yes_no('Infantry within 4"?', "target"), _on_crew_near),
    "crew_count": ChoiceStep(_ask_crew_count, _on_crew_count),
    "crew_others": ChoiceStep(_ask_crew_others, _on_crew_others),
}

ROLLS: dict[str, RollStep] = {
    "crew_roll": RollStep(_ask_crew_roll, _on_crew_roll),
}
