"""The melee phase, one contact at a time: the fight set up (who fights, officers,
martinets, the +2 advantage), each round's pairs, men routed threefold, a commanding
officer captured, the end of the fight with its victory points, and the martinets
diced for after it.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.core import AwaitChoice, Choice, Outcome, counted
from companion.rules.fighting_swashbucklers import actions, melee, tables
from companion.rules.fighting_swashbucklers.play.squads import leader
from companion.rules.fighting_swashbucklers.play.steps import (
    ChoiceStep,
    Out,
    PhaseStep,
    Roll,
    RollStep,
    d10_reading,
    opt_int,
    opt_str,
    picked,
    zero,
)
from companion.rules.fighting_swashbucklers.state import (
    FightState,
    GameState,
    OfficerState,
    SideState,
    SquadState,
    Stage,
)
from companion.rules.grammar import agree

# ----------------------------------------------------------------- the phase


def _melee_phase(s: GameState, out: Out) -> GameState:
    if s.martinet_queue:
        name, won = s.martinet_queue[0]
        return s.at(stage=Stage("martinet_roll", target=name, number=int(won)))
    if s.fight is not None:
        return s.at(stage=Stage("melee_roll"))
    if s.melee_index < len(s.melees):
        m = s.melees[s.melee_index]
        breaks_off = opt_str(s, "loser_in_later_melee") == "breaks_off"
        why = ""
        for name in (m.attacker, m.defender):
            if not s.unit(name).on_table:
                why = why or agree(name, "is", "are") + " gone"
            elif breaks_off and name in s.withdrawn:
                why = why or agree(name, "has", "have") + " withdrawn"
        if not why:
            return s.at(stage=Stage("pick_advantage", number=s.melee_index))
        out.log.append(f"{m.attacker} v {m.defender}: no melee, {why}")
        return s.at(melee_index=s.melee_index + 1)
    return s.at(phase="rally")


# ----------------------------------------------------------------- a fight set up


def _fighter(u: SquadState) -> str:
    if u.kind == tables.CAVALRY:
        return "cavalry"
    if u.is_commander:
        return "commander"
    return u.pose


def _fight_params(s: GameState, f: FightState) -> dict[str, int | bool | str]:
    return {
        "pairs": min(f.attacker_fighting, f.defender_fighting),
        "attacker": f.attacker_fighter,
        "attacker_martinet": f.attacker_martinet,
        "attacker_advantage": f.advantage == "attacker",
        "defender": f.defender_fighter,
        "defender_martinet": f.defender_martinet,
        "defender_advantage": f.advantage == "defender",
        "commander_factor": opt_int(s, "commander_factor"),
        **d10_reading(s),
    }


def _ask_advantage(s: GameState) -> AwaitChoice:
    m = s.melees[s.stage.number]
    d = s.unit(m.defender)
    flank = m.facing != "front" and not d.faced
    order = ("attacker", "none", "defender") if flank else ("none", "defender", "attacker")
    labels = {"none": "No advantage", "attacker": "Attacker +2", "defender": "Defender +2"}
    fixed = tuple(Choice(f"adv:{o}", labels[o]) for o in order)
    return AwaitChoice(f"{m.attacker}: who gets +2 v {m.defender}?", fixed, m.attacker)


def _begin_fight(s: GameState, st: Stage, key: str, out: Out) -> GameState:
    advantage = picked(key)
    m = s.melees[st.number]
    a, d = s.unit(m.attacker), s.unit(m.defender)

    fight = FightState(
        attacker=a.name,
        defender=d.name,
        attacker_fighter=_fighter(a),
        defender_fighter=_fighter(d),
        attacker_martinet=leader(s, a, tables.MARTINET) is not None,
        defender_martinet=leader(s, d, tables.MARTINET) is not None,
        advantage=advantage,
        attacker_soldiers=melee.fighting_men(a.men, column=a.formation == tables.COLUMN),
        defender_soldiers=melee.fighting_men(d.men, column=d.formation == tables.COLUMN),
        attacker_officer=leader(s, a, tables.ORDINARY_OFFICER) is not None,
        defender_officer=leader(s, d, tables.ORDINARY_OFFICER) is not None,
    )
    edge = {"attacker": f"+2 to {a.name}", "defender": f"+2 to {d.name}"}.get(
        advantage, "no advantage"
    )
    out.log.append(
        f"melee: {a.name} ({_fighting(s, a, fight.attacker_fighting)}) v "
        f"{d.name} ({_fighting(s, d, fight.defender_fighting)}), {edge}"
    )
    return s.at(fight=fight)


def _fighting(s: GameState, u: SquadState, count: int) -> str:
    """'4 fighting', or '3 fighting, Emir Ali among them' when his officer joins in."""
    officer = leader(s, u, tables.ORDINARY_OFFICER)
    return f"{count} fighting" + (f", {officer.name} among them" if officer else "")


# ----------------------------------------------------------------- the rounds


def _ask_round(s: GameState) -> Roll:
    assert s.fight is not None
    about = f"{s.fight.attacker} v {s.fight.defender}"
    return Roll(actions.MELEE_ROUND, _fight_params(s, s.fight), about)


def _on_round(
    s: GameState, st: Stage, dice: Sequence[int], outcome: Outcome, out: Out
) -> GameState:
    f = s.fight
    assert f is not None
    result = actions.melee_round_result(_fight_params(s, f), dice)
    by_man = opt_str(s, "threefold_rout") == melee.ROUT_BY_MAN
    a_sold, a_off, d_sold, d_off = (
        f.attacker_soldiers,
        f.attacker_officer,
        f.defender_soldiers,
        f.defender_officer,
    )
    a_routed = d_routed = 0
    a_last = d_last = False
    commander_lost = False
    for i, pair in enumerate(result.pairs):
        if pair.winner == melee.ATTACKER:
            d_last = pair.routed
            if f.defender_fighter == "commander":
                commander_lost = True
            if i < f.defender_soldiers:
                d_sold -= 1
                # a commanding officer who loses is captured, not routed
                if pair.routed and by_man and f.defender_fighter != "commander":
                    d_routed += 1
            else:
                d_off = False
        elif pair.winner == melee.DEFENDER:
            a_last = pair.routed
            if i < f.attacker_soldiers:
                a_sold -= 1
                if pair.routed and by_man:
                    a_routed += 1
            else:
                a_off = False
    s = _rout_men(s, f.attacker, a_routed, out)
    s = _rout_men(s, f.defender, d_routed, out)
    f = FightState(
        f.attacker,
        f.defender,
        f.attacker_fighter,
        f.defender_fighter,
        f.attacker_martinet,
        f.defender_martinet,
        f.advantage,
        a_sold,
        d_sold,
        a_off,
        d_off,
        f.attacker_routed + a_routed,
        f.defender_routed + d_routed,
        a_last if a_sold + a_off == 0 else d_last,
        f.rounds + 1,
    )
    out.log.append(
        f"after round {f.rounds}: {counted(f.attacker_fighting, 'man', 'men')} of {f.attacker} "
        f"still fighting, {f.defender_fighting} of {f.defender}"
    )
    if commander_lost:
        return _commander_captured(s.at(fight=f), f, out)
    if f.attacker_fighting == 0 or f.defender_fighting == 0:
        return _end_fight(s.at(fight=f), f, out)
    return s.at(fight=f)


def _rout_men(s: GameState, name: str, beaten: int, out: Out) -> GameState:
    if beaten <= 0:
        return s
    u = s.unit(name)
    beaten = min(beaten, u.men)
    routs = counted(beaten, "man beaten threefold routs", "men beaten threefold rout")
    out.log.append(f"{name}: {routs} from the field")
    out.cues.add("death")
    return s.with_unit(u.with_(men=u.men - beaten, routed=u.routed + beaten))


def _commander_captured(s: GameState, f: FightState, out: Out) -> GameState:
    co = s.unit(f.defender)
    side = s.side(co.side)
    out.cues.add("death")
    out.log.append(f"{co.name} loses a round and is captured!")
    s = s.with_unit(co.with_(captured=True))
    s = s.with_side(SideState(side.name, 0, side.victory_points, True))
    winner = s.unit(f.attacker).side
    if opt_str(s, "captured_commander") == "ends_game":
        return s.at(
            fight=None,
            finished=True,
            winner=winner,
            phase="over",
            ending=f"{co.name} captured: the game is over",
        )
    out.log.append(agree(side.name, "plays", "play") + " on with no Command Points")
    return _end_fight(s, f, out, forced_winner="attacker")


def _end_fight(s: GameState, f: FightState, out: Out, forced_winner: str = "") -> GameState:
    attacker_won = forced_winner == "attacker" if forced_winner else f.defender_fighting == 0
    winner = f.attacker if attacker_won else f.defender
    loser = f.defender if attacker_won else f.attacker
    w, lo = s.unit(winner), s.unit(loser)
    if (
        opt_str(s, "threefold_rout") == melee.ROUT_BY_UNIT
        and f.last_loss_routed
        and lo.men
        and not lo.is_commander
    ):
        out.log.append(f"{loser} beaten threefold: the whole unit routs")
        out.cues.add("death")
        s = s.with_unit(lo.with_(men=0, routed=lo.routed + lo.men))
    elif s.unit(loser).men > 0 and not s.unit(loser).captured:
        out.log.append(agree(loser, "withdraws", "withdraw") + ' 12" in good order')
    side = s.side(w.side)
    s = s.with_side(
        SideState(
            side.name, side.cp, side.victory_points + s.melee_win_points, side.commander_captured
        )
    )
    out.log.append(agree(winner, "wins", "win") + f" the melee: {w.side} +{s.melee_win_points} VP")
    queue = list(s.martinet_queue)
    for name, won in ((f.attacker, attacker_won), (f.defender, not attacker_won)):
        officer = leader(s, s.unit(name), tables.MARTINET)
        if officer is not None:
            queue.append((officer.name, won))
    return s.at(
        fight=None,
        melee_index=s.melee_index + 1,
        martinet_queue=tuple(queue),
        withdrawn=(*s.withdrawn, loser),
    )


# ----------------------------------------------------------------- martinets


def _ask_martinet(s: GameState) -> Roll:
    st = s.stage
    return Roll(actions.MARTINET_FATE, {"won": bool(st.number), **zero(s)}, st.target)


def _on_martinet(
    s: GameState, st: Stage, dice: Sequence[int], outcome: Outcome, out: Out
) -> GameState:
    name, _won = s.martinet_queue[0]
    s = s.at(martinet_queue=s.martinet_queue[1:])
    o = s.officer(name)
    assert o is not None
    if "killed" in outcome.effects:
        out.cues.add("death")
        out.log.append(f"{name}'s men clobber him")
        s = s.with_officer(OfficerState(o.name, o.side, o.kind, False))
    return s


# ----------------------------------------------------------------- what this module answers

PHASES: dict[str, PhaseStep] = {"melee": _melee_phase}

ROLLS: dict[str, RollStep] = {
    "melee_roll": RollStep(_ask_round, _on_round),
    "martinet_roll": RollStep(_ask_martinet, _on_martinet),
}

CHOICES: dict[str, ChoiceStep] = {"pick_advantage": ChoiceStep(_ask_advantage, _begin_fight)}
