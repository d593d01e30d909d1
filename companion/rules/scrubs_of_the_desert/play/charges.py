"""A charge up to its melee: the target, contact, the defender's position and test,
its answer (defensive fire, a counter-charge or standing), and the attacker's test to
close in.
"""

from __future__ import annotations

from companion.rules.core import Action, AwaitChoice, Choice, Outcome, Params, unit_choices, yes_no
from companion.rules.scrubs_of_the_desert.morale import MORALE
from companion.rules.scrubs_of_the_desert.play.melee_bouts import start_bouts
from companion.rules.scrubs_of_the_desert.play.morale_tests import (
    morale_applied,
    morale_params,
    morale_position,
)
from companion.rules.scrubs_of_the_desert.play.shooting import pick_weapon
from companion.rules.scrubs_of_the_desert.play.steps import (
    ChoiceStep,
    Result,
    RollStep,
    r,
    then,
    to,
)
from companion.rules.scrubs_of_the_desert.play.turns import end_activation
from companion.rules.scrubs_of_the_desert.state import GameState


def _ask_charge_target(state: GameState) -> AwaitChoice:
    c = state.ctx
    actor = state.band(c.actor)
    targets = unit_choices("target", state.enemies(actor.side))
    return AwaitChoice("Charge whom?", targets, c.actor)


def _on_charge_target(state: GameState, key: str) -> Result:
    c = state.ctx
    return r(
        to(state, "terrain", target=key.removeprefix("target:"), charging=True),
        f"{state.band(c.actor).does('charges', 'charge')} {key.removeprefix('target:')}",
    )



def _on_contact(state: GameState, key: str) -> Result:
    c = state.ctx
    yes = key == "yes"
    if not yes:
        reach = state.band(c.actor).does("does", "do")
        return r(end_activation(state), f"{reach} not reach {c.target}")
    return r(
        to(state, "def_position", attacker=c.actor, defender=c.target),
        f"{state.band(c.actor).does('contacts', 'contact')} {c.target}: melee sequence",
    )


def _ask_def_position(state: GameState) -> AwaitChoice:
    c = state.ctx
    return AwaitChoice(
        "Defender is?",
        (
            Choice("open", "In the open"),
            Choice("higher", "Higher ground"),
            Choice("building", "In a building"),
            Choice("fort", "In a fort"),
        ),
        c.defender,
    )


def _on_def_position(state: GameState, key: str) -> Result:
    c = state.ctx
    s = state.stage
    state = to(state, s, def_position=key)
    if c.continuing:
        return start_bouts(state)
    return r(to(state, "def_morale_roll"))


def _ask_def_morale_roll(state: GameState) -> tuple[Action, Params]:
    c = state.ctx
    closing = not state.options.charged_unit_can_be_removed
    position = morale_position(c.def_position)
    return MORALE, morale_params(state, c.defender, position, closing)


def _on_def_morale_roll(state: GameState, outcome: Outcome) -> Result:
    c = state.ctx
    state, lines, cues = morale_applied(state, c.defender, outcome)
    if outcome.headline:
        return r(to(state, "def_response"), *lines)
    takes = state.band(c.attacker).does("takes", "take")
    return r(end_activation(state), *lines, f"{takes} the ground", cues=cues)


def _ask_def_response(state: GameState) -> AwaitChoice:
    c = state.ctx
    defender = state.band(c.defender)
    options = []
    if defender.can_fire(state.turn):
        options.append(Choice("fire", "Defensive fire"))
    if defender.kind == "horse":
        options.append(Choice("counter", "Counter-charge"))
    options.append(Choice("none", "Stand"))
    return AwaitChoice("Defender's answer?", tuple(options), c.defender)


def _on_def_response(state: GameState, key: str) -> Result:
    c = state.ctx
    s = state.stage
    if key == "fire":
        return pick_weapon(
            to(state, s, defensive=True, shooter=c.defender, target=c.attacker),
            f"{state.band(c.defender).does('fires', 'fire')} at the chargers",
        )
    if key == "counter":
        left = f", leaving the {c.def_position}" if c.def_position != "open" else ""
        counter = state.band(c.defender).does("counter-charges", "counter-charge")
        return r(to(state, "att_morale_roll", counter=True), f"{counter}{left}")
    waits = state.band(c.defender).does("stands and waits", "stand and wait")
    return r(to(state, "att_morale_roll"), waits)


def _ask_att_morale_roll(state: GameState) -> tuple[Action, Params]:
    c = state.ctx
    return MORALE, morale_params(state, c.attacker, "open", True)


def _on_att_morale_roll(state: GameState, outcome: Outcome) -> Result:
    c = state.ctx
    s = state.stage
    attacker = state.band(c.attacker)
    roll = outcome.details[1].split(":")[0]  # "rolled 23 against 70%"
    if outcome.headline:
        closes = attacker.does("closes in", "close in")
        return then(start_bouts(state), f"{closes}: morale {roll}, holds")
    if c.counter:
        state = to(state, s, att_failed=True)
        return then(
            start_bouts(state),
            f"{attacker.does('falters', 'falter')} (morale {roll}): "
            "the counter-charge strikes with +3",
        )
    state, lines, cues = morale_applied(state, c.attacker, outcome)
    return r(end_activation(state), *lines, "no melee", cues=cues)


CHOICES: dict[str, ChoiceStep] = {
    "charge_target": ChoiceStep(_ask_charge_target, _on_charge_target),
    "contact": ChoiceStep(yes_no("Contact made?", "actor", yes_first=True), _on_contact),
    "def_position": ChoiceStep(_ask_def_position, _on_def_position),
    "def_response": ChoiceStep(_ask_def_response, _on_def_response),
}

ROLLS: dict[str, RollStep] = {
    "def_morale_roll": RollStep(_ask_def_morale_roll, _on_def_morale_roll),
    "att_morale_roll": RollStep(_ask_att_morale_roll, _on_att_morale_roll),
}
