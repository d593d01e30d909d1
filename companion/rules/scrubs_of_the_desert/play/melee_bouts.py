"""A melee fought out: figures paired into bouts, each bout rolled, the dead taken off,
ties locking the units together, and the morale test of the side that lost more.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Action, Outcome, Params, counted
from companion.rules.scrubs_of_the_desert.melee import (
    ATTACKER_WINS,
    DEFENDER_WINS,
    LOCKED,
    MELEE_BOUT,
    pair_figures,
)
from companion.rules.scrubs_of_the_desert.morale import MORALE
from companion.rules.scrubs_of_the_desert.play.losses import lose_figures, unlock
from companion.rules.scrubs_of_the_desert.play.morale_tests import (
    morale_applied,
    morale_params,
    morale_position,
)
from companion.rules.scrubs_of_the_desert.play.steps import (
    Result,
    RollStep,
    r,
    then,
    to,
)
from companion.rules.scrubs_of_the_desert.play.turns import end_activation
from companion.rules.scrubs_of_the_desert.state import GameState


def start_bouts(state: GameState) -> Result:
    c = state.ctx
    att = state.band(c.attacker)
    dfn = state.band(c.defender)
    bouts = pair_figures(att.figures if att.in_play else 0, dfn.figures if dfn.in_play else 0)
    if not bouts:
        return r(end_activation(state), "no one left to fight")
    state = to(
        state,
        "bout_roll",
        bouts=tuple((b.attackers, b.defenders) for b in bouts),
        bout_index=0,
        attackers_killed=0,
        defenders_killed=0,
        locked=0,
    )
    doubles = sum(1 for b in bouts if b.attackers + b.defenders == 3)
    line = f"melee: {counted(len(bouts), 'bout')}"
    if doubles:
        line += ", all" if doubles == len(bouts) else f", {doubles} of them"
        line += " two against one"
    return r(state, line)


def _ask_bout_roll(state: GameState) -> tuple[Action, Params]:
    return MELEE_BOUT, _bout_params(state)


def _bout_params(state: GameState) -> Params:
    c = state.ctx
    attackers, defenders = c.bouts[c.bout_index]
    att = state.band(c.attacker)
    dfn = state.band(c.defender)
    first = c.bout_index == 0
    charging = not c.continuing and not c.hook_fight
    bonus_always = state.options.counter_charge_bonus == "always"
    return MELEE_BOUT.complete_params(
        {
            "attackers": attackers,
            "defenders": defenders,
            "arab_charging": charging and att.nation == "arab",
            "cavalry_charging": charging and att.kind == "horse",
            "attacker_leader": first and bool(att.leader) and not c.hook_fight,
            "defender_position": "open" if c.counter else c.def_position,
            "defender_leader": first and bool(dfn.leader) and not c.hook_fight,
            "counter_charging": c.counter,
            "counter_arabs": c.counter and dfn.nation == "arab",
            "counter_bonus": c.counter and (c.att_failed or bonus_always),
            "per_figure": state.options.melee_modifiers_per_figure,
        }
    )


def _bout_fought(state: GameState, outcome: Outcome) -> Result:
    c = state.ctx
    a_k, d_k, locked = c.attackers_killed, c.defenders_killed, c.locked
    if outcome.headline == ATTACKER_WINS:
        d_k += 1
    elif outcome.headline == DEFENDER_WINS:
        a_k += 1
    else:
        assert outcome.headline == LOCKED
        locked += 1
    line = f"bout {c.bout_index + 1}: " + _bout_words(state, outcome.headline)
    state = to(
        state,
        "bout_roll",
        attackers_killed=a_k,
        defenders_killed=d_k,
        locked=locked,
        bout_index=c.bout_index + 1,
    )
    if c.bout_index + 1 < len(c.bouts):
        return r(state, line)
    return then(_melee_over(state), line)


def _bout_words(state: GameState, result: int) -> str:
    """Who won the bout and whose figure the referee takes off, by name."""
    c = state.ctx
    if result == LOCKED:
        return "a tie: the melee is locked"
    won, lost = (c.attacker, c.defender) if result == ATTACKER_WINS else (c.defender, c.attacker)
    return f"{state.band(won).does('wins', 'win')}: one of {lost} is killed"


def _melee_over(state: GameState) -> Result:
    c = state.ctx
    state, a_lines = lose_figures(state, c.attacker, c.attackers_killed)
    if c.hook_fight:
        arab = state.band(c.defender)
        arab = replace(arab, over_wall=max(0, arab.over_wall - c.defenders_killed))
        lines = [
            f"the hook fight: {counted(c.defenders_killed, 'Arab')} and "
            f"{c.attackers_killed} French killed"
        ]
        if c.defenders_killed:
            arab = replace(arab, hook_up=False)
            lines.append(f"the hook of {arab.name} is thrown down")
        state = state.with_band(arab)
        state, d_lines = lose_figures(state, c.defender, c.defenders_killed)
        cues = frozenset({"death"}) if c.defenders_killed + c.attackers_killed else frozenset()
        return _loser_tests(state, (*lines, *a_lines, *d_lines), cues)
    state, d_lines = lose_figures(state, c.defender, c.defenders_killed)
    att = state.band(c.attacker)
    dfn = state.band(c.defender)
    lines = [
        f"melee over: {c.attacker} lost {c.attackers_killed}, {c.defender} lost "
        f"{c.defenders_killed}" + (f", {counted(c.locked, 'bout')} locked" if c.locked else ""),
        *a_lines,
        *d_lines,
    ]
    cues = frozenset({"death"}) if c.attackers_killed + c.defenders_killed else frozenset()
    if c.locked and att.in_play and dfn.in_play:
        state = state.with_band(replace(att, locked_with=dfn.name))
        state = state.with_band(replace(state.band(dfn.name), locked_with=att.name))
        lines.append(f"{att.name} and {dfn.name} are locked in melee")
    else:
        state = unlock(unlock(state, att.name), dfn.name)
    return _loser_tests(state, tuple(lines), cues)


def _loser_tests(state: GameState, lines: tuple[str, ...], cues: frozenset[str]) -> Result:
    """After a melee the side that lost more figures tests morale (none on equal losses)."""
    c = state.ctx
    if c.attackers_killed != c.defenders_killed:
        loser = state.band(c.attacker if c.attackers_killed > c.defenders_killed else c.defender)
        if loser.in_play:
            return r(
                to(state, "loser_morale_roll"),
                *lines,
                f"{loser.name} took more casualties: morale check",
                cues=cues,
            )
    return r(end_activation(state), *lines, cues=cues)


def _ask_loser_morale_roll(state: GameState) -> tuple[Action, Params]:
    c = state.ctx
    loser = c.attacker if c.attackers_killed > c.defenders_killed else c.defender
    if c.hook_fight:  # the French fight from the fort, the Arabs on the wall
        position = "fort" if loser == c.attacker else "open"
    else:
        stayed = loser == c.defender and not c.counter  # counter-chargers left cover
        position = morale_position(c.def_position) if stayed else "open"
    return MORALE, morale_params(state, loser, position, False)


def _on_loser_morale_roll(state: GameState, outcome: Outcome) -> Result:
    c = state.ctx
    loser = c.attacker if c.attackers_killed > c.defenders_killed else c.defender
    state, lines, cues = morale_applied(state, loser, outcome)
    return r(end_activation(state), *lines, cues=cues)


ROLLS: dict[str, RollStep] = {
    "bout_roll": RollStep(_ask_bout_roll, _bout_fought),
    "loser_morale_roll": RollStep(_ask_loser_morale_roll, _on_loser_morale_roll),
}
