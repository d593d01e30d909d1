"""Cannon fire: grapeshot under 6", the roll to hit, and the 3" blast: the figures
under it, of the target and of any other unit, friend or foe, each unit rolled for in
turn.
"""

from __future__ import annotations

from companion.rules.core import Action, AwaitChoice, Choice, Outcome, Params, unit_choices, yes_no
from companion.rules.scrubs_of_the_desert.cannon import CANNON_BLAST, CANNON_TO_HIT
from companion.rules.scrubs_of_the_desert.play.shooting import after_fire, apply_fire
from companion.rules.scrubs_of_the_desert.play.spotting import spot
from companion.rules.scrubs_of_the_desert.play.steps import (
    MAX_FIGURES_ASKED,
    ChoiceStep,
    Result,
    RollStep,
    count_choices,
    r,
    then,
    to,
)
from companion.rules.scrubs_of_the_desert.state import Band, GameState


def _on_grapeshot(state: GameState, key: str) -> Result:
    yes = key == "yes"
    return r(to(state, "cannon_roll", grapeshot=yes))


def _ask_cannon_roll(state: GameState) -> tuple[Action, Params]:
    c = state.ctx
    b = state.band(c.shooter)
    return CANNON_TO_HIT, CANNON_TO_HIT.complete_params(
        {
            "cannon": c.weapon,
            "crew": min(12, b.figures),
            "range": c.range_band,
            "target_in_cover": c.cover,
            "grapeshot": c.grapeshot,
        }
    )


def _on_cannon_roll(state: GameState, outcome: Outcome) -> Result:
    c = state.ctx
    state, spotted = spot(state, c.shooter)
    if "hit" in outcome.effects:
        return r(
            to(state, "blast_count"),
            f"{c.shooter}'s cannon hits: place the 3\" blast",
            *spotted,
        )
    return then(after_fire(state, (), f"{c.shooter}'s cannon misses"), *spotted)


def _ask_blast_count(state: GameState) -> AwaitChoice:
    c = state.ctx
    target = state.band(c.target)
    most = min(MAX_FIGURES_ASKED, target.figures)
    return AwaitChoice("Figures in blast?", count_choices(most), c.target)


def _on_blast_count(state: GameState, key: str) -> Result:
    c = state.ctx
    state = to(state, "blast_others", blast=((c.target, int(key)),), blast_kills=())
    return r(state if _blast_candidates(state) else to(state, "blast_roll"))


def _ask_blast_others(state: GameState) -> AwaitChoice:
    c = state.ctx
    # the template kills whatever stands under it, friend or foe (seed: "per figure
    # in target area"), so the referee names every other unit it covers
    return AwaitChoice(
        "Others under blast?",
        (*unit_choices("unit", _blast_candidates(state)), Choice("none", "No one else")),
        c.target,
    )


def _on_blast_others(state: GameState, key: str) -> Result:
    if key == "none":
        return r(to(state, "blast_roll"))
    return r(to(state, "blast_other_count", blast_unit=key.removeprefix("unit:")))


def _ask_blast_other_count(state: GameState) -> AwaitChoice:
    c = state.ctx
    most = min(MAX_FIGURES_ASKED, state.band(c.blast_unit).figures)
    return AwaitChoice("Figures in blast?", count_choices(most), c.blast_unit)


def _on_blast_other_count(state: GameState, key: str) -> Result:
    c = state.ctx
    state = to(state, "blast_others", blast=(*c.blast, (c.blast_unit, int(key))))
    return r(state if _blast_candidates(state) else to(state, "blast_roll"))


def _ask_blast_roll(state: GameState) -> tuple[Action, Params]:
    c = state.ctx
    _, figures = c.blast[len(c.blast_kills)]
    return CANNON_BLAST, CANNON_BLAST.complete_params(
        {"figures": figures, "target_in_cover": c.cover and state.options.blast_cover_modifier}
    )


def _on_blast_roll(state: GameState, outcome: Outcome) -> Result:
    c = state.ctx
    kills = (*c.blast_kills, outcome.headline)
    name = c.blast[len(kills) - 1][0]
    line = f"the blast kills {outcome.headline}" + (f" of {name}" if len(c.blast) > 1 else "")
    if len(kills) < len(c.blast):
        return r(to(state, "blast_roll", blast_kills=kills), line)
    hits = tuple((unit, k) for (unit, _), k in zip(c.blast, kills, strict=True))
    return apply_fire(state, hits, line)


def _blast_candidates(state: GameState) -> tuple[Band, ...]:
    """Units on the table, of either side, the blast could also cover: not yet counted."""
    counted_already = {name for name, _ in state.ctx.blast}
    return tuple(
        b for b in state.bands if b.in_play and b.figures and b.name not in counted_already
    )


CHOICES: dict[str, ChoiceStep] = {
    "grapeshot": ChoiceStep(yes_no('Under 6"?', "target"), _on_grapeshot),
    "blast_count": ChoiceStep(_ask_blast_count, _on_blast_count),
    "blast_others": ChoiceStep(_ask_blast_others, _on_blast_others),
    "blast_other_count": ChoiceStep(_ask_blast_other_count, _on_blast_other_count),
}

ROLLS: dict[str, RollStep] = {
    "cannon_roll": RollStep(_ask_cannon_roll, _on_cannon_roll),
    "blast_roll": RollStep(_ask_blast_roll, _on_blast_roll),
}
