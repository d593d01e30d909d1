"""Charges into contact: the facing hit, the stress tests it calls for, and the
defender's fire at a provoked cavalry advance. The melee itself is fought later in the
turn (`melees`).
"""

from __future__ import annotations

from companion.rules.core import AwaitChoice, Choice
from companion.rules.fighting_swashbucklers import tables
from companion.rules.fighting_swashbucklers.play.orders import action_done
from companion.rules.fighting_swashbucklers.play.shooting import start_fire
from companion.rules.fighting_swashbucklers.play.squads import can_ever_fire, can_fire_now
from companion.rules.fighting_swashbucklers.play.steps import ChoiceStep, Out, opt_str, picked
from companion.rules.fighting_swashbucklers.state import GameState, MeleeState, Stage
from companion.rules.grammar import agree

FACINGS: tuple[str, ...] = ("front", "flank", "rear")


def _ask_facing(s: GameState) -> AwaitChoice:
    st = s.stage
    fixed = tuple(Choice(f"face:{f}", f"{f.capitalize()} of target") for f in FACINGS)
    return AwaitChoice(f"Hits {st.target} in?", fixed, st.unit)


def _on_facing(s: GameState, st: Stage, key: str, out: Out) -> GameState:
    return contact(s, st.unit, st.target, picked(key), st.purpose, out)


def contact(
    s: GameState, attacker: str, defender: str, facing: str, purpose: str, out: Out
) -> GameState:
    a, d = s.unit(attacker), s.unit(defender)
    out.log.append(agree(attacker, "contacts", "contact") + f" {defender} in the {facing}")
    s = s.at(melees=(*s.melees, MeleeState(attacker, defender, facing, purpose == "advance")))
    if not d.is_commander and facing != "front":
        out.log.append(agree(defender, "is", "are") + f" charged in the {facing}: stress test")
        s = s.with_unit(d.with_(stress=True))
    elif a.kind == tables.CAVALRY and d.kind in tables.FOOT_KINDS and facing == "front":
        stressed = attacker if opt_str(s, "frontal_cavalry_stress") == "cavalry" else defender
        out.log.append(f"cavalry charging infantry head-on: {stressed} tests at half ML")
        s = s.with_unit(s.unit(stressed).with_(stress=True))
    if purpose == "charge":
        return action_done(s, attacker, halted=True)  # in contact: no more orders
    # a provoked cavalry advance: the defender gets another defensive fire
    d = s.unit(defender)
    if (
        can_ever_fire(s, d)
        and not can_fire_now(s, d)
        and opt_str(s, "column_defensive_fire") == "deploys"
    ):
        # only a foot column gets here; the chart's units deploy if they must to fire
        out.log.append(agree(defender, "deploys", "deploy") + " into line to fire")
        s = s.with_unit(d.with_(formation=tables.LINE))
        d = s.unit(defender)
    if can_fire_now(s, d):
        return start_fire(s, defender, attacker, "defensive", out)
    out.log.append(f"{defender} cannot fire defensively")
    return s


# ----------------------------------------------------------------- what this module answers

CHOICES: dict[str, ChoiceStep] = {"pick_facing": ChoiceStep(_ask_facing, _on_facing)}
