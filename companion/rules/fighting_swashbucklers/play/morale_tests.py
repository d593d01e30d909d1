"""The morale phase: the squads due a test taken one at a time, a good leader's help
and its risk, the test's result (holding, routing men, a halted charge) and what a
provoked squad must do: infantry fire, cavalry advance, either turning to face a flank
charge.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.core import AwaitChoice, Choice, Outcome, counted
from companion.rules.fighting_swashbucklers import actions, command, morale, tables
from companion.rules.fighting_swashbucklers.play.shooting import start_fire
from companion.rules.fighting_swashbucklers.play.squads import (
    can_ever_fire,
    charge_targets,
    fire_targets,
    leader,
    next_test,
)
from companion.rules.fighting_swashbucklers.play.steps import (
    ChoiceStep,
    Out,
    PhaseStep,
    Roll,
    RollStep,
    opt_str,
    picked,
    zero,
)
from companion.rules.fighting_swashbucklers.state import (
    GameState,
    OfficerState,
    SquadState,
    Stage,
)
from companion.rules.grammar import agree, plural_name

# ----------------------------------------------------------------- the phase


def _morale_phase(s: GameState, out: Out) -> GameState:
    u = next_test(s)
    if u is not None:
        if leader(s, u, tables.GOOD_LEADER) is not None:
            return s.at(stage=Stage("leader_help", u.name))
        return s.at(stage=Stage("morale_roll", u.name))
    return s.at(phase="melee", melee_index=0)


# ----------------------------------------------------------------- a good leader's help

# A good leader may lend any number of points. Fifty-one entries are too many to step
# through with UP/DOWN, so the referee picks a band of ten, then the number in it.
_HELP_BANDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(max(1, 10 * t), min(10 * t + 9, tables.GOOD_LEADER_MAX_POINTS) + 1))
    for t in range(tables.GOOD_LEADER_MAX_POINTS // 10 + 1)
)


def _help_choice(points: int) -> Choice:
    return Choice(f"help:{points}", f"Lend {points}: risk {command.good_leader_risk(points)}%")


def _ask_help(s: GameState) -> AwaitChoice:
    u = s.unit(s.stage.unit)
    opts = [Choice("help:0", "No help")]
    for band, lendable in enumerate(_HELP_BANDS):
        if len(lendable) == 1:
            opts.append(_help_choice(lendable[0]))
        else:
            opts.append(Choice(f"band:{band}", f"Lend {lendable[0]}-{lendable[-1]}"))
    return AwaitChoice(f"{u.name}: help from {u.leader}?", tuple(opts), u.name)


def _ask_points(s: GameState) -> AwaitChoice:
    u = s.unit(s.stage.unit)
    opts = [_help_choice(p) for p in _HELP_BANDS[s.stage.number]]
    opts.append(Choice("back", "Back"))
    return AwaitChoice(f"{u.leader} lends?", tuple(opts), u.name)


def _on_help(s: GameState, st: Stage, key: str, out: Out) -> GameState:
    """Either question's answer: a band of points to pick from, back to the bands, or
    the points lent (none for "No help")."""
    if key.startswith("band:"):
        return s.at(stage=Stage("leader_points", st.unit, number=int(picked(key))))
    if key == "back":
        return s.at(stage=Stage("leader_help", st.unit))
    return s.at(stage=Stage("morale_roll", st.unit, number=int(picked(key))))


def _ask_risk(s: GameState) -> Roll:
    st = s.stage
    return Roll(actions.GOOD_LEADER_RISK, {"points": st.number, **zero(s)}, st.target)


def _on_risk(
    s: GameState, st: Stage, dice: Sequence[int], outcome: Outcome, out: Out
) -> GameState:
    o = s.officer(st.target)
    assert o is not None
    if "killed" in outcome.effects:
        out.cues.add("death")
        out.log.append(f"{o.name} is killed")
        s = s.with_officer(OfficerState(o.name, o.side, o.kind, False))
    if st.purpose:
        return _when_provoked(s, st.unit, st.purpose == "provoked_stress", out)
    return s


# ----------------------------------------------------------------- the test


def _ask_test(s: GameState) -> Roll:
    u = s.unit(s.stage.unit)
    return Roll(actions.MORALE_TEST, _morale_params(s, u, s.stage.number), u.name)


def _morale_params(s: GameState, u: SquadState, points: int) -> dict[str, int | bool | str]:
    return {
        "men": u.men,
        "markers": min(u.markers, 40),
        "stress": u.stress,
        "leader_points": points,
        "kind": tables.CAVALRY if u.kind == tables.CAVALRY else tables.INFANTRY,
        **zero(s),
    }


def _on_test(
    s: GameState, st: Stage, dice: Sequence[int], outcome: Outcome, out: Out
) -> GameState:
    name, points = st.unit, st.number
    u = s.unit(name)
    stressed = u.stress
    level = morale.morale_level(u.men, min(u.markers, 40), stress=u.stress, leader_points=points)
    roll_effects = outcome.effects
    u = u.with_(test_due=False, stress=False)
    if opt_str(s, "marker_duration") == "until_tested":
        u = u.with_(markers=0)  # the ML drop lasted for this one test
    provoked = "provoked" in roll_effects
    if "routed" in roll_effects:
        losses = outcome.headline
        out.cues.add("resolve_failed")
        again = opt_str(s, "failure_markers") == "test_again"
        u = u.with_(
            men=u.men - losses,
            routed=u.routed + losses,
            markers=u.markers + losses,
            test_due=again and u.men - losses > 0,
        )
        routs = counted(losses, "man routs", "men rout")
        out.log.append(agree(name, "fails", "fail") + f" (ML {level}): {routs}, {u.men} left")
        s = s.with_unit(u)
        charging = [m for m in s.melees if m.attacker == name]
        if stressed and charging and opt_str(s, "failed_charge") == "halts":
            out.log.append(f"{name}'s charge is halted")
            s = s.at(melees=tuple(m for m in s.melees if m.attacker != name))
    else:
        s = s.with_unit(u)
        out.log.append(f"{name} {'is provoked' if provoked else 'holds'} (ML {level})")
    purpose = ("provoked_stress" if stressed else "provoked") if provoked else ""
    if points > 0:
        officer = u.leader
        return s.at(stage=Stage("leader_risk", name, officer, purpose, points))
    if provoked:
        return _when_provoked(s, name, stressed, out)
    return s


def _when_provoked(s: GameState, name: str, stressed: bool, out: Out) -> GameState:
    u = s.unit(name)
    if not u.on_table:
        return s
    flank = next(
        (m for m in s.melees if m.defender == name and m.facing != "front" and stressed), None
    )
    if u.kind == tables.CAVALRY:
        charging = any(m.attacker == name for m in s.melees)
        if u.formation == tables.COLUMN and not charging and (flank or charge_targets(s, u)):
            # provoked troops deploy if they must to advance (a column melees with one man)
            out.log.append(agree(name, "deploys", "deploy") + " into line to advance")
            u = u.with_(formation=tables.LINE)
            s = s.with_unit(u)
        if flank is not None:
            out.log.append(
                agree(name, "advances and turns", "advance and turn") + f" to face {flank.attacker}"
            )
            return s.with_unit(u.with_(faced=True))
        if charging:
            out.log.append(agree(name, "is", "are") + " already charging home")
            return s
        if not charge_targets(s, u):
            return s
        out.log.append(f"{name} must advance")
        return s.at(stage=Stage("pick_target", name, purpose="advance"))
    if not can_ever_fire(s, u):
        return s
    if u.formation == tables.COLUMN:
        out.log.append(agree(name, "deploys", "deploy") + " into line to fire")
        u = u.with_(formation=tables.LINE)
        s = s.with_unit(u)
    if flank is not None and s.unit(flank.attacker).on_table:
        out.log.append(
            agree(name, "turns", "turn")
            + f" to face {flank.attacker} and "
            + ("fire" if plural_name(name) else "fires")
        )
        s = s.with_unit(u.with_(faced=True))
        return start_fire(s, name, flank.attacker, "provoked", out)
    if not fire_targets(s, u):
        return s
    out.log.append(f"{name} must fire")
    return s.at(stage=Stage("pick_target", name, purpose="provoked"))


# ----------------------------------------------------------------- what this module answers

PHASES: dict[str, PhaseStep] = {"morale": _morale_phase}

ROLLS: dict[str, RollStep] = {
    "morale_roll": RollStep(_ask_test, _on_test),
    "leader_risk": RollStep(_ask_risk, _on_risk),
}

CHOICES: dict[str, ChoiceStep] = {
    "leader_help": ChoiceStep(_ask_help, _on_help),
    "leader_points": ChoiceStep(_ask_points, _on_help),
}
