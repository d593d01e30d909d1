"""The sequence of play as a state machine, driven by AwaitChoice and AwaitRoll.

Setup: each side's commanding officer rolls his Command Points, then every
under-officer is diced for his type. Each turn, each side in turn is phasing:

1. second action: one percentile roll for the side (10 x CP percent);
2. orders: the phasing side picks its units one by one; each fires, moves,
   charges, deploys (changes formation), vanishes or lands (Hyper-Space
   Rangers); one action free, a second if granted;
3. reaction: the other side rolls CP x d10; one unit a 10 points fires back;
4. morale: every squad with new markers or in stress tests, one at a time, in
   scenario order; provoked squads fire (infantry) or advance (cavalry), which
   may call for more tests;
5. melee: each contact is fought, pair by pair, round by round;
6. rally: the phasing side rolls CP x d10 / 10 men back.

After the turn limit the box asks who holds each objective and counts victory
points. A captured commanding officer ends the game at once (by default).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from companion.rules.core import (
    Action,
    AwaitChoice,
    AwaitRoll,
    Choice,
    Chosen,
    GameInput,
    GameOver,
    Outcome,
    Rolled,
    RollRequest,
    RulesError,
    Scenario,
    Step,
    Transition,
    check_input,
    counted,
)
from companion.rules.fighting_swashbucklers import (
    actions,
    command,
    fire,
    melee,
    morale,
    rally,
    tables,
)
from companion.rules.fighting_swashbucklers.dice import read_d10
from companion.rules.fighting_swashbucklers.movement import (
    AIRBORNE,
    LANDED,
    ON_TABLE,
    can_fire_in,
    can_vanish,
    move_inches,
    needs_rough_roll,
    other_formation,
)
from companion.rules.fighting_swashbucklers.scenario import OPTIONS
from companion.rules.fighting_swashbucklers.state import (
    FightState,
    GameState,
    MeleeState,
    OfficerState,
    SideState,
    SquadState,
    Stage,
)
from companion.rules.grammar import agree, plural_name

FACINGS: tuple[str, ...] = ("front", "flank", "rear")
# A good leader may lend any number of points. Fifty-one entries are too many to step
# through with UP/DOWN, so the referee picks a band of ten, then the number in it.
HELP_BANDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(max(1, 10 * t), min(10 * t + 9, tables.GOOD_LEADER_MAX_POINTS) + 1))
    for t in range(tables.GOOD_LEADER_MAX_POINTS // 10 + 1)
)

# ----------------------------------------------------------------- start


def start(scenario: Scenario) -> GameState:
    options: list[tuple[str, str | int]] = []
    for option in OPTIONS:
        value = scenario.options.get(option.name, option.default)
        assert isinstance(value, str | int)
        options.append((option.name, value))
    preset = scenario.setup.get("command_points", {})
    assert isinstance(preset, dict)
    sides = []
    for name in scenario.sides:
        cp = preset.get(name, -1)
        assert isinstance(cp, int)
        sides.append(SideState(name, cp))
    units = []
    officers: list[OfficerState] = []
    for u in scenario.units:
        pose = u.traits.get("pose", "")
        shaped = u.kind in tables.FORMED_KINDS
        formation = u.traits.get("formation", tables.LINE if shaped else tables.NO_FORMATION)
        assert isinstance(pose, str) and isinstance(formation, str)
        units.append(
            SquadState(
                name=u.name,
                side=u.side,
                kind=u.kind,
                pose=pose,
                strength=u.figures,
                men=u.figures,
                formation=formation,
                leader=u.leader or "",
            )
        )
        if u.leader and all(o.name != u.leader for o in officers):
            officers.append(OfficerState(u.leader, u.side, ""))
        fixed = u.traits.get("leader_type")
        if u.leader and isinstance(fixed, str):
            officers = [
                OfficerState(o.name, o.side, fixed) if o.name == u.leader else o for o in officers
            ]
    first = scenario.setup.get("first_side", scenario.sides[0])
    turn_limit = scenario.setup.get("turn_limit", 6)
    win_points = scenario.setup.get("melee_win_points", tables.MELEE_WIN_VICTORY_POINTS)
    assert isinstance(turn_limit, int) and isinstance(win_points, int)
    objectives_raw = scenario.setup.get("objectives", [])
    assert isinstance(objectives_raw, list)
    objectives = []
    for obj in objectives_raw:
        assert isinstance(obj, dict)
        obj_name, points = obj["name"], obj["points"]
        assert isinstance(obj_name, str) and isinstance(points, int)
        objectives.append((obj_name, points))
    state = GameState(
        title=scenario.title,
        options=tuple(options),
        sides=tuple(sides),
        first_side=scenario.sides.index(str(first)),
        turn_limit=turn_limit,
        melee_win_points=win_points,
        objectives=tuple(objectives),
        units=tuple(units),
        officers=tuple(officers),
    )
    return _settle(state, [])


# ----------------------------------------------------------------- queries


def _opt_str(s: GameState, name: str) -> str:
    return str(s.option(name))


def _opt_int(s: GameState, name: str) -> int:
    value = s.option(name)
    assert isinstance(value, int)
    return value


def _leader(s: GameState, u: SquadState, kind: str) -> OfficerState | None:
    """The unit's under-officer if he is alive and of `kind`."""
    if not u.leader:
        return None
    officer = s.officer(u.leader)
    if officer is None or not officer.alive or officer.kind != kind:
        return None
    return officer


def _commander_name(s: GameState, side: str) -> str:
    """The side's commanding officer by name ("Legion commander" if it has none)."""
    return next((u.name for u in s.units if u.side == side and u.is_commander), f"{side} commander")


def _fighter(u: SquadState) -> str:
    if u.kind == tables.CAVALRY:
        return "cavalry"
    if u.is_commander:
        return "commander"
    return u.pose


def _fire_factor(s: GameState, u: SquadState) -> int:
    return fire.fire_factor(u.kind, u.pose or "running", _opt_int(s, "cavalry_fire_factor"))


def _can_ever_fire(s: GameState, u: SquadState) -> bool:
    if u.is_commander or not u.on_table:
        return False
    return u.kind in (tables.MACHINE_GUN, tables.CANNON) or _fire_factor(s, u) > 0


def _can_fire_now(s: GameState, u: SquadState) -> bool:
    return _can_ever_fire(s, u) and can_fire_in(u.formation, u.kind)


def _enemies(s: GameState, u: SquadState) -> tuple[SquadState, ...]:
    return tuple(e for e in s.units if e.side != u.side and e.on_table)


def _fire_targets(s: GameState, u: SquadState) -> tuple[SquadState, ...]:
    """Squads that can be fired on: the commanding officer has no ML, so not him."""
    targets = [e for e in _enemies(s, u) if not e.is_commander]
    targets.sort(key=lambda e: e.name != u.last_fired_by)
    return tuple(targets)


def _charge_targets(s: GameState, u: SquadState) -> tuple[SquadState, ...]:
    """Squads first: the commanding officer is usually behind his line, so he comes last."""
    return tuple(sorted(_enemies(s, u), key=lambda e: e.is_commander))


def _label(text: str, limit: int = 18) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "."


def _allowed_actions(s: GameState, u: SquadState) -> int:
    if _opt_str(s, "second_action_roll") == "per_unit":
        return 2 if u.second_granted else 1
    return 2 if s.phasing_second else 1


def _may_try_second(s: GameState, u: SquadState) -> bool:
    return (
        _opt_str(s, "second_action_roll") == "per_unit"
        and u.actions_used == 1
        and not u.second_rolled
        and s.side(u.side).cp > 0
    )


def _orderable(s: GameState, u: SquadState) -> bool:
    if u.side != s.phasing or u.done or u.captured or u.men <= 0:
        return False
    if u.airborne:
        return u.hyperspace_turn < s.turn
    if u.landed_on(s.turn):
        return False
    return u.actions_used < _allowed_actions(s, u) or _may_try_second(s, u)


def _reactors(s: GameState) -> tuple[SquadState, ...]:
    return tuple(
        u
        for u in s.units
        if u.side == s.non_phasing
        and not u.reacted
        and not u.landed_on(s.turn)
        and _can_fire_now(s, u)
        and _fire_targets(s, u)
    )


def _next_test(s: GameState) -> SquadState | None:
    for u in s.units:
        if u.on_table and not u.is_commander and (u.test_due or u.stress):
            return u
    return None


# ----------------------------------------------------------------- rolls


@dataclass(frozen=True)
class _Roll:
    action: Action
    params: dict[str, int | bool | str]
    about: str


def _zero(s: GameState) -> dict[str, int | bool | str]:
    return {"double_zero": _opt_str(s, "double_zero")}


def _d10_reading(s: GameState) -> dict[str, int | bool | str]:
    return {"d10_zero": _opt_str(s, "d10_zero")}


def _fire_roll(s: GameState, u: SquadState, range_inches: int) -> _Roll:
    if u.kind == tables.CANNON:
        return _Roll(actions.CANNON_FIRE, {"range": range_inches, **_d10_reading(s)}, u.name)
    firer = "cavalry" if u.kind == tables.CAVALRY else u.pose
    params: dict[str, int | bool | str] = {
        "men": u.men,
        "firer": firer,
        "cavalry_fire_factor": _opt_int(s, "cavalry_fire_factor"),
        **_zero(s),
    }
    if u.kind == tables.MACHINE_GUN:
        params["mg_crew"] = _opt_int(s, "mg_crew")
        return _Roll(actions.MACHINE_GUN_FIRE, params, u.name)
    return _Roll(actions.RIFLE_FIRE, params, u.name)


def _morale_params(s: GameState, u: SquadState, points: int) -> dict[str, int | bool | str]:
    return {
        "men": u.men,
        "markers": min(u.markers, 40),
        "stress": u.stress,
        "leader_points": points,
        "kind": tables.CAVALRY if u.kind == tables.CAVALRY else tables.INFANTRY,
        **_zero(s),
    }


def _fight_params(s: GameState, f: FightState) -> dict[str, int | bool | str]:
    return {
        "pairs": min(f.attacker_fighting, f.defender_fighting),
        "attacker": f.attacker_fighter,
        "attacker_martinet": f.attacker_martinet,
        "attacker_advantage": f.advantage == "attacker",
        "defender": f.defender_fighter,
        "defender_martinet": f.defender_martinet,
        "defender_advantage": f.advantage == "defender",
        "commander_factor": _opt_int(s, "commander_factor"),
        **_d10_reading(s),
    }


def _roll_for(s: GameState) -> _Roll | None:
    st = s.stage
    k = st.kind
    if k == "cp_roll":
        return _Roll(actions.COMMAND_POINTS, _zero(s), _commander_name(s, st.unit))
    if k == "officer_roll":
        return _Roll(actions.UNDER_OFFICER, _zero(s), st.unit)
    if k == "second_roll":
        cp = s.side(s.phasing).cp
        return _Roll(actions.SECOND_ACTION, {"cp": cp, **_zero(s)}, st.unit or s.phasing)
    if k == "reaction_roll":
        cp = s.side(s.non_phasing).cp
        return _Roll(actions.REACTION_FIRE, {"cp": cp, **_d10_reading(s)}, s.non_phasing)
    if k == "fire_roll":
        return _fire_roll(s, s.unit(st.unit), st.number)
    if k == "rough_roll":
        return _Roll(actions.ROUGH_TERRAIN, _zero(s), st.unit)
    if k == "morale_roll":
        u = s.unit(st.unit)
        return _Roll(actions.MORALE_TEST, _morale_params(s, u, st.number), u.name)
    if k == "leader_risk":
        return _Roll(actions.GOOD_LEADER_RISK, {"points": st.number, **_zero(s)}, st.target)
    if k == "melee_roll":
        assert s.fight is not None
        about = f"{s.fight.attacker} v {s.fight.defender}"
        return _Roll(actions.MELEE_ROUND, _fight_params(s, s.fight), about)
    if k == "martinet_roll":
        return _Roll(actions.MARTINET_FATE, {"won": bool(st.number), **_zero(s)}, st.target)
    if k == "rally_roll":
        return _Roll(actions.RALLY, {"cp": s.side(s.phasing).cp, **_d10_reading(s)}, s.phasing)
    if k == "rally_fraction":
        return _Roll(actions.RALLY_FRACTION, {"percent": st.number, **_zero(s)}, s.phasing)
    return None


def _request(roll: _Roll) -> RollRequest:
    base = roll.action.request(roll.params)
    return RollRequest(f"{roll.about}: {base.reason}", base.groups, base.secret)


# ----------------------------------------------------------------- choices


def _choices_for(s: GameState) -> AwaitChoice | None:
    st = s.stage
    k = st.kind
    if k == "pick_unit":
        opts = [Choice(f"unit:{u.name}", _label(u.name)) for u in s.units if _orderable(s, u)]
        opts.append(Choice("end", "End orders"))
        return AwaitChoice(f"{s.phasing}: which unit?", tuple(opts), s.phasing)
    if k == "pick_action":
        return AwaitChoice(f"{st.unit}: action?", _action_options(s, s.unit(st.unit)), st.unit)
    if k == "pick_target":
        u = s.unit(st.unit)
        pool = _charge_targets(s, u) if st.purpose in ("charge", "advance") else _fire_targets(s, u)
        opts = [Choice(f"target:{e.name}", _label(e.name)) for e in pool]
        last = {
            "fire": ("back", "Back"),
            "reaction": ("back", "Back"),
            "charge": ("none", "No contact"),
            "advance": ("none", "No contact"),
            "provoked": ("none", "No target"),
        }[st.purpose]
        opts.append(Choice(*last))
        verb = "charge" if st.purpose in ("charge", "advance") else "fire at"
        return AwaitChoice(f"{st.unit}: {verb}?", tuple(opts), st.unit)
    if k == "pick_facing":
        fixed = tuple(Choice(f"face:{f}", f"{f.capitalize()} of target") for f in FACINGS)
        return AwaitChoice(f"Hits {st.target} in?", fixed, st.unit)
    if k == "pick_range":
        fixed = tuple(Choice(f"range:{t}", f'{t * 10}-{t * 10 + 9}"') for t in range(10))
        return AwaitChoice(f"Range to {st.target}?", fixed, st.unit)
    if k == "ask_rough":
        fixed = (Choice("rough:no", "Clear ground"), Choice("rough:yes", "Rough terrain"))
        return AwaitChoice(f"{st.unit}: terrain?", fixed, st.unit)
    if k == "pick_reactor":
        opts = [Choice(f"unit:{u.name}", _label(u.name)) for u in _reactors(s)]
        opts.append(Choice("end", "No more"))
        left = s.reactions_left
        return AwaitChoice(
            agree(s.non_phasing, "reacts", "react") + f": {left} left", tuple(opts), ""
        )
    if k == "leader_help":
        u = s.unit(st.unit)
        opts = [Choice("help:0", "No help")]
        for band, lendable in enumerate(HELP_BANDS):
            if len(lendable) == 1:
                opts.append(_help_choice(lendable[0]))
            else:
                opts.append(Choice(f"band:{band}", f"Lend {lendable[0]}-{lendable[-1]}"))
        return AwaitChoice(f"{u.name}: help from {u.leader}?", tuple(opts), u.name)
    if k == "leader_points":
        u = s.unit(st.unit)
        opts = [_help_choice(p) for p in HELP_BANDS[st.number]]
        opts.append(Choice("back", "Back"))
        return AwaitChoice(f"{u.leader} lends?", tuple(opts), u.name)
    if k == "pick_advantage":
        m = s.melees[st.number]
        d = s.unit(m.defender)
        flank = m.facing != "front" and not d.faced
        order = ("attacker", "none", "defender") if flank else ("none", "defender", "attacker")
        labels = {"none": "No advantage", "attacker": "Attacker +2", "defender": "Defender +2"}
        fixed = tuple(Choice(f"adv:{o}", labels[o]) for o in order)
        return AwaitChoice(f"{m.attacker}: who gets +2 v {m.defender}?", fixed, m.attacker)
    if k == "pick_rally":
        opts = [Choice(f"rally:{u.name}", _label(label)) for u, label in _rally_targets(s)]
        men = counted(st.number, "man", "men")
        return AwaitChoice(f"Rally {men} to?", tuple(opts), s.phasing)
    if k == "pick_holder":
        name, points = s.objectives[st.number]
        opts = [Choice(f"hold:{side.name}", _label(side.name)) for side in s.sides]
        opts.append(Choice("hold:none", "Nobody"))
        return AwaitChoice(f"{name}: who holds it ({points} VP)?", tuple(opts), name)
    return None


def _help_choice(points: int) -> Choice:
    return Choice(f"help:{points}", f"Lend {points}: risk {command.good_leader_risk(points)}%")


def _action_options(s: GameState, u: SquadState) -> tuple[Choice, ...]:
    if u.airborne:
        if _opt_str(s, "ranger_landing") == "when_chosen":
            return (Choice("land", "Land anywhere"), Choice("stay", "Stay airborne"))
        return (Choice("land", "Land anywhere"),)
    if u.actions_used >= _allowed_actions(s, u) and _may_try_second(s, u):
        return (Choice("second", "Try 2nd action"), Choice("end", "End unit"))
    opts: list[Choice] = []
    if _can_fire_now(s, u) and _fire_targets(s, u):
        opts.append(Choice("fire", "Fire"))
    if not u.is_commander and _charge_targets(s, u):
        opts.append(Choice("charge", "Charge"))
    opts.append(Choice("move", f'Move {move_inches(u.kind)}"'))
    if u.kind in tables.FORMED_KINDS:
        opts.append(Choice("deploy", f"Form {other_formation(u.formation)}"))
    if can_vanish(u.kind, u.pose) and u.actions_used == 0 and u.hyperspace == ON_TABLE:
        opts.append(Choice("vanish", "Hyper-space"))
    opts.append(Choice("end", "End unit"))
    return tuple(opts)


def _rally_targets(s: GameState) -> tuple[tuple[SquadState, str], ...]:
    out = []
    for u in s.units:
        if u.side != s.phasing or u.routed <= 0 or u.airborne or u.captured:
            continue
        if u.men > 0 or _opt_str(s, "lost_squad_rally") == "by_man":
            out.append((u, f"+1 {u.name}"))
        elif s.stage.number >= u.routed:
            out.append((u, f"{u.name} whole"))
    return tuple(out)


# ----------------------------------------------------------------- next_step


def next_step(state: object) -> Step:
    return _step(_state(state), with_odds=True)


def _step(s: GameState, *, with_odds: bool) -> Step:
    if s.finished:
        return GameOver(s.winner or None, _summary(s))
    roll = _roll_for(s)
    if roll is not None:
        return AwaitRoll(_request(roll), roll.action.odds(roll.params) if with_odds else None)
    choice = _choices_for(s)
    if choice is None:  # pragma: no cover - _settle always leaves a stage
        raise RulesError(f"the game is stuck at {s.stage.kind!r}")
    return choice


def _state(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise RulesError("expected a Fighting Swashbucklers game state")
    return state


# ----------------------------------------------------------------- advance


@dataclass
class _Out:
    """What one input tells the table, gathered while the state is worked out."""

    log: list[str] = field(default_factory=list)
    cues: set[str] = field(default_factory=set)
    outcome: Outcome | None = None
    # Lines of the play-by-play that only say the roll's headline again ("Legion rallies
    # 2 men" under "2 men rallied"): the log keeps them, the result screen does not.
    headline_said: set[str] = field(default_factory=set)


def advance(state: object, given: GameInput) -> Transition:
    s = _state(state)
    step = _step(s, with_odds=False)
    check_input(step, given)
    out = _Out()
    if isinstance(given, Rolled):
        assert isinstance(step, AwaitRoll)
        roll = _roll_for(s)
        assert roll is not None
        outcome = roll.action.resolve(roll.params, given.dice)
        out.outcome = outcome
        out.cues.add("dice")
        out.log.append(step.request.reason)  # the details below give the verdict
        out.log.extend(f"  {line}" for line in outcome.details)
        new = _on_roll(s.at(stage=Stage()), s.stage, given.dice, outcome, out)
    else:
        assert isinstance(given, Chosen)
        new = _on_choice(s.at(stage=Stage()), s.stage, given.key, out)
    new = _settle(new, out.log, out.cues)
    if out.outcome is not None:
        out.outcome = replace(out.outcome, changes=_changes(out.log, out.headline_said))
    if new.finished:
        out.cues.add("game_over")
    return Transition(new, tuple(out.log), out.outcome, frozenset(out.cues))


def _changes(log: Sequence[str], headline_said: set[str] | None = None) -> tuple[str, ...]:
    """What the roll did to the table, for the result screen: the play-by-play after the
    request and its reasoning (indented), up to the next turn's line, less the lines
    that only repeat the headline."""
    said: list[str] = []
    for line in log[1:]:
        if line.startswith("---"):
            break
        if not line.startswith(" ") and line not in (headline_said or set()):
            said.append(line)
    return tuple(said)


# ----------------------------------------------------------------- choices applied


def _on_choice(s: GameState, st: Stage, key: str, out: _Out) -> GameState:
    k = st.kind
    _, _, rest = key.partition(":")
    if k == "pick_unit":
        if key == "end":
            out.log.append(agree(s.phasing, "ends", "end") + " orders")
            return _land_due_rangers(s, out).at(phase="reaction")
        return s.at(stage=Stage("pick_action", rest))
    if k == "pick_action":
        return _on_action(s, s.unit(st.unit), key, out)
    if k == "pick_target":
        return _on_target(s, st, key, out)
    if k == "pick_facing":
        return _contact(s, st.unit, st.target, rest, st.purpose, out)
    if k == "pick_range":
        return s.at(stage=Stage("fire_roll", st.unit, st.target, st.purpose, int(rest) * 10))
    if k == "ask_rough":
        if rest == "yes":
            return s.at(stage=Stage("rough_roll", st.unit, purpose=st.purpose))
        return _moved(s, st.unit, st.purpose, out)
    if k == "pick_reactor":
        if key == "end":
            out.log.append(agree(s.non_phasing, "ends", "end") + " reaction fire")
            return s.at(reactions_left=0)
        return s.at(stage=Stage("pick_target", rest, purpose="reaction"))
    if k in ("leader_help", "leader_points"):
        if key.startswith("band:"):
            return s.at(stage=Stage("leader_points", st.unit, number=int(rest)))
        if key == "back":
            return s.at(stage=Stage("leader_help", st.unit))
        return s.at(stage=Stage("morale_roll", st.unit, number=int(rest)))
    if k == "pick_advantage":
        return _begin_fight(s, st.number, rest, out)
    if k == "pick_rally":
        return _rally_to(s, rest, st.number, out)
    if k == "pick_holder":
        holders = (*s.holders, rest)
        name, points = s.objectives[st.number]
        out.log.append(f"{name}: {rest if rest != 'none' else 'nobody'} ({points} VP)")
        if rest != "none":
            side = s.side(rest)
            s = s.with_side(
                SideState(side.name, side.cp, side.victory_points + points, side.commander_captured)
            )
        return s.at(holders=holders)
    raise RulesError(f"no choice expected at {k!r}")  # pragma: no cover


def _on_action(s: GameState, u: SquadState, key: str, out: _Out) -> GameState:
    if key == "end":
        out.log.append(f"{u.name}: no more orders this turn")
        return s.with_unit(u.with_(done=True))
    if key == "land":
        out.log.append(
            agree(u.name, "materialises", "materialise")
            + " anywhere on the field and does nothing more"
        )
        return _land(s, u)
    if key == "stay":
        out.log.append(agree(u.name, "stays", "stay") + " in hyper-space this turn")
        return s.with_unit(u.with_(done=True))
    if key == "vanish":
        out.log.append(
            agree(u.name, "dematerialises", "dematerialise") + ": off the field until next turn"
        )
        return s.with_unit(
            u.with_(hyperspace=AIRBORNE, hyperspace_turn=s.turn, done=True, actions_used=1)
        )
    if key == "second":
        return s.with_unit(u.with_(second_rolled=True)).at(stage=Stage("second_roll", u.name))
    if key == "deploy":
        new = other_formation(u.formation)
        out.log.append(agree(u.name, "deploys", "deploy") + f" into {new}")
        return _action_done(s.with_unit(u.with_(formation=new)), u.name)
    if key == "fire":
        return s.at(stage=Stage("pick_target", u.name, purpose="fire"))
    if key in ("move", "charge"):
        if _rolls_in_rough(s, u):
            return s.at(stage=Stage("ask_rough", u.name, purpose=key))
        return _moved(s, u.name, key, out)
    raise RulesError(f"unknown action {key!r}")  # pragma: no cover


def _rolls_in_rough(s: GameState, u: SquadState) -> bool:
    if u.rough_passed:
        return False
    if u.kind == tables.CANNON:  # no formation: the line's roll only by option
        return _opt_str(s, "cannon_rough_terrain") == "rolls"
    return needs_rough_roll(u.formation)


def _land(s: GameState, u: SquadState) -> GameState:
    return s.with_unit(u.with_(hyperspace=LANDED, hyperspace_turn=s.turn, done=True))


def _land_due_rangers(s: GameState, out: _Out) -> GameState:
    """The trip lasts two turns, so Rangers left unordered in their landing turn come down."""
    if _opt_str(s, "ranger_landing") != "next_turn":
        return s
    for u in s.units:
        if u.side == s.phasing and u.airborne and u.men > 0 and u.hyperspace_turn < s.turn:
            out.log.append(f"{u.name} must land now: place it anywhere on the field")
            s = _land(s, u)
    return s


def _moved(s: GameState, name: str, purpose: str, out: _Out) -> GameState:
    u = s.unit(name)
    if purpose == "charge":
        return s.at(stage=Stage("pick_target", name, purpose="charge"))
    shape = f" ({u.formation})" if u.formation else ""
    out.log.append(agree(name, "moves", "move") + f' up to {move_inches(u.kind)}"{shape}')
    return _action_done(s, name)


def _on_target(s: GameState, st: Stage, key: str, out: _Out) -> GameState:
    _, _, target = key.partition(":")
    if key == "back":
        if st.purpose == "fire":
            return s.at(stage=Stage("pick_action", st.unit))
        return s  # reaction: back to the list of reactors
    if key == "none":
        if st.purpose == "charge":
            out.log.append(agree(st.unit, "moves", "move") + " without contact")
            return _action_done(s, st.unit)
        out.log.append(f"{st.unit}: no target within reach")
        return s
    if st.purpose in ("charge", "advance"):
        return s.at(stage=Stage("pick_facing", st.unit, target, st.purpose))
    return _start_fire(s, st.unit, target, st.purpose, out)


def _action_done(s: GameState, name: str, *, halted: bool = False) -> GameState:
    u = s.unit(name)
    u = u.with_(actions_used=u.actions_used + 1)
    if halted:
        u = u.with_(done=True)
    s = s.with_unit(u)
    if not u.done and _orderable(s, u):
        return s.at(stage=Stage("pick_action", name))
    return s.with_unit(u.with_(done=True))


# ----------------------------------------------------------------- fire


def _start_fire(s: GameState, firer: str, target: str, purpose: str, out: _Out) -> GameState:
    u = s.unit(firer)
    out.log.append(agree(firer, "fires", "fire") + f" at {target}")
    if u.kind == tables.CANNON:
        if purpose == "defensive":
            return s.at(stage=Stage("fire_roll", firer, target, purpose, 0))
        return s.at(stage=Stage("pick_range", firer, target, purpose))
    roll = _fire_roll(s, u, 0)
    if roll.action.request(roll.params).groups:
        return s.at(stage=Stage("fire_roll", firer, target, purpose))
    outcome = roll.action.resolve(roll.params, ())
    out.log.extend(f"  {line}" for line in outcome.details)
    return _after_fire(s, firer, target, purpose, outcome.headline, out)


def _after_fire(
    s: GameState, firer: str, target: str, purpose: str, markers: int, out: _Out
) -> GameState:
    t = s.unit(target)
    if markers > 0:
        taken = counted(markers, "marker")
        out.log.append(agree(target, "takes", "take") + f" {taken} ({t.markers + markers} in all)")
        s = s.with_unit(t.with_(markers=t.markers + markers, test_due=True, last_fired_by=firer))
    else:
        out.log.append(f"{target}: no impact")
    if purpose == "fire":
        return _action_done(s, firer)
    if purpose == "reaction":
        u = s.unit(firer)
        return s.with_unit(u.with_(reacted=True)).at(reactions_left=s.reactions_left - 1)
    return s  # provoked or defensive fire: back to the morale step


# ----------------------------------------------------------------- contact


def _contact(
    s: GameState, attacker: str, defender: str, facing: str, purpose: str, out: _Out
) -> GameState:
    a, d = s.unit(attacker), s.unit(defender)
    out.log.append(agree(attacker, "contacts", "contact") + f" {defender} in the {facing}")
    s = s.at(melees=(*s.melees, MeleeState(attacker, defender, facing, purpose == "advance")))
    if not d.is_commander and facing != "front":
        out.log.append(agree(defender, "is", "are") + f" charged in the {facing}: stress test")
        s = s.with_unit(d.with_(stress=True))
    elif a.kind == tables.CAVALRY and d.kind in tables.FOOT_KINDS and facing == "front":
        stressed = attacker if _opt_str(s, "frontal_cavalry_stress") == "cavalry" else defender
        out.log.append(f"cavalry charging infantry head-on: {stressed} tests at half ML")
        s = s.with_unit(s.unit(stressed).with_(stress=True))
    if purpose == "charge":
        return _action_done(s, attacker, halted=True)  # in contact: no more orders
    # a provoked cavalry advance: the defender gets another defensive fire
    d = s.unit(defender)
    if (
        _can_ever_fire(s, d)
        and not _can_fire_now(s, d)
        and _opt_str(s, "column_defensive_fire") == "deploys"
    ):
        # only a foot column gets here; the chart's units deploy if they must to fire
        out.log.append(agree(defender, "deploys", "deploy") + " into line to fire")
        s = s.with_unit(d.with_(formation=tables.LINE))
        d = s.unit(defender)
    if _can_fire_now(s, d):
        return _start_fire(s, defender, attacker, "defensive", out)
    out.log.append(f"{defender} cannot fire defensively")
    return s


# ----------------------------------------------------------------- morale


def _on_morale(s: GameState, name: str, points: int, outcome: Outcome, out: _Out) -> GameState:
    u = s.unit(name)
    stressed = u.stress
    level = morale.morale_level(u.men, min(u.markers, 40), stress=u.stress, leader_points=points)
    roll_effects = outcome.effects
    u = u.with_(test_due=False, stress=False)
    if _opt_str(s, "marker_duration") == "until_tested":
        u = u.with_(markers=0)  # the ML drop lasted for this one test
    provoked = "provoked" in roll_effects
    if "routed" in roll_effects:
        losses = outcome.headline
        out.cues.add("resolve_failed")
        again = _opt_str(s, "failure_markers") == "test_again"
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
        if stressed and charging and _opt_str(s, "failed_charge") == "halts":
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
        return _provoked(s, name, stressed, out)
    return s


def _provoked(s: GameState, name: str, stressed: bool, out: _Out) -> GameState:
    u = s.unit(name)
    if not u.on_table:
        return s
    flank = next(
        (m for m in s.melees if m.defender == name and m.facing != "front" and stressed), None
    )
    if u.kind == tables.CAVALRY:
        charging = any(m.attacker == name for m in s.melees)
        if u.formation == tables.COLUMN and not charging and (flank or _charge_targets(s, u)):
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
        if not _charge_targets(s, u):
            return s
        out.log.append(f"{name} must advance")
        return s.at(stage=Stage("pick_target", name, purpose="advance"))
    if not _can_ever_fire(s, u):
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
        return _start_fire(s, name, flank.attacker, "provoked", out)
    if not _fire_targets(s, u):
        return s
    out.log.append(f"{name} must fire")
    return s.at(stage=Stage("pick_target", name, purpose="provoked"))


# ----------------------------------------------------------------- melee


def _begin_fight(s: GameState, index: int, advantage: str, out: _Out) -> GameState:
    m = s.melees[index]
    a, d = s.unit(m.attacker), s.unit(m.defender)

    fight = FightState(
        attacker=a.name,
        defender=d.name,
        attacker_fighter=_fighter(a),
        defender_fighter=_fighter(d),
        attacker_martinet=_leader(s, a, tables.MARTINET) is not None,
        defender_martinet=_leader(s, d, tables.MARTINET) is not None,
        advantage=advantage,
        attacker_soldiers=melee.fighting_men(a.men, column=a.formation == tables.COLUMN),
        defender_soldiers=melee.fighting_men(d.men, column=d.formation == tables.COLUMN),
        attacker_officer=_leader(s, a, tables.ORDINARY_OFFICER) is not None,
        defender_officer=_leader(s, d, tables.ORDINARY_OFFICER) is not None,
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
    officer = _leader(s, u, tables.ORDINARY_OFFICER)
    return f"{count} fighting" + (f", {officer.name} among them" if officer else "")


def _on_melee_round(s: GameState, dice: Sequence[int], out: _Out) -> GameState:
    f = s.fight
    assert f is not None
    result = actions.melee_round_result(_fight_params(s, f), dice)
    by_man = _opt_str(s, "threefold_rout") == melee.ROUT_BY_MAN
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


def _rout_men(s: GameState, name: str, beaten: int, out: _Out) -> GameState:
    if beaten <= 0:
        return s
    u = s.unit(name)
    beaten = min(beaten, u.men)
    routs = counted(beaten, "man beaten threefold routs", "men beaten threefold rout")
    out.log.append(f"{name}: {routs} from the field")
    out.cues.add("death")
    return s.with_unit(u.with_(men=u.men - beaten, routed=u.routed + beaten))


def _commander_captured(s: GameState, f: FightState, out: _Out) -> GameState:
    co = s.unit(f.defender)
    side = s.side(co.side)
    out.cues.add("death")
    out.log.append(f"{co.name} loses a round and is captured!")
    s = s.with_unit(co.with_(captured=True))
    s = s.with_side(SideState(side.name, 0, side.victory_points, True))
    winner = s.unit(f.attacker).side
    if _opt_str(s, "captured_commander") == "ends_game":
        return s.at(
            fight=None,
            finished=True,
            winner=winner,
            phase="over",
            ending=f"{co.name} captured: the game is over",
        )
    out.log.append(agree(side.name, "plays", "play") + " on with no Command Points")
    return _end_fight(s, f, out, forced_winner="attacker")


def _end_fight(s: GameState, f: FightState, out: _Out, forced_winner: str = "") -> GameState:
    attacker_won = forced_winner == "attacker" if forced_winner else f.defender_fighting == 0
    winner = f.attacker if attacker_won else f.defender
    loser = f.defender if attacker_won else f.attacker
    w, lo = s.unit(winner), s.unit(loser)
    if (
        _opt_str(s, "threefold_rout") == melee.ROUT_BY_UNIT
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
        officer = _leader(s, s.unit(name), tables.MARTINET)
        if officer is not None:
            queue.append((officer.name, won))
    return s.at(
        fight=None,
        melee_index=s.melee_index + 1,
        martinet_queue=tuple(queue),
        withdrawn=(*s.withdrawn, loser),
    )


# ----------------------------------------------------------------- rally


def _rally_to(s: GameState, name: str, men: int, out: _Out) -> GameState:
    u = s.unit(name)
    if u.men > 0:
        placed = 1
        out.log.append(f"1 man rallies to {name}")
    elif _opt_str(s, "lost_squad_rally") == "by_man":
        placed = 1
        out.log.append(f"1 man of {name} rallies beside {_commander_name(s, u.side)}")
    else:
        placed = u.routed
        out.log.append(
            agree(name, "rallies", "rally") + f" whole beside {_commander_name(s, u.side)}"
        )
    s = s.with_unit(u.with_(men=u.men + placed, routed=u.routed - placed))
    left = men - placed
    if left > 0:
        s = s.at(stage=Stage("pick_rally", number=left))
        if _rally_targets(s):
            return s
        out.log.append(f"{counted(left, 'rallied man has', 'rallied men have')} nowhere to go")
    return _end_half(s.at(stage=Stage()), out)


# ----------------------------------------------------------------- rolls applied


def _on_roll(
    s: GameState, st: Stage, dice: Sequence[int], outcome: Outcome, out: _Out
) -> GameState:
    k = st.kind
    if k == "cp_roll":
        side = s.side(st.unit)
        who = _commander_name(s, side.name)
        # the headline gives his points, and the reasoning above the band they fall in
        out.log.append(f"{who} commands the {side.name}")
        return s.with_side(SideState(side.name, outcome.headline, side.victory_points))
    if k == "officer_roll":
        o = s.officer(st.unit)
        assert o is not None
        kind = actions.officer_kind(outcome.effects)
        out.log.append(f"{o.name} is {_officer_words(kind, article=True)}")
        return s.with_officer(OfficerState(o.name, o.side, kind))
    if k == "second_roll":
        granted = outcome.headline == 1
        if st.unit:
            u = s.unit(st.unit)
            s = s.with_unit(u.with_(second_granted=granted, done=not granted))
            if granted:
                return s.at(stage=Stage("pick_action", u.name))
            return s
        out.log.append(f"{s.phasing}: {'a second action' if granted else 'one action'} each")
        return s.at(phasing_second=granted, phase="orders")
    if k == "reaction_roll":
        return s.at(reactions_left=outcome.headline)
    if k == "fire_roll":
        return _after_fire(s, st.unit, st.target, st.purpose, outcome.headline, out)
    if k == "rough_roll":
        u = s.unit(st.unit)
        if outcome.headline:
            return _moved(s.with_unit(u.with_(rough_passed=True)), u.name, st.purpose, out)
        out.log.append(agree(u.name, "stands", "stand") + " in the rough for the rest of the turn")
        return _action_done(s, u.name, halted=True)
    if k == "morale_roll":
        return _on_morale(s, st.unit, st.number, outcome, out)
    if k == "leader_risk":
        o = s.officer(st.target)
        assert o is not None
        if "killed" in outcome.effects:
            out.cues.add("death")
            out.log.append(f"{o.name} is killed")
            s = s.with_officer(OfficerState(o.name, o.side, o.kind, False))
        if st.purpose:
            return _provoked(s, st.unit, st.purpose == "provoked_stress", out)
        return s
    if k == "melee_roll":
        return _on_melee_round(s, dice, out)
    if k == "martinet_roll":
        name, _won = s.martinet_queue[0]
        s = s.at(martinet_queue=s.martinet_queue[1:])
        o = s.officer(name)
        assert o is not None
        if "killed" in outcome.effects:
            out.cues.add("death")
            out.log.append(f"{name}'s men clobber him")
            s = s.with_officer(OfficerState(o.name, o.side, o.kind, False))
        return s
    if k == "rally_roll":
        if actions.ONE_MORE_POSSIBLE in outcome.effects:
            die = read_d10(dice[0], _opt_str(s, "d10_zero"))
            percent = rally.rally_fraction_percent(s.side(s.phasing).cp, die)
            return s.at(stage=Stage("rally_fraction", number=percent, count=outcome.headline))
        return _rally_place(s, outcome.headline, out, said_by_headline=True)
    if k == "rally_fraction":
        return _rally_place(s, st.count + outcome.headline, out)
    raise RulesError(f"no roll expected at {k!r}")  # pragma: no cover


def _rally_place(s: GameState, men: int, out: _Out, *, said_by_headline: bool = False) -> GameState:
    """`said_by_headline`: the roll's headline is these men, so the result screen need
    not say so twice (after the fraction's roll, the total is news)."""
    rallied = agree(s.phasing, "rallies", "rally") + f" {counted(men, 'man', 'men')}"
    out.log.append(rallied)
    if said_by_headline:
        out.headline_said.add(rallied)
    if men <= 0:
        return _end_half(s, out)
    s = s.at(stage=Stage("pick_rally", number=men))
    if not _rally_targets(s):
        out.log.append("no squad can take them")
        return _end_half(s.at(stage=Stage()), out)
    return s


def _officer_words(kind: str, *, article: bool = False) -> str:
    """The type in the words of the dice, the odds and the headline: "Sgt is a good
    leader", "Cpl is run of the mill", "Lt is a martinet"."""
    words = actions.OFFICER_WORDS[kind]
    return f"a {words}" if article and kind != tables.ORDINARY_OFFICER else words


# ----------------------------------------------------------------- the flow


def _end_half(s: GameState, out: _Out) -> GameState:
    units = tuple(
        SquadState(
            u.name,
            u.side,
            u.kind,
            u.pose,
            u.strength,
            u.men,
            u.routed,
            u.formation,
            u.leader,
            hyperspace=u.hyperspace,
            hyperspace_turn=u.hyperspace_turn,
            captured=u.captured,
        )
        for u in s.units
    )
    s = s.at(
        units=units,
        melees=(),
        melee_index=0,
        fight=None,
        martinet_queue=(),
        withdrawn=(),
        reactions_left=-1,
        phasing_second=False,
        stage=Stage(),
    )
    if s.half == 0:
        out.log.append(f"--- turn {s.turn}: " + agree(s.non_phasing, "is", "are") + " phasing")
        return s.at(half=1, phase="second")
    out.cues.add("turn_end")
    turn = s.turn + 1
    units = tuple(
        u.with_(hyperspace=ON_TABLE) if u.hyperspace == LANDED and u.hyperspace_turn < turn else u
        for u in s.units
    )
    if turn > s.turn_limit:
        out.log.append(f"--- turn limit {s.turn_limit} reached")
        return s.at(turn=turn, half=0, units=units, phase="end")
    s = s.at(turn=turn, half=0, units=units, phase="second")
    out.log.append(f"--- turn {turn}: " + agree(s.phasing, "is", "are") + " phasing")
    return s


def _settle(s: GameState, log: list[str], cues: set[str] | None = None) -> GameState:
    out = _Out(log, cues if cues is not None else set())
    for _ in range(10_000):
        if s.finished or s.stage.kind:
            return s
        s = _step_phase(s, out)
    raise RulesError("the game could not settle")  # pragma: no cover


def _step_phase(s: GameState, out: _Out) -> GameState:
    phase = s.phase
    if phase == "setup":
        for side in s.sides:
            if side.cp < 0:
                return s.at(stage=Stage("cp_roll", side.name))
        for o in s.officers:
            if not o.kind:
                return s.at(stage=Stage("officer_roll", o.name))
        out.log.append("--- turn 1: " + agree(s.phasing, "is", "are") + " phasing")
        return s.at(phase="second")
    if phase == "second":
        cp = s.side(s.phasing).cp
        if _opt_str(s, "second_action_roll") == "per_unit":
            return s.at(phase="orders")
        if cp <= 0:
            out.log.append(agree(s.phasing, "has", "have") + " no CP: one action each")
            return s.at(phase="orders", phasing_second=False)
        if command.second_action_chance(cp) >= 100:
            return s.at(phase="orders", phasing_second=True)
        return s.at(stage=Stage("second_roll"))
    if phase == "orders":
        if any(_orderable(s, u) for u in s.units):
            return s.at(stage=Stage("pick_unit"))
        return s.at(phase="reaction")
    if phase == "reaction":
        if s.reactions_left < 0:
            if s.side(s.non_phasing).cp > 0 and _reactors(s):
                return s.at(stage=Stage("reaction_roll"))
            return s.at(phase="morale")
        if s.reactions_left > 0 and _reactors(s):
            return s.at(stage=Stage("pick_reactor"))
        return s.at(phase="morale")
    if phase == "morale":
        u = _next_test(s)
        if u is not None:
            if _leader(s, u, tables.GOOD_LEADER) is not None:
                return s.at(stage=Stage("leader_help", u.name))
            return s.at(stage=Stage("morale_roll", u.name))
        return s.at(phase="melee", melee_index=0)
    if phase == "melee":
        if s.martinet_queue:
            name, won = s.martinet_queue[0]
            return s.at(stage=Stage("martinet_roll", target=name, number=int(won)))
        if s.fight is not None:
            return s.at(stage=Stage("melee_roll"))
        if s.melee_index < len(s.melees):
            m = s.melees[s.melee_index]
            breaks_off = _opt_str(s, "loser_in_later_melee") == "breaks_off"
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
    if phase == "rally":
        side = s.side(s.phasing)
        routed = any(
            u.routed > 0 and not u.airborne and not u.captured
            for u in s.units
            if u.side == side.name
        )
        if side.cp > 0 and routed:
            return s.at(stage=Stage("rally_roll"))
        return _end_half(s, out)
    if phase == "end":
        if len(s.holders) < len(s.objectives):
            return s.at(stage=Stage("pick_holder", number=len(s.holders)))
        a, b = s.sides
        winner = ""
        if a.victory_points != b.victory_points:
            winner = a.name if a.victory_points > b.victory_points else b.name
        return s.at(
            finished=True,
            winner=winner,
            phase="over",
            ending=f"victory points {a.name} {a.victory_points}, {b.name} {b.victory_points}",
        )
    raise RulesError(f"unknown phase {phase!r}")  # pragma: no cover


# ----------------------------------------------------------------- describe


def describe(state: object) -> tuple[str, ...]:
    s = _state(state)
    turn = f"turn {min(s.turn, s.turn_limit)}/{s.turn_limit}"
    if s.finished:
        head = f"{s.title}: game over in {turn}: {_result(s)}"
    else:
        head = f"{s.title}: {turn}, {_where(s)}"
    lines = [head]
    for side in s.sides:
        cp = "?" if side.cp < 0 else str(side.cp)
        lines.append(f"{side.name}: CP {cp}, VP {side.victory_points}")
    for u in s.units:
        bits = [f"{u.men}/{counted(u.strength, 'man', 'men')}"]
        if u.routed:  # "more": routed men are not among the squad's men ("3/4 men")
            bits.append(f"{u.routed} more routed")
        if u.markers:
            bits.append(counted(u.markers, "marker"))
        if u.formation == tables.COLUMN:
            bits.append("column")
        if u.hyperspace:
            bits.append(u.hyperspace)
        if u.captured:
            bits.append("captured")
        lines.append(f"  {u.name} ({u.side}): " + ", ".join(bits))
    for o in s.officers:
        kind = _officer_words(o.kind) if o.kind else "not yet diced"
        lines.append(f"  {o.name} ({o.side}): {kind}{'' if o.alive else ', dead'}")
    return tuple(lines)


def _where(s: GameState) -> str:
    """Where the turn is, in the referee's words (the status screen's first line), not
    the name of the internal phase."""
    if s.phase == "setup":
        return "setting up: Command Points and officers"
    if s.phase == "end":
        return "turn limit reached: who holds the objectives?"
    doing = {
        "second": "rolling for a second action",
        "orders": "giving orders",
        "reaction": f"{s.non_phasing} reaction fire",
        "morale": "morale tests",
        "melee": "melee",
        "rally": "rally",
    }.get(s.phase, s.phase)
    return f"{s.phasing} phasing, {doing}"


def _result(s: GameState) -> str:
    return (agree(s.winner, "wins", "win") if s.winner else "a draw") + f": {s.ending}"


def _summary(s: GameState) -> tuple[str, ...]:
    return (_result(s), *describe(s)[1:])
