"""The sequence of play as a state machine.

Each turn: both sides roll who goes first; the first player gives every unit one
order (move, move and charge, rally, shoot, hold fire, engineering work,
demolition); then the second player; then every charge that reached its target
is resolved (a held-fire volley, both sides' dice, Come On!, the result,
pursuit). Commanders who were hit come back at the end of the next turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.rules.core import (
    Action,
    AwaitChoice,
    AwaitRoll,
    ChipDrawn,
    Choice,
    Chosen,
    GameInput,
    GameOver,
    Outcome,
    Params,
    Rolled,
    RulesError,
    Scenario,
    Step,
    Transition,
    check_dice,
)
from companion.rules.on_the_frontier import tables
from companion.rules.on_the_frontier.charges import CHARGE_DICE, COME_ON, charge_result
from companion.rules.on_the_frontier.engineering import DEMOLITION, ENGINEERING
from companion.rules.on_the_frontier.initiative import TIE, WHO_GOES_FIRST
from companion.rules.on_the_frontier.movement import MOVE
from companion.rules.on_the_frontier.rally import RALLY, rally_counts, rally_modifier
from companion.rules.on_the_frontier.scenario import Options, read_options, read_setup
from companion.rules.on_the_frontier.shooting import SHOOT, STEADY, front_rank

FOOT_KINDS = frozenset({"infantry", "skirmishers", "tribesmen"})
CHARGING_KINDS = frozenset({"infantry", "skirmishers", "tribesmen", "cavalry"})
ANYONE_WITHIN_6 = 'Enemy within 6"?'


@dataclass(frozen=True)
class Force:
    """A unit as it stands now. Casualties lie on the table until rallied."""

    name: str
    side: str
    kind: str
    weapon: str  # the shooting weapon, "" if it has none
    start: int
    figures: int  # standing in the ranks
    casualties: int = 0  # lying on the table, may rally
    removed: int = 0  # gone for good
    routed: bool = False
    leader: str = ""
    leader_back_turn: int = 0  # 0: with the unit; else back at the end of that turn
    held_fire: bool = False
    acted: bool = False
    quality: str = "regular"
    shock: bool = False
    superior: bool = False
    ranks: int = 1
    engineers: bool = False

    @property
    def in_play(self) -> bool:
        return not self.routed and self.figures > 0

    @property
    def shaken(self) -> bool:
        """Below half strength: may not advance or shoot, routs if it loses a melee."""
        return self.figures * 2 < self.start

    @property
    def has_leader(self) -> bool:
        return bool(self.leader) and self.leader_back_turn == 0

    @property
    def can_shoot(self) -> bool:
        return self.in_play and bool(self.weapon) and not self.shaken


@dataclass(frozen=True)
class Context:
    """What the current activity has gathered so far."""

    actor: str = ""
    target: str = ""
    charging: bool = False
    broken: bool = False
    deploy: bool = False
    rerolled: bool = False
    range_band: str = "close"
    cover: bool = False
    hits: int = 0
    returning: bool = False
    in_charge: bool = False  # the shooting is a held-fire volley at chargers
    no_rally: bool = False
    task: str = ""
    attacker_took: int = 0
    defender_took: int = 0
    defender_cover: bool = False
    square: bool = False
    pursuit: bool = False
    near_enemy: bool = False


@dataclass(frozen=True)
class ChargeDeclared:
    attacker: str
    defender: str


@dataclass(frozen=True)
class GameState:
    title: str
    sides: tuple[str, str]
    options: Options
    turn_limit: int
    engineering: bool
    demolition_target: str
    demolition_points: int
    turn: int
    forces: tuple[Force, ...]
    stage: str
    first: int = 0  # index in sides of this turn's first player
    player: int = 0  # 0 while the first player gives orders, 1 the second
    ctx: Context = Context()
    charges: tuple[ChargeDeclared, ...] = ()
    work: tuple[tuple[str, str, int], ...] = ()  # (side, task, points so far)
    works_done: tuple[tuple[str, str], ...] = ()  # (side, task) finished
    laid: tuple[tuple[str, int], ...] = ()  # (side, demolition charges laid)
    demolished: bool = False
    finished: bool = False

    # ----------------------------------------------------------- look-ups

    def force(self, name: str) -> Force:
        for f in self.forces:
            if f.name == name:
                return f
        raise RulesError(f"no unit named {name!r}")

    def with_force(self, force: Force) -> GameState:
        return replace(
            self, forces=tuple(force if f.name == force.name else f for f in self.forces)
        )

    @property
    def active_side(self) -> str:
        return self.sides[(self.first + self.player) % 2]

    def enemies_of(self, side: str) -> tuple[Force, ...]:
        return tuple(f for f in self.forces if f.side != side and f.in_play)

    def charges_laid(self, side: str) -> int:
        return dict(self.laid).get(side, 0)

    def work_points(self, side: str, task: str) -> int:
        for s, t, p in self.work:
            if s == side and t == task:
                return p
        return 0


def start(scenario: Scenario) -> GameState:
    options = read_options(scenario.options)
    setup = read_setup(scenario.setup)
    forces = []
    for unit in scenario.units:
        traits = unit.traits
        weapon = next((w for w in unit.weapons if w in tables.WEAPONS), "")
        forces.append(
            Force(
                name=unit.name,
                side=unit.side,
                kind=unit.kind,
                weapon=weapon,
                start=unit.figures,
                figures=unit.figures,
                leader=unit.leader or "",
                quality=str(traits.get("quality", "regular")),
                shock=bool(traits.get("shock", False)),
                superior=bool(traits.get("superior_firepower", False)),
                ranks=int(str(traits.get("ranks", 1))),
                engineers=bool(traits.get("engineers", False)),
            )
        )
    return GameState(
        title=scenario.title,
        sides=(scenario.sides[0], scenario.sides[1]),
        options=options,
        turn_limit=setup.turn_limit,
        engineering=setup.engineering,
        demolition_target=setup.demolition_target,
        demolition_points=setup.demolition_points,
        turn=1,
        forces=tuple(forces),
        stage="initiative",
    )


# ------------------------------------------------------------------ choices

YES_NO = (Choice("no", "No"), Choice("yes", "Yes"))
NO_YES = YES_NO
YES_FIRST = (Choice("yes", "Yes"), Choice("no", "No"))


def _orders(state: GameState, f: Force) -> tuple[Choice, ...]:
    out: list[Choice] = []
    if f.can_shoot:
        out.append(Choice("shoot", "Shoot"))
    out.append(Choice("move", "Move" if not f.shaken else "Move (no advance)"))
    if f.kind in CHARGING_KINDS and not f.shaken:
        out.append(Choice("charge", "Move & charge"))
    if f.casualties and not state.ctx.no_rally:
        out.append(Choice("rally", "Rally"))
    if f.can_shoot:
        out.append(Choice("hold", "Hold fire"))
    out.append(Choice("stand", "Stand"))
    if state.engineering and f.kind in FOOT_KINDS and f.figures >= 4:
        out.append(Choice("work", "Engineering"))
    if state.demolition_target and not state.demolished and f.engineers and f.kind in FOOT_KINDS:
        out.append(Choice("lay", "Lay charge"))
        if state.charges_laid(f.side):
            out.append(Choice("blow", "Blow charges"))
    return tuple(out)


def _targets(state: GameState, side: str) -> tuple[Choice, ...]:
    return tuple(Choice(f"target:{e.name}", e.name[:18]) for e in state.enemies_of(side))


def _choice(state: GameState) -> AwaitChoice | None:
    ctx = state.ctx
    stage = state.stage
    if stage == "pick_unit":
        ready = [
            f for f in state.forces if f.side == state.active_side and f.in_play and not f.acted
        ]
        options = [Choice(f"unit:{f.name}", f.name[:18]) for f in ready]
        options.append(Choice("done", "End orders"))
        return AwaitChoice(f"{state.active_side}: which unit?", tuple(options), state.active_side)
    if stage == "order":
        return AwaitChoice("Order?", _orders(state, state.force(ctx.actor)), ctx.actor)
    if stage == "charge_target":
        return AwaitChoice(
            "Charge which unit?", _targets(state, state.force(ctx.actor).side), ctx.actor
        )
    if stage == "move_broken":
        return AwaitChoice("Broken ground?", NO_YES, ctx.actor)
    if stage == "move_deploy":
        return AwaitChoice("Deploy guns?", NO_YES, ctx.actor)
    if stage == "move_near":
        return AwaitChoice(ANYONE_WITHIN_6, NO_YES, ctx.actor)
    if stage == "follow_me":
        return AwaitChoice("Follow Me! reroll?", NO_YES, ctx.actor)
    if stage == "contact":
        return AwaitChoice(f"Reached {ctx.target[:9]}?", YES_FIRST, ctx.actor)
    if stage == "rally_near":
        return AwaitChoice(ANYONE_WITHIN_6, NO_YES, ctx.actor)
    if stage == "shoot_target":
        return AwaitChoice("Shoot at?", _targets(state, state.force(ctx.actor).side), ctx.actor)
    if stage == "shoot_range":
        return AwaitChoice(
            "Range?",
            (Choice("close", "Close"), Choice("long", "Long"), Choice("out", "Out of range")),
            ctx.actor,
        )
    if stage == "shoot_cover":
        return AwaitChoice("Target in cover?", NO_YES, ctx.target)
    if stage == "steady_ask":
        return AwaitChoice("Steady! roll?", YES_FIRST, ctx.target)
    if stage == "return_ask":
        return AwaitChoice("Return fire?", YES_FIRST, ctx.target)
    if stage == "work_task":
        return AwaitChoice(
            "Which task?",
            tuple(
                Choice(f"task:{name}", name.replace("_", " ")[:18])
                for name, _ in tables.ENGINEERING_TASKS
            ),
            ctx.actor,
        )
    if stage == "work_difficult":
        return AwaitChoice("Difficult task?", NO_YES, ctx.actor)
    if stage == "volley_ask":
        return AwaitChoice("Volley at chargers?", YES_FIRST, ctx.target)
    if stage == "melee_cover":
        return AwaitChoice("Cover/obstacle/up?", NO_YES, ctx.target)
    if stage == "melee_square":
        return AwaitChoice("Defender in square?", NO_YES, ctx.target)
    if stage in ("come_on_attacker_use", "come_on_defender_use"):
        return AwaitChoice(
            "Come On! use?",
            (Choice("cancel", "Cancel a hit"), Choice("inflict", "Inflict a hit")),
            ctx.actor if stage == "come_on_attacker_use" else ctx.target,
        )
    if stage == "pursue_ask":
        return AwaitChoice("Cavalry pursue?", YES_FIRST, ctx.actor)
    return None


# -------------------------------------------------------------------- rolls


def _roll(state: GameState) -> tuple[Action, Params] | None:
    ctx = state.ctx
    stage = state.stage
    opts = state.options
    if stage == "initiative":
        return WHO_GOES_FIRST, {}
    if stage == "move_roll":
        f = state.force(ctx.actor)
        return MOVE, MOVE.complete_params(
            {
                "kind": f.kind,
                "broken_ground": ctx.broken,
                "deploying_guns": ctx.deploy,
                "shaken": f.shaken,
                "near_enemy": ctx.near_enemy,
                "follow_me": f.has_leader and not ctx.rerolled,
            }
        )
    if stage == "rally_roll":
        f = state.force(ctx.actor)
        return RALLY, RALLY.complete_params(
            {"casualties": f.casualties, "quality": f.quality, "leader_joined": f.has_leader}
        )
    if stage == "shoot_roll":
        shooter = state.force(ctx.actor)
        target = state.force(ctx.target)
        return SHOOT, SHOOT.complete_params(
            {
                "weapon": shooter.weapon,
                "figures": front_rank(shooter.figures, shooter.ranks),
                "range": ctx.range_band,
                "superior": shooter.superior,
                "target_kind": target.kind,
                "in_cover": ctx.cover,
                "odd_figures": opts.odd_figure_dice,
                "natural_six": opts.natural_six_always_hits,
                "difficult_stacks": opts.difficult_target_stacks,
            }
        )
    if stage == "steady_roll":
        return STEADY, STEADY.complete_params({"hits_taken": max(1, ctx.hits)})
    if stage in ("melee_attacker_roll", "melee_defender_roll"):
        attacking = stage == "melee_attacker_roll"
        me = state.force(ctx.actor if attacking else ctx.target)
        enemy = state.force(ctx.target if attacking else ctx.actor)
        square = attacking and ctx.square and me.kind == "cavalry" and enemy.kind == "infantry"
        return CHARGE_DICE, CHARGE_DICE.complete_params(
            {
                "kind": me.kind,
                "figures": me.figures,
                "shock": me.shock,
                "enemy_in_cover": ctx.defender_cover if attacking else False,
                "enemy_in_square": square,
                "odd_figures": opts.odd_figure_dice,
                "natural_six": opts.natural_six_always_hits,
            }
        )
    if stage in ("come_on_attacker_roll", "come_on_defender_roll"):
        return COME_ON, COME_ON.complete_params({})
    if stage == "work_roll":
        f = state.force(ctx.actor)
        return ENGINEERING, ENGINEERING.complete_params(
            {
                "figures": f.figures,
                "points_so_far": min(5, state.work_points(f.side, ctx.task)),
                "task": ctx.task,
            }
        )
    if stage == "blow_roll":
        f = state.force(ctx.actor)
        return DEMOLITION, DEMOLITION.complete_params(
            {
                "charges": state.charges_laid(f.side),
                "target": state.demolition_target,
                "points": state.demolition_points,
            }
        )
    return None


def next_step(state: GameState) -> Step:
    if state.finished:
        return GameOver(winner(state), describe(state))
    choice = _choice(state)
    if choice is not None:
        return choice
    roll = _roll(state)
    if roll is None:
        raise RulesError(f"no step for stage {state.stage!r}")
    action, params = roll
    return AwaitRoll(action.request(params), action.odds(params))


# ---------------------------------------------------------------- the engine


@dataclass(frozen=True)
class _Result:
    state: GameState
    log: tuple[str, ...] = ()
    outcome: Outcome | None = None
    cues: frozenset[str] = frozenset()


def advance(state: GameState, given: GameInput) -> Transition:
    step = next_step(state)
    if isinstance(step, GameOver):
        raise RulesError("the game is over; no more inputs")
    if isinstance(given, ChipDrawn):
        raise RulesError("On the Frontier uses no chips; " + _expected(step))
    if isinstance(step, AwaitChoice):
        if not isinstance(given, Chosen) or given.key not in {o.key for o in step.options}:
            raise RulesError(
                f"{step.prompt} expected one of: " + ", ".join(o.key for o in step.options)
            )
        result = _on_choice(state, given.key)
    elif isinstance(step, AwaitRoll):
        if not isinstance(given, Rolled):
            raise RulesError(f"{step.request.reason}: expected a roll of {step.request.summary()}")
        check_dice(step.request, given.dice)
        roll = _roll(state)
        assert roll is not None
        action, params = roll
        outcome = action.resolve(params, given.dice)
        result = _on_roll(state, outcome, given.dice)
        result = replace(result, outcome=outcome, cues=result.cues | {"dice"})
    else:
        raise RulesError("On the Frontier uses no chips; " + _expected(step))
    settled = _settle(result, state.turn)
    return Transition(settled.state, settled.log, settled.outcome, settled.cues)


def _expected(step: Step) -> str:
    if isinstance(step, AwaitChoice):
        return "expected a choice: " + ", ".join(o.key for o in step.options)
    if isinstance(step, AwaitRoll):
        return f"expected a roll of {step.request.summary()}"
    return "expected nothing"


def _to(state: GameState, stage: str, **ctx: object) -> GameState:
    return replace(state, stage=stage, ctx=replace(state.ctx, **ctx))  # type: ignore[arg-type]


def _finish_activation(state: GameState) -> GameState:
    """The unit has its order for the turn; back to choosing the next unit."""
    return replace(state, stage="pick_unit", ctx=Context())


def _unit_done(state: GameState, name: str, held_fire: bool | None = None) -> GameState:
    f = state.force(name)
    f = replace(f, acted=True, held_fire=f.held_fire if held_fire is None else held_fire)
    return _finish_activation(state.with_force(f))


# ------------------------------------------------------------------ choices


def _on_choice(state: GameState, key: str) -> _Result:
    ctx = state.ctx
    stage = state.stage
    yes = key == "yes"
    if stage == "pick_unit":
        if key == "done":
            log = f"{state.active_side} ends orders; the rest stand"
            return _Result(_next_player(state), (log,))
        name = key.removeprefix("unit:")
        return _Result(replace(state, stage="order", ctx=Context(actor=name)), (f"{name}:",))
    if stage == "order":
        return _on_order(state, key)
    if stage == "charge_target":
        target = key.removeprefix("target:")
        return _Result(
            _to(state, "move_broken", target=target, charging=True),
            (f"{ctx.actor} declares a charge on {target}",),
        )
    if stage == "move_broken":
        f = state.force(ctx.actor)
        if f.kind == "artillery":
            return _Result(_to(state, "move_deploy", broken=yes))
        return _Result(_to(state, "move_roll" if ctx.charging else "move_near", broken=yes))
    if stage == "move_deploy":
        return _Result(_to(state, "move_roll" if ctx.charging else "move_near", deploy=yes))
    if stage == "move_near":
        return _Result(_to(state, "move_roll", near_enemy=yes))
    if stage == "follow_me":
        if yes:
            return _Result(
                _to(state, "move_roll", rerolled=True),
                (f"Follow Me!: {state.force(ctx.actor).leader} has the d6 rerolled",),
            )
        return _after_move(state)
    if stage == "contact":
        if yes:
            charges = (*state.charges, ChargeDeclared(ctx.actor, ctx.target))
            return _Result(
                _unit_done(replace(state, charges=charges), ctx.actor, False),
                (f"{ctx.actor} is in contact with {ctx.target}",),
            )
        return _Result(
            _unit_done(state, ctx.actor, False), (f"{ctx.actor} falls short of {ctx.target}",)
        )
    if stage == "rally_near":
        if yes:
            return _Result(
                _to(state, "order", no_rally=True),
                ('no rally within 6" of the enemy; choose another order',),
            )
        return _Result(_to(state, "rally_roll"))
    if stage == "shoot_target":
        return _Result(_to(state, "shoot_range", target=key.removeprefix("target:")))
    if stage == "shoot_range":
        if key == "out":
            return _after_shot(state, 0, (f"{ctx.target} is out of range: no shot",))
        return _Result(_to(state, "shoot_cover", range_band=key))
    if stage == "shoot_cover":
        return _Result(_to(state, "shoot_roll", cover=yes))
    if stage == "steady_ask":
        if yes:
            return _Result(_to(state, "steady_roll"))
        return _after_steady(state)
    if stage == "return_ask":
        if yes:
            shooter, target = ctx.target, ctx.actor
            return _Result(
                _to(state, "shoot_range", actor=shooter, target=target, returning=True, hits=0),
                (f"{shooter} returns fire at {target}",),
            )
        return _after_return(state)
    if stage == "work_task":
        task = key.removeprefix("task:")
        f = state.force(ctx.actor)
        nxt = "work_roll" if f.engineers else "work_difficult"
        return _Result(_to(state, nxt, task=task))
    if stage == "work_difficult":
        if yes:
            return _Result(
                _to(state, "order"), ("a difficult task needs an engineer; choose another order",)
            )
        return _Result(_to(state, "work_roll"))
    if stage == "volley_ask":
        if yes:
            charger, volley = ctx.actor, ctx.target
            return _Result(
                _to(
                    state,
                    "shoot_cover",
                    actor=volley,
                    target=charger,
                    range_band="close",
                    in_charge=True,
                ),
                (f"{volley} fires a volley at the charging {charger}",),
            )
        return _Result(_to(state, "melee_cover"))
    if stage == "melee_cover":
        attacker = state.force(ctx.actor)
        defender = state.force(ctx.target)
        if attacker.kind == "cavalry" and defender.kind == "infantry":
            return _Result(_to(state, "melee_square", defender_cover=yes))
        return _Result(_to(state, "melee_attacker_roll", defender_cover=yes))
    if stage == "melee_square":
        return _Result(_to(state, "melee_attacker_roll", square=yes))
    if stage in ("come_on_attacker_use", "come_on_defender_use"):
        return _come_on_used(state, stage == "come_on_attacker_use", key)
    if stage == "pursue_ask":
        if yes:
            defender = state.force(ctx.target)
            nxt = "melee_attacker_roll"
            return _Result(
                _to(
                    state,
                    nxt,
                    pursuit=True,
                    defender_cover=False,
                    square=False,
                    attacker_took=0,
                    defender_took=0,
                ),
                (f"{ctx.actor} pursues {defender.name} and attacks again",),
            )
        return _Result(_next_charge(state), (f"{ctx.actor} does not pursue",))
    raise RulesError(f"no choice expected at stage {stage!r}")


def _on_order(state: GameState, key: str) -> _Result:
    name = state.ctx.actor
    f = state.force(name)
    if key == "shoot":
        return _Result(_to(state, "shoot_target"))
    if key == "move":
        lines: tuple[str, ...] = ()
        if f.shaken:
            lines = (f"{name} is shaken: it may not advance",)
        return _Result(_to(state, "move_broken"), lines)
    if key == "charge":
        return _Result(_to(state, "charge_target"))
    if key == "rally":
        return _Result(_to(state, "rally_near"))
    if key == "hold":
        return _Result(_unit_done(state, name, True), (f"{name} holds its fire",))
    if key == "stand":
        return _Result(_unit_done(state, name, False), (f"{name} stands",))
    if key == "work":
        return _Result(_to(state, "work_task"))
    if key == "lay":
        laid = dict(state.laid)
        laid[f.side] = laid.get(f.side, 0) + 1
        new = replace(state, laid=tuple(sorted(laid.items())))
        return _Result(
            _unit_done(new, name, False),
            (f"{name} lays a demolition charge ({laid[f.side]} laid)",),
        )
    if key == "blow":
        return _Result(_to(state, "blow_roll"))
    raise RulesError(f"unknown order {key!r}")


# -------------------------------------------------------------------- rolls


def _on_roll(state: GameState, outcome: Outcome, dice: tuple[int, ...]) -> _Result:
    ctx = state.ctx
    stage = state.stage
    cues: frozenset[str] = frozenset()
    if stage == "initiative":
        if outcome.headline == TIE:
            return _Result(
                state, (f"Turn {state.turn}: initiative tied {dice[0]}-{dice[1]}; roll again",)
            )
        first = outcome.headline - 1
        return _Result(
            replace(state, stage="pick_unit", first=first, player=0),
            (
                f"Turn {state.turn}: {state.sides[0]} {dice[0]}, {state.sides[1]} {dice[1]}: "
                f"{state.sides[first]} goes first",
            ),
        )
    if stage == "move_roll":
        text = f'{ctx.actor} may move {outcome.headline}"'
        new = replace(state, ctx=replace(ctx, hits=outcome.headline))
        if state.force(ctx.actor).has_leader and not ctx.rerolled:
            return _Result(_to(new, "follow_me"), (text, *outcome.details[1:]))
        return _prefix(_after_move(new), (text, *outcome.details[1:]))
    if stage == "rally_roll":
        f = state.force(ctx.actor)
        up, _, gone = rally_counts(dice, rally_modifier(f.quality, f.has_leader))
        f = replace(
            f, figures=f.figures + up, casualties=f.casualties - up - gone, removed=f.removed + gone
        )
        cues = frozenset({"death"}) if gone else frozenset()
        return _Result(
            _unit_done(state.with_force(f), f.name, False),
            (f"{f.name} rallies: {up} back, {gone} removed, {f.casualties} still down",),
            cues=cues,
        )
    if stage == "shoot_roll":
        hits = outcome.headline
        shooter = state.force(ctx.actor)
        state = state.with_force(replace(shooter, held_fire=False))
        return _after_shot(state, hits, (f"{ctx.actor} shoots {ctx.target}: {hits} hits",))
    if stage == "steady_roll":
        target = state.force(ctx.target)
        lines = [f"Steady! ({target.leader}): {outcome.details[0].split(': ', 1)[1]}"]
        if "hit_cancelled" in outcome.effects:
            target = _restore(target, 1)
        if "commander_hit" in outcome.effects:
            target = replace(target, leader_back_turn=state.turn + tables.COMMANDER_AWAY_TURNS)
            cues = frozenset({"death"})
        return _prefix(_after_steady(state.with_force(target)), tuple(lines), cues)
    if stage in ("melee_attacker_roll", "melee_defender_roll"):
        return _melee_rolled(state, stage == "melee_attacker_roll", outcome.headline)
    if stage in ("come_on_attacker_roll", "come_on_defender_roll"):
        attacking = stage == "come_on_attacker_roll"
        me = state.force(ctx.actor if attacking else ctx.target)
        line = f"Come On! ({me.leader} with {me.name}) rolls {dice[0]}"
        if tables.commander_result(tables.COME_ON_TABLE, dice[0]) == "cancel_or_inflict":
            nxt = "come_on_attacker_use" if attacking else "come_on_defender_use"
            return _Result(_to(state, nxt), (line + ": cancel or inflict a hit",))
        if "commander_hit" in outcome.effects:
            me = replace(me, leader_back_turn=state.turn + tables.COMMANDER_AWAY_TURNS)
            state = state.with_force(me)
            line += ": the commander is hit"
            cues = frozenset({"death"})
        else:
            line += ": no effect"
        return _prefix(_after_come_on(state, attacking), (line,), cues)
    if stage == "work_roll":
        f = state.force(ctx.actor)
        total = state.work_points(f.side, ctx.task) + outcome.headline
        work = tuple(w for w in state.work if (w[0], w[1]) != (f.side, ctx.task))
        done = state.works_done
        if total >= tables.ENGINEERING_TASK_POINTS:
            done = (*done, (f.side, ctx.task))
            total -= tables.ENGINEERING_TASK_POINTS
            line = f"{f.name} finishes a {ctx.task.replace('_', ' ')}"
        else:
            line = f"{f.name} works on a {ctx.task.replace('_', ' ')}: {total}/6 points"
        if total:
            work = (*work, (f.side, ctx.task, total))
        new = replace(state, work=work, works_done=done)
        return _Result(_unit_done(new, f.name, False), (line,))
    if stage == "blow_roll":
        f = state.force(ctx.actor)
        laid = tuple(p for p in state.laid if p[0] != f.side)
        breached = "breached" in outcome.effects
        new = replace(state, laid=laid, demolished=breached)
        line = (
            f"{f.name} blows the charges: {outcome.headline} points, the "
            f"{state.demolition_target.replace('_', ' ')} "
            + ("is destroyed" if breached else "holds")
        )
        return _Result(_unit_done(new, f.name, False), (line,))
    raise RulesError(f"no roll expected at stage {stage!r}")


def _prefix(result: _Result, lines: tuple[str, ...], cues: frozenset[str] = frozenset()) -> _Result:
    """Put `lines` before what `result` says, and add `cues`."""
    return replace(result, log=(*lines, *result.log), cues=result.cues | cues)


def _restore(f: Force, hits: int) -> Force:
    """Cancel hits: casualties stand again (a destroyed unit comes back)."""
    back = min(hits, f.casualties)
    return replace(f, figures=f.figures + back, casualties=f.casualties - back)


def _take_hits(f: Force, hits: int) -> Force:
    down = min(hits, f.figures)
    f = replace(f, figures=f.figures - down, casualties=f.casualties + down)
    return f


# ------------------------------------------------------------ move helpers


def _after_move(state: GameState) -> _Result:
    ctx = state.ctx
    if ctx.charging:
        return _Result(_to(state, "contact"))
    return _Result(_unit_done(state, ctx.actor, False))


# --------------------------------------------------------- shooting chain


def _after_shot(state: GameState, hits: int, lines: tuple[str, ...]) -> _Result:
    ctx = state.ctx
    target = state.force(ctx.target)
    target = _take_hits(target, hits)
    state = state.with_force(target)
    cues: frozenset[str] = frozenset({"death"}) if hits else frozenset()
    extra: tuple[str, ...] = ()
    if hits:
        extra = (
            f"{target.name}: {target.figures} standing, {target.casualties} down"
            + (", shaken" if target.shaken and target.figures else "")
            + (", destroyed" if not target.figures else ""),
        )
    state = replace(state, ctx=replace(ctx, hits=hits))
    if hits and target.has_leader:
        return _Result(_to(state, "steady_ask"), lines + extra, cues=cues)
    result = _after_steady(state)
    return replace(result, log=lines + extra + result.log, cues=cues | result.cues)


def _after_steady(state: GameState) -> _Result:
    ctx = state.ctx
    target = state.force(ctx.target)
    if target.figures == 0:
        state = state.with_force(_destroy(target))
    if (
        not ctx.returning
        and not ctx.in_charge
        and target.held_fire
        and target.can_shoot
        and state.force(ctx.actor).in_play
    ):
        return _Result(_to(state, "return_ask"))
    return _after_return(state)


def _destroy(f: Force) -> Force:
    return replace(f, removed=f.removed + f.casualties, casualties=0, routed=True)


def _after_return(state: GameState) -> _Result:
    ctx = state.ctx
    if ctx.in_charge:
        # the volley is over: back to the charge, with attacker and defender restored
        charge = state.charges[0]
        new = replace(state, ctx=Context(actor=charge.attacker, target=charge.defender))
        attacker = new.force(charge.attacker)
        if not attacker.in_play:
            return _prefix(
                _Result(_next_charge(new)), (f"{attacker.name} is stopped before contact",)
            )
        return _Result(replace(new, stage="melee_cover"))
    actor = ctx.target if ctx.returning else ctx.actor
    if ctx.returning:
        # the original shooter's activation ends now
        return _Result(_unit_done(state, ctx.target, False))
    return _Result(_unit_done(state, actor, False))


# ------------------------------------------------------------------ charges


def _start_charges(state: GameState) -> GameState:
    return _open_charge(replace(state, stage="charges", ctx=Context()))


def _open_charge(state: GameState) -> GameState:
    """Set up the first charge still on the list, skipping ones with no one left."""
    while state.charges:
        charge = state.charges[0]
        attacker = state.force(charge.attacker)
        defender = state.force(charge.defender)
        if attacker.in_play and defender.in_play:
            ctx = Context(actor=attacker.name, target=defender.name)
            volley = (
                state.options.held_fire_volley_at_chargers
                and defender.held_fire
                and defender.can_shoot
            )
            return replace(state, ctx=ctx, stage="volley_ask" if volley else "melee_cover")
        state = replace(state, charges=state.charges[1:])
    return _end_turn(state)


def _next_charge(state: GameState) -> GameState:
    return _open_charge(replace(state, charges=state.charges[1:], ctx=Context()))


def _melee_rolled(state: GameState, attacking: bool, hits: int) -> _Result:
    ctx = state.ctx
    if attacking:
        defender = state.force(ctx.target)
        line = f"{ctx.actor} in contact: {hits} hits on {ctx.target}"
        state = replace(state, ctx=replace(ctx, defender_took=hits))
        if ctx.pursuit and defender.routed:
            return _prefix(_after_come_on(state, False), (line,))
        return _Result(_to(state, "melee_defender_roll"), (line,))
    line = f"{ctx.target} in contact: {hits} hits on {ctx.actor}"
    state = replace(state, ctx=replace(ctx, attacker_took=hits))
    if state.force(ctx.actor).has_leader:
        return _Result(_to(state, "come_on_attacker_roll"), (line,))
    return _prefix(_after_come_on(state, True), (line,))


def _come_on_used(state: GameState, attacking: bool, key: str) -> _Result:
    ctx = state.ctx
    if attacking:
        if key == "cancel":
            ctx = replace(ctx, attacker_took=max(0, ctx.attacker_took - 1))
        else:
            ctx = replace(ctx, defender_took=ctx.defender_took + 1)
    elif key == "cancel":
        ctx = replace(ctx, defender_took=max(0, ctx.defender_took - 1))
    else:
        ctx = replace(ctx, attacker_took=ctx.attacker_took + 1)
    who = ctx.actor if attacking else ctx.target
    line = f"Come On!: {who} " + ("cancels a hit" if key == "cancel" else "inflicts a hit")
    return _prefix(_after_come_on(replace(state, ctx=ctx), attacking), (line,))


def _after_come_on(state: GameState, attacking: bool) -> _Result:
    ctx = state.ctx
    defender = state.force(ctx.target)
    if attacking and defender.has_leader and not defender.routed:
        return _Result(_to(state, "come_on_defender_roll"))
    return _apply_charge_result(state)


def _apply_charge_result(state: GameState) -> _Result:
    ctx = state.ctx
    attacker = _take_hits(state.force(ctx.actor), ctx.attacker_took)
    defender_before = state.force(ctx.target)
    if defender_before.routed:
        # pursuit into a routed unit: the hits fall on the runaways
        down = min(ctx.defender_took, defender_before.figures)
        defender = replace(
            defender_before,
            figures=defender_before.figures - down,
            removed=defender_before.removed + down,
        )
        state = state.with_force(defender)
        return _Result(
            _next_charge(state),
            (f"{ctx.actor} cuts down {down} of the routed {defender.name}",),
            cues=frozenset({"death"}) if down else frozenset(),
        )
    defender = _take_hits(defender_before, ctx.defender_took)
    result = charge_result(ctx.attacker_took, ctx.defender_took, attacker.shaken, defender.shaken)
    lines = [
        f"result: {ctx.actor} took {ctx.attacker_took}, {ctx.target} took {ctx.defender_took}",
        *result.lines,
    ]
    cues: set[str] = set()
    if ctx.attacker_took or ctx.defender_took:
        cues.add("death")
    if result.attacker_moves == "routs" or not attacker.figures:
        attacker = _destroy(attacker)
        cues.add("resolve_failed")
    if result.defender_moves == "routs" or not defender.figures:
        defender = _destroy(defender)
        cues.add("resolve_failed")
    state = state.with_force(attacker).with_force(defender)
    if (
        result.loser == "defender"
        and attacker.kind == "cavalry"
        and attacker.in_play
        and not ctx.pursuit
    ):
        lines.append(f"{defender.name} gives ground: {attacker.name} may pursue")
        return _Result(_to(state, "pursue_ask"), tuple(lines), cues=frozenset(cues))
    if result.loser == "defender" and attacker.in_play:
        lines.append(f"{attacker.name} may occupy the position")
    return _Result(_next_charge(state), tuple(lines), cues=frozenset(cues))


# ------------------------------------------------------------- turn changes


def _next_player(state: GameState) -> GameState:
    state = replace(state, ctx=Context())
    if state.player == 0:
        return replace(state, player=1, stage="pick_unit")
    return _start_charges(state)


def _end_turn(state: GameState) -> GameState:
    forces = []
    for f in state.forces:
        back = 0 if 0 < f.leader_back_turn <= state.turn else f.leader_back_turn
        forces.append(replace(f, acted=False, leader_back_turn=back))
    state = replace(state, forces=tuple(forces), charges=(), ctx=Context(), player=0)
    if state.turn >= state.turn_limit:
        return replace(state, finished=True, stage="over")
    return replace(state, turn=state.turn + 1, stage="initiative")


def _settle(result: _Result, turn: int) -> _Result:
    """Run the automatic steps: empty order lists, game over, turn end."""
    state = result.state
    log = list(result.log)
    cues = set(result.cues)
    for _ in range(100):
        if not state.finished and any(
            not any(f.in_play for f in state.forces if f.side == side) for side in state.sides
        ):
            state = replace(state, finished=True, stage="side_gone")
        if state.finished:
            break
        if state.stage == "pick_unit" and not any(
            f.side == state.active_side and f.in_play and not f.acted for f in state.forces
        ):
            state = _next_player(state)
            continue
        break
    turn_over = state.turn != turn or (state.finished and state.stage == "over")
    if turn_over and not any(line.startswith("End of turn") for line in log):
        log.append(f"End of turn {turn}")
        cues.add("turn_end")
    if state.finished and "game_over" not in cues:
        cues.add("game_over")
        w = winner(state)
        log.append("Game over: " + (f"{w} wins" if w else "a draw"))
    return _Result(state, tuple(log), result.outcome, frozenset(cues))


# ----------------------------------------------------------------- summary


def strength(state: GameState, side: str) -> tuple[int, int]:
    """Figures still standing in units in play, and figures the side started with."""
    standing = sum(f.figures for f in state.forces if f.side == side and f.in_play)
    started = sum(f.start for f in state.forces if f.side == side)
    return standing, started


def winner(state: GameState) -> str | None:
    """The side keeping the larger share of its starting figures in the ranks."""
    (a_now, a_start), (b_now, b_start) = (strength(state, s) for s in state.sides)
    left = a_now * b_start
    right = b_now * a_start
    if left > right:
        return state.sides[0]
    if right > left:
        return state.sides[1]
    return None


def describe(state: GameState) -> tuple[str, ...]:
    if state.finished:
        head = f"{state.title}: game over after turn {state.turn}"
    else:
        head = f"{state.title}: turn {state.turn}/{state.turn_limit}, {state.stage}"
        if state.stage != "initiative":
            head += f", {state.active_side} to act"
    lines = [head]
    for side in state.sides:
        now, started = strength(state, side)
        lines.append(f"{side}: {now}/{started} figures standing")
    for f in state.forces:
        status = []
        if f.routed:
            status.append("routed" if f.figures else "destroyed")
        elif f.shaken:
            status.append("shaken")
        if f.held_fire and f.in_play:
            status.append("holding fire")
        if f.leader and f.leader_back_turn:
            status.append(f"{f.leader} away till end of turn {f.leader_back_turn}")
        extra = f" ({', '.join(status)})" if status else ""
        lines.append(
            f"  {f.name}: {f.figures}/{f.start} up, {f.casualties} down, {f.removed} lost{extra}"
        )
    for side, task in state.works_done:
        lines.append(f"  {side} built: {task.replace('_', ' ')}")
    if state.demolished:
        lines.append(f"  the {state.demolition_target.replace('_', ' ')} is destroyed")
    return tuple(lines)
