"""Hidden units: a French unit's tries to sight them (when it activates, or before it
moves or charges, by option), each try the range and, past 2", a roll; and a hidden
unit giving itself away when it moves, fires, or throws or climbs a hook.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Action, AwaitChoice, Choice, Outcome, Params, unit_choices
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.play.steps import (
    ChoiceStep,
    Result,
    RollStep,
    r,
    to,
)
from companion.rules.scrubs_of_the_desert.sighting import SIGHTING
from companion.rules.scrubs_of_the_desert.state import Band, GameState


def may_sight(state: GameState, b: Band) -> bool:
    return b.nation == "french" and any(not e.spotted for e in state.enemies(b.side, False))


def spot(state: GameState, name: str) -> tuple[GameState, tuple[str, ...]]:
    b = state.band(name)
    if b.spotted:
        return state, ()
    gives = b.does("gives itself", "give themselves")
    return state.with_band(replace(b, spotted=True)), (f"{gives} away: spotted",)


def _ask_sight_pick(state: GameState) -> AwaitChoice:
    c = state.ctx
    actor = state.band(c.actor)
    hidden = [
        b for b in state.enemies(actor.side, False) if not b.spotted and b.name not in c.tried
    ]
    done = Choice("skip", "None")  # the same words before and after a try
    return AwaitChoice("Try to sight?", (*unit_choices("target", hidden), done), c.actor)


def _on_sight_pick(state: GameState, key: str) -> Result:
    c = state.ctx
    if key == "skip":
        return _after_sighting(state)
    target = key.removeprefix("target:")
    return r(to(state, "sight_range", sight_target=target, tried=(*c.tried, target)))


def _ask_sight_range(state: GameState) -> AwaitChoice:
    c = state.ctx
    return AwaitChoice(
        "Range to it?",
        (
            *(Choice(row.band, row.label) for row in tables.SIGHTING_TABLE),
            Choice("beyond", 'Over 24"'),
        ),
        c.sight_target,
    )


def _on_sight_range(state: GameState, key: str) -> Result:
    c = state.ctx
    if key == "beyond":
        beyond = state.band(c.sight_target).does("is", "are")
        return r(to(state, "sight_pick"), f'{beyond} beyond 24": no sighting')
    if tables.sighting_need(key) == 0:
        b = state.band(c.sight_target)
        return r(
            to(state.with_band(replace(b, spotted=True)), "sight_pick"),
            f'{b.does("is", "are")} within 2": sighted',
        )
    return r(to(state, "sight_roll", band=key))


def _ask_sight_roll(state: GameState) -> tuple[Action, Params]:
    c = state.ctx
    return SIGHTING, SIGHTING.complete_params({"range": c.band})


def _on_sight_roll(state: GameState, outcome: Outcome) -> Result:
    c = state.ctx
    b = state.band(c.sight_target)
    if "sighted" in outcome.effects:
        state = state.with_band(replace(b, spotted=True))
        return r(to(state, "sight_pick"), f"{b.name} sighted ({outcome.details[0]})")
    return r(to(state, "sight_pick"), f"{b.name} not seen ({outcome.details[0]})")


def _after_sighting(state: GameState) -> Result:
    """Back to the order, or on with the move or charge that sighting came before."""
    order = state.ctx.order
    if order == "move":
        return r(to(state, "terrain"))
    if order == "charge":
        return r(to(state, "charge_target"))
    return r(to(state, "order"))


CHOICES: dict[str, ChoiceStep] = {
    "sight_pick": ChoiceStep(_ask_sight_pick, _on_sight_pick),
    "sight_range": ChoiceStep(_ask_sight_range, _on_sight_range),
}

ROLLS: dict[str, RollStep] = {
    "sight_roll": RollStep(_ask_sight_roll, _on_sight_roll),
}
