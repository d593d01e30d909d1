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
    Choice,
    Chosen,
    GameInput,
    GameOver,
    Outcome,
    Params,
    Rolled,
    RollRequest,
    RulesError,
    Scenario,
    Step,
    Transition,
    await_stage,
    check_input,
    counted,
    larger_share_kept,
    resolve_stage_roll,
    unit_choices,
)
from companion.rules.grammar import agree, plural_name
from companion.rules.on_the_frontier import tables
from companion.rules.on_the_frontier.charges import CHARGE_DICE, COME_ON, charge_result
from companion.rules.on_the_frontier.engineering import DEMOLITION, ENGINEERING
from companion.rules.on_the_frontier.initiative import TIE, WHO_GOES_FIRST, initiative_outcome
from companion.rules.on_the_frontier.movement import MOVE
from companion.rules.on_the_frontier.rally import RALLY, rally_counts, rally_modifier
from companion.rules.on_the_frontier.scenario import Options, read_options, read_setup
from companion.rules.on_the_frontier.shooting import SHOOT, STEADY, dice_for_figures, front_rank

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
    guns: int = 1  # artillery: guns in the unit, for the per-gun reading of contact dice
    # Artillery only: the guns are hitched up to move, not deployed to fire. A move
    # that ends deploying (the -4") unlimbers them; any other move leaves them limbered.
    limbered: bool = False
    joined: str = ""  # a commander unit that has joined this unit (Follow Me!)

    @property
    def on_table(self) -> bool:
        """Still on the table with someone standing (a joined commander included)."""
        return not self.routed and self.figures > 0

    @property
    def in_play(self) -> bool:
        """Acts, shoots, charges and can be targeted on its own."""
        return self.on_table and not self.joined

    @property
    def shaken(self) -> bool:
        """Below half strength: may not advance or shoot, routs if it loses a melee."""
        return self.figures * 2 < self.start

    @property
    def has_leader(self) -> bool:
        return bool(self.leader) and self.leader_back_turn == 0


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
    no_work: bool = False
    joining: bool = False  # a commander moving to join ctx.target
    task: str = ""
    attacker_took: int = 0
    defender_took: int = 0
    defender_cover: bool = False  # the defender in cover, behind an obstacle or uphill
    attacker_uphill: bool = False  # the attacker came down on the defender from above
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
    engineering: tuple[str, ...]  # sides whose foot may do engineering work
    demolition_target: str
    demolition_points: int
    turn: int
    forces: tuple[Force, ...]
    stage: str
    first: int = 0  # index in sides of this turn's first player
    player: int = 0  # 0 while the first player gives orders, 1 the second
    ctx: Context = Context()
    charges: tuple[ChargeDeclared, ...] = ()
    gave_ground: tuple[str, ...] = ()  # units that retreated or fell back in this turn's charges
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

    def engaged(self, name: str) -> bool:
        """Contacted by a charge this turn: it stays to be fought, it does not walk away."""
        return any(c.defender == name for c in self.charges)

    def charges_laid(self, side: str) -> int:
        return dict(self.laid).get(side, 0)

    def work_points(self, side: str, task: str) -> int:
        for s, t, p in self.work:
            if s == side and t == task:
                return p
        return 0


def _one_man(state: GameState, name: str) -> bool:
    """A commander is one man, whatever his name."""
    return any(f.name == name and f.kind == "commander" for f in state.forces)


def _plural(state: GameState, name: str) -> bool:
    return plural_name(name) and not _one_man(state, name)


def _agree(state: GameState, name: str, singular: str, plural: str) -> str:
    """The unit's name and the verb phrase that agrees with it."""
    return agree(name, singular, plural, one=_one_man(state, name))


def start(scenario: Scenario) -> GameState:
    options = read_options(scenario.options)
    setup = read_setup(scenario.setup, scenario.sides)
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
                guns=int(str(traits.get("guns", 1))),
                limbered=bool(traits.get("limbered", False)),
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

NO_YES = (Choice("no", "No"), Choice("yes", "Yes"))
YES_FIRST = (Choice("yes", "Yes"), Choice("no", "No"))
# Who has the advantage of ground in a charge: the defender in cover, behind an obstacle
# or uphill, or the attacker coming down from higher ground.
GROUND_PROMPT = "Who has the ground?"
COVER_CHOICES = (
    Choice("none", "Neither"),
    Choice("defender", "Defender: cover/up"),
    Choice("attacker", "Attacker: uphill"),
)


def firing_figures(f: Force) -> int:
    """Only the front rank shoots (guns are never in ranks: every gunner counts)."""
    return front_rank(f.figures, f.ranks)


def shooting_dice(state: GameState, f: Force) -> int:
    if not f.weapon:
        return 0
    row = tables.weapon_row(f.weapon)
    return dice_for_figures(firing_figures(f), row.figures_per_die, state.options.odd_figure_dice)


def can_shoot(state: GameState, f: Force) -> bool:
    """Not shaken, guns deployed, and enough figures in the front rank for one die."""
    return f.in_play and not f.shaken and not f.limbered and shooting_dice(state, f) > 0


def can_hold_fire(state: GameState, f: Force) -> bool:
    if state.options.hold_fire_kinds == "infantry_and_skirmishers":
        return can_shoot(state, f) and f.kind in tables.HOLD_FIRE_KINDS
    return can_shoot(state, f)


def _joinable(state: GameState, commander: Force) -> tuple[Force, ...]:
    """Friendly units a commander unit may join: in play, not commanders, none present."""
    return tuple(
        f
        for f in state.forces
        if f.side == commander.side and f.in_play and f.kind != "commander" and not f.has_leader
    )


def _orders(state: GameState, f: Force) -> tuple[Choice, ...]:
    if state.engaged(f.name):
        # contacted by a charge: it stands to fight (and may keep its fire for the chargers)
        held = (Choice("hold", "Hold fire"),) if can_hold_fire(state, f) else ()
        return (Choice("stand", "Stand and fight"), *held)
    out: list[Choice] = []
    charge = Choice("charge", "Move & charge")
    may_charge = f.kind in tables.CHARGING_KINDS and not f.shaken
    if can_shoot(state, f):
        out.append(Choice("shoot", "Shoot"))
    elif may_charge:
        out.append(charge)  # a unit that cannot shoot leads with its charge
    out.append(Choice("move", "Move" if not f.shaken else "Move (no advance)"))
    if may_charge and charge not in out:
        out.append(charge)
    if f.kind == "commander" and _joinable(state, f):
        out.append(Choice("join", "Join a unit"))
    if f.casualties and not state.ctx.no_rally:
        out.append(Choice("rally", "Rally"))
    if can_hold_fire(state, f):
        out.append(Choice("hold", "Hold fire"))
    out.append(Choice("stand", "Stand"))
    if (
        f.side in state.engineering
        and f.kind in tables.FOOT_KINDS
        and f.figures >= tables.ENGINEERING_FIGURES_PER_DIE
        and not state.ctx.no_work
    ):
        out.append(Choice("work", "Engineering"))
    if state.demolition_target and not state.demolished and f.engineers:
        out.append(Choice("lay", "Lay charge"))
        if state.charges_laid(f.side):
            out.append(Choice("blow", "Blow charges"))
    return tuple(out)


def _targets(state: GameState, side: str) -> tuple[Choice, ...]:
    return unit_choices("target", state.enemies_of(side))


def _range_choices(state: GameState, shooter: Force) -> tuple[Choice, ...]:
    row = tables.weapon_row(shooter.weapon)
    return (
        Choice("close", f'Close, to {row.close_inches}"'),
        Choice("long", f'Long, to {row.long_inches}"'),
        Choice("out", "Out of range"),
    )


def _choice(state: GameState) -> AwaitChoice | None:
    ctx = state.ctx
    stage = state.stage
    if stage == "pick_unit":
        ready = [
            f for f in state.forces if f.side == state.active_side and f.in_play and not f.acted
        ]
        options = (*unit_choices("unit", ready), Choice("done", "End orders"))
        return AwaitChoice(f"{state.active_side}: which unit?", options, state.active_side)
    if stage == "order":
        actor = state.force(ctx.actor)
        prompt = "Order?"
        if state.engaged(ctx.actor):
            prompt = "Charged: order?"
        elif actor.limbered:
            prompt = "Limbered: order?"  # why Shoot is missing: a move must deploy first
        return AwaitChoice(prompt, _orders(state, actor), ctx.actor)
    if stage == "charge_target":
        return AwaitChoice(
            "Charge which unit?", _targets(state, state.force(ctx.actor).side), ctx.actor
        )
    if stage == "join_target":
        joinable = _joinable(state, state.force(ctx.actor))
        return AwaitChoice("Join which unit?", unit_choices("join", joinable), ctx.actor)
    if stage == "move_broken":
        return AwaitChoice("Broken ground?", NO_YES, ctx.actor)
    if stage == "move_deploy":
        return AwaitChoice("Deploy guns?", NO_YES, ctx.actor)
    if stage == "move_near":
        return AwaitChoice(ANYONE_WITHIN_6, NO_YES, ctx.actor)
    if stage == "follow_me":
        return AwaitChoice("Follow Me! reroll?", NO_YES, ctx.actor)
    if stage == "contact":
        return AwaitChoice(f"Reached {ctx.target}?", YES_FIRST, ctx.actor)
    if stage == "rally_near":
        return AwaitChoice(ANYONE_WITHIN_6, NO_YES, ctx.actor)
    if stage == "shoot_target":
        return AwaitChoice("Shoot at?", _targets(state, state.force(ctx.actor).side), ctx.actor)
    if stage == "shoot_range":
        return AwaitChoice("Range?", _range_choices(state, state.force(ctx.actor)), ctx.actor)
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
                Choice(f"task:{name}", name.replace("_", " ").capitalize())
                for name, _ in tables.ENGINEERING_TASKS
            ),
            ctx.actor,
        )
    if stage == "work_difficult":
        return AwaitChoice("Difficult task?", NO_YES, ctx.actor)
    if stage == "work_engineer":
        return AwaitChoice("Engineer present?", YES_FIRST, ctx.actor)
    if stage == "volley_ask":
        return AwaitChoice("Volley at chargers?", YES_FIRST, ctx.target)
    if stage == "melee_cover":
        return AwaitChoice(GROUND_PROMPT, COVER_CHOICES, ctx.target)
    if stage == "melee_square":
        return AwaitChoice("Defender in square?", NO_YES, ctx.target)
    if stage in ("come_on_attacker_use", "come_on_defender_use"):
        return AwaitChoice(
            "Come On! use?",
            (Choice("cancel", "Cancel a hit"), Choice("inflict", "Inflict a hit")),
            ctx.actor if stage == "come_on_attacker_use" else ctx.target,
        )
    if stage == "pursue_ask":
        return AwaitChoice(f"Pursue {ctx.target}?", YES_FIRST, ctx.actor)
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
                "figures": firing_figures(shooter),
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
                "enemy_in_cover": ctx.defender_cover if attacking else ctx.attacker_uphill,
                "enemy_in_square": square,
                "odd_figures": opts.odd_figure_dice,
                "natural_six": opts.natural_six_always_hits,
                "artillery_dice": opts.artillery_contact_dice,
                "guns": me.guns,
            }
        )
    if stage in ("come_on_attacker_roll", "come_on_defender_roll"):
        # the player picks cancel or inflict after seeing a 5-6
        return COME_ON, COME_ON.complete_params({"use": "either"})
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
    step = await_stage(state, _choice, _roll, roll_off_stage="initiative")
    if isinstance(step, AwaitRoll):
        step = replace(step, request=replace(step.request, reason=_reason(state, step.request)))
    return step


def _reason(state: GameState, request: RollRequest) -> str:
    """The roll's reason naming who rolls: in a charge both sides roll in turn with no
    menu between, so the screen and the play-by-play must say whose dice these are."""
    ctx = state.ctx
    stage = state.stage
    if stage == "shoot_roll":
        return f"{ctx.actor} at {ctx.target}: {request.reason}"
    if stage == "melee_attacker_roll":
        return f"{ctx.actor} at {ctx.target}: {request.reason}"
    if stage == "melee_defender_roll":
        return f"{ctx.target} at {ctx.actor}: {request.reason}"
    if stage == "steady_roll":
        target = state.force(ctx.target)
        return f"Steady!: {target.leader} with {target.name} may roll"
    if stage in ("come_on_attacker_roll", "come_on_defender_roll"):
        me = state.force(ctx.actor if stage == "come_on_attacker_roll" else ctx.target)
        return f"Come On!: {me.leader} with {me.name} must roll"
    return request.reason


# ---------------------------------------------------------------- the engine


@dataclass(frozen=True)
class _Result:
    state: GameState
    log: tuple[str, ...] = ()
    outcome: Outcome | None = None
    cues: frozenset[str] = frozenset()


def advance(state: GameState, given: GameInput) -> Transition:
    check_input(next_step(state), given)
    if isinstance(given, Chosen):
        result = _on_choice(state, given.key)
    else:
        assert isinstance(given, Rolled)
        outcome = resolve_stage_roll(state, _roll, given.dice)
        if state.stage == "initiative":
            # the roll's line names the sides, as its dice on the screen do
            outcome = initiative_outcome({}, given.dice, state.sides)
        result = _on_roll(state, outcome, given.dice)
        result = replace(result, outcome=outcome, cues=result.cues | {"dice"})
    settled = _settle(result, state.turn)
    return Transition(settled.state, settled.log, settled.outcome, settled.cues)


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
            log = (
                agree(state.active_side, "ends its orders", "end their orders") + "; the rest stand"
            )
            return _prefix(_next_player(state), (log,))
        name = key.removeprefix("unit:")
        return _Result(replace(state, stage="order", ctx=Context(actor=name)), ())
    if stage == "order":
        return _on_order(state, key)
    if stage == "charge_target":
        target = key.removeprefix("target:")
        return _Result(
            _to(state, "move_broken", target=target, charging=True),
            (_agree(state, ctx.actor, "declares", "declare") + f" a charge on {target}",),
        )
    if stage == "join_target":
        target = key.removeprefix("join:")
        return _Result(
            _to(state, "move_broken", target=target, joining=True),
            (f"{ctx.actor} rides to join {target}",),
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
        if yes and ctx.joining:
            return _join(state)
        if yes:
            charges = (*state.charges, ChargeDeclared(ctx.actor, ctx.target))
            return _Result(
                _unit_done(replace(state, charges=charges), ctx.actor, False),
                (_agree(state, ctx.actor, "is", "are") + f" in contact with {ctx.target}",),
            )
        return _Result(
            _unit_done(state, ctx.actor, False),
            (_agree(state, ctx.actor, "falls", "fall") + f" short of {ctx.target}",),
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
            # no shot is fired, so there is nothing to steady against or to return
            out = _agree(state, ctx.target, "is", "are") + f" out of range of {ctx.actor}: no shot"
            return _prefix(_after_return(state), (out,))
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
                (_agree(state, shooter, "returns", "return") + f" fire at {target}",),
            )
        return _after_return(state)
    if stage == "work_task":
        task = key.removeprefix("task:")
        f = state.force(ctx.actor)
        nxt = "work_roll" if f.engineers else "work_difficult"
        return _Result(_to(state, nxt, task=task))
    if stage == "work_difficult":
        return _Result(_to(state, "work_engineer" if yes else "work_roll"))
    if stage == "work_engineer":
        if yes:
            return _Result(_to(state, "work_roll"))
        return _Result(
            _to(state, "order", no_work=True),
            ("a difficult task needs an engineer present; choose another order",),
        )
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
                (_agree(state, volley, "fires", "fire") + f" a volley at the charging {charger}",),
            )
        return _Result(_to(state, "melee_cover"))
    if stage == "melee_cover":
        attacker = state.force(ctx.actor)
        defender = state.force(ctx.target)
        cover = {"defender_cover": key == "defender", "attacker_uphill": key == "attacker"}
        if attacker.kind == "cavalry" and defender.kind == "infantry":
            return _Result(_to(state, "melee_square", **cover))
        return _Result(_to(state, "melee_attacker_roll", **cover))
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
                    attacker_uphill=False,
                    square=False,
                    attacker_took=0,
                    defender_took=0,
                ),
                (
                    _agree(state, ctx.actor, "pursues", "pursue")
                    + f" {defender.name} and "
                    + ("attack" if _plural(state, ctx.actor) else "attacks")
                    + " again",
                ),
            )
        return _prefix(
            _next_charge(state), (_agree(state, ctx.actor, "does not", "do not") + " pursue",)
        )
    raise RulesError(f"no choice expected at stage {stage!r}")


def _join(state: GameState) -> _Result:
    """Follow Me!: the commander becomes the unit's leader and moves with it from now on."""
    ctx = state.ctx
    commander = replace(state.force(ctx.actor), joined=ctx.target, acted=True)
    unit = replace(state.force(ctx.target), leader=commander.name, leader_back_turn=0)
    state = state.with_force(commander).with_force(unit)
    return _Result(_finish_activation(state), (f"{commander.name} joins {unit.name}",))


def _on_order(state: GameState, key: str) -> _Result:
    name = state.ctx.actor
    f = state.force(name)
    if key == "shoot":
        return _Result(_to(state, "shoot_target"))
    if key == "move":
        lines: tuple[str, ...] = ()
        if f.shaken:
            lines = (_agree(state, name, "is shaken: it", "are shaken: they") + " may not advance",)
        return _Result(_to(state, "move_broken"), lines)
    if key == "charge":
        return _Result(_to(state, "charge_target"))
    if key == "join":
        return _Result(_to(state, "join_target"))
    if key == "rally":
        return _Result(_to(state, "rally_near"))
    if key == "hold":
        line = _agree(state, name, "holds its", "hold their") + " fire"
        return _Result(_unit_done(state, name, True), (line,))
    if key == "stand":
        line = _agree(state, name, "stands", "stand")
        if state.engaged(name):
            line += " to meet the charge"
        return _Result(_unit_done(state, name, False), (line,))
    if key == "work":
        return _Result(_to(state, "work_task"))
    if key == "lay":
        laid = dict(state.laid)
        laid[f.side] = laid.get(f.side, 0) + 1
        new = replace(state, laid=tuple(sorted(laid.items())))
        return _Result(
            _unit_done(new, name, False),
            (_agree(state, name, "lays", "lay") + f" a demolition charge ({laid[f.side]} laid)",),
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
                + agree(state.sides[first], "goes", "go")
                + " first",
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
            (
                _agree(state, f.name, "rallies", "rally")
                + f": {up} back, {gone} removed, {f.casualties} still down",
            ),
            cues=cues,
        )
    if stage == "shoot_roll":
        hits = outcome.headline
        shooter = state.force(ctx.actor)
        state = state.with_force(replace(shooter, held_fire=False))
        line = (
            _agree(state, ctx.actor, "shoots", "shoot") + f" {ctx.target}: {counted(hits, 'hit')}"
        )
        return _after_shot(state, hits, (line,))
    if stage == "steady_roll":
        target = state.force(ctx.target)
        lines = [f"Steady! ({target.leader}): {outcome.details[0].split(': ', 1)[1]}"]
        if "hit_cancelled" in outcome.effects:
            target = _restore(target, 1)
            lines.append(_standing(target))
        state = state.with_force(target)
        if "commander_hit" in outcome.effects:
            state, hit = _commander_hit(state, target.name)
            lines[0] = f"Steady! ({target.leader}): {hit}"
            cues = frozenset({"death"})
        return _prefix(_after_steady(state), tuple(lines), cues)
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
            state, hit = _commander_hit(state, me.name)
            line += f": {hit}"
            cues = frozenset({"death"})
        else:
            line += ": no effect"
        return _prefix(_after_come_on(state, attacking), (line,), cues)
    if stage == "work_roll":
        f = state.force(ctx.actor)
        # every 6 points finishes one task of that kind; the rest stays on the next one,
        # unless the scenario reads the surplus as wasted
        finished, left = divmod(
            state.work_points(f.side, ctx.task) + outcome.headline, tables.ENGINEERING_TASK_POINTS
        )
        if finished and state.options.engineering_surplus == "lost":
            finished, left = 1, 0
        work = tuple(w for w in state.work if (w[0], w[1]) != (f.side, ctx.task))
        if left:
            work = (*work, (f.side, ctx.task, left))
        what = task_text(ctx.task)
        if finished:
            line = _agree(state, f.name, "completes", "complete") + f": {what}"
            line += f" (x{finished})" if finished > 1 else ""
            if left:
                line += f"; {left}/{tables.ENGINEERING_TASK_POINTS} towards the next"
        else:
            line = _agree(state, f.name, "works", "work") + f" at: {what}, "
            line += f"{left}/{tables.ENGINEERING_TASK_POINTS} points"
        done = state.works_done + ((f.side, ctx.task),) * finished
        new = replace(state, work=work, works_done=done)
        return _Result(_unit_done(new, f.name, False), (line,))
    if stage == "blow_roll":
        f = state.force(ctx.actor)
        laid = tuple(p for p in state.laid if p[0] != f.side)
        breached = "breached" in outcome.effects
        new = replace(state, laid=laid, demolished=breached)
        line = (
            _agree(state, f.name, "blows", "blow")
            + f" the charges: {counted(outcome.headline, 'point')}, the "
            f"{state.demolition_target.replace('_', ' ')} "
            + ("is destroyed" if breached else "holds")
        )
        return _Result(_unit_done(new, f.name, False), (line,))
    raise RulesError(f"no roll expected at stage {stage!r}")


def task_text(task: str) -> str:
    return dict(tables.ENGINEERING_TASKS)[task]


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
    if ctx.charging or ctx.joining:
        return _Result(_to(state, "contact"))
    f = state.force(ctx.actor)
    if f.kind != "artillery":
        return _Result(_unit_done(state, ctx.actor, False))
    # guns move hitched up: only a move that pays the 4" to deploy ends ready to fire
    state = state.with_force(replace(f, limbered=not ctx.deploy))
    if ctx.deploy:
        line = _agree(state, f.name, "deploys", "deploy") + ": may shoot from the next order"
    else:
        line = (
            _agree(state, f.name, "is", "are")
            + ' limbered: no shooting until a move ends deploying (-4")'
        )
    return _Result(_unit_done(state, ctx.actor, False), (line,))


# --------------------------------------------------------- shooting chain


def _after_shot(state: GameState, hits: int, lines: tuple[str, ...]) -> _Result:
    ctx = state.ctx
    target = state.force(ctx.target)
    target = _take_hits(target, hits)
    state = state.with_force(target)
    cues: frozenset[str] = frozenset({"death"}) if hits else frozenset()
    extra: tuple[str, ...] = ()
    if hits:
        extra = (_standing(target),)
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
        target = state.force(ctx.target)
    if (
        not ctx.returning
        and not ctx.in_charge
        and target.held_fire
        and can_shoot(state, target)
        and state.force(ctx.actor).in_play
    ):
        return _Result(_to(state, "return_ask"))
    return _after_return(state)


def _commander_hit(state: GameState, unit_name: str) -> tuple[GameState, str]:
    """The unit's commander is hit; a replacement takes over at the end of the next turn.

    A commander unit that had joined the unit is a figure on the table: the hit takes
    him off it (his replacement leads the unit, not a new figure)."""
    unit = state.force(unit_name)
    back = state.turn + tables.COMMANDER_AWAY_TURNS
    state = state.with_force(replace(unit, leader_back_turn=back))
    leaves = ""
    for f in state.forces:
        if f.kind == "commander" and f.joined == unit_name and f.name == unit.leader:
            state = state.with_force(
                replace(f, figures=0, removed=f.removed + f.figures, routed=True)
            )
            leaves = " and leaves the table"
    return state, f"{unit.leader} is hit{leaves}; a replacement arrives at the end of turn {back}"


def _standing(f: Force) -> str:
    """What the table should show of a unit that took hits: figures up and down."""
    return (
        f"{f.name}: {f.figures} standing, {f.casualties} down"
        + (", shaken" if f.shaken and f.figures else "")
        + (", destroyed" if not f.figures else "")
    )


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
            stopped = _agree(new, attacker.name, "is", "are") + " stopped before contact"
            return _prefix(_next_charge(new), (stopped,))
        return _Result(replace(new, stage="melee_cover"))
    # return fire ends the original shooter's activation
    return _Result(_unit_done(state, ctx.target if ctx.returning else ctx.actor, False))


# ------------------------------------------------------------------ charges


def _open_charge(state: GameState) -> _Result:
    """Set up the first charge still on the list; say why any before it lapsed."""
    lines: list[str] = []
    while state.charges:
        charge = state.charges[0]
        attacker = state.force(charge.attacker)
        defender = state.force(charge.defender)
        if not attacker.in_play:
            lines.append(
                _agree(state, attacker.name, "is", "are")
                + " no longer in play: "
                + ("their" if _plural(state, attacker.name) else "its")
                + " charge lapses"
            )
        elif not defender.in_play:
            lines.append(
                _agree(state, defender.name, "is", "are")
                + f" gone: {attacker.name} may occupy the position"
            )
        elif defender.name in state.gave_ground:
            lines.append(
                _agree(state, defender.name, "has", "have")
                + f" already given ground: {attacker.name} may occupy the position"
            )
        else:
            ctx = Context(actor=attacker.name, target=defender.name)
            volley = (
                state.options.held_fire_volley_at_chargers
                and defender.held_fire
                and can_shoot(state, defender)
            )
            stage = "volley_ask" if volley else "melee_cover"
            lines.append(f"Charge: {attacker.name} against {defender.name}")
            return _Result(replace(state, ctx=ctx, stage=stage), tuple(lines))
        state = replace(state, charges=state.charges[1:])
    state, back = _end_turn(state)
    return _Result(state, (*lines, *back))


def _next_charge(state: GameState) -> _Result:
    return _open_charge(replace(state, charges=state.charges[1:], ctx=Context()))


def _melee_rolled(state: GameState, attacking: bool, hits: int) -> _Result:
    ctx = state.ctx
    if attacking:
        defender = state.force(ctx.target)
        line = f"{ctx.actor} in contact: {counted(hits, 'hit')} on {ctx.target}"
        state = replace(state, ctx=replace(ctx, defender_took=hits))
        if ctx.pursuit and defender.routed:
            # routers roll nothing back, but the pursuer's commander must still roll Come On!
            return _come_on_then_result(state, (line,))
        return _Result(_to(state, "melee_defender_roll"), (line,))
    line = f"{ctx.target} in contact: {counted(hits, 'hit')} on {ctx.actor}"
    return _come_on_then_result(replace(state, ctx=replace(ctx, attacker_took=hits)), (line,))


def _come_on_then_result(state: GameState, lines: tuple[str, ...]) -> _Result:
    """The contact dice are in: Come On! for the attacker's commander, then the defender's."""
    if state.force(state.ctx.actor).has_leader:
        return _Result(_to(state, "come_on_attacker_roll"), lines)
    return _prefix(_after_come_on(state, True), lines)


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
    line = (
        "Come On!: "
        + (
            _agree(state, who, "cancels", "cancel")
            if key == "cancel"
            else _agree(state, who, "inflicts", "inflict")
        )
        + " a hit"
    )
    return _prefix(_after_come_on(replace(state, ctx=ctx), attacking), (line,))


def _after_come_on(state: GameState, attacking: bool) -> _Result:
    ctx = state.ctx
    defender = state.force(ctx.target)
    if attacking and defender.has_leader and not defender.routed:
        return _Result(_to(state, "come_on_defender_roll"))
    return _apply_charge_result(state)


def _apply_charge_result(state: GameState) -> _Result:
    ctx = state.ctx
    attacker_before = state.force(ctx.actor)
    attacker = _take_hits(attacker_before, ctx.attacker_took)
    defender_before = state.force(ctx.target)
    if defender_before.routed:
        # pursuit into a routed unit: the hits fall on the runaways
        down = min(ctx.defender_took, defender_before.figures)
        defender = replace(
            defender_before,
            figures=defender_before.figures - down,
            removed=defender_before.removed + down,
        )
        return _prefix(
            _next_charge(state.with_force(defender)),
            (
                _agree(state, ctx.actor, "cuts", "cut")
                + f" down {down} of the routed {defender.name}",
            ),
            frozenset({"death"}) if down else frozenset(),
        )
    defender = _take_hits(defender_before, ctx.defender_took)
    judged_before = state.options.shaken_rout_check == "before_hits"
    result = charge_result(
        ctx.attacker_took,
        ctx.defender_took,
        (attacker_before if judged_before else attacker).shaken,
        (defender_before if judged_before else defender).shaken,
        attacker=ctx.actor,
        defender=ctx.target,
    )
    lines = [
        f"result: {ctx.actor} took {ctx.attacker_took}, {ctx.target} took {ctx.defender_took}",
        # the hits are laid down before anyone moves: what stands, for the table
        *(
            _standing(f)
            for f, took in ((attacker, ctx.attacker_took), (defender, ctx.defender_took))
            if took
        ),
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
    if state.options.retreat_limbers_guns:
        attacker, attacker_limbers = _limber_to_retreat(attacker, result.attacker_moves)
        defender, defender_limbers = _limber_to_retreat(defender, result.defender_moves)
        lines.extend(
            _agree(state, f.name, "limbers", "limber") + " to go back: no shooting until a "
            'move ends deploying (-4")'
            for f, limbers in ((attacker, attacker_limbers), (defender, defender_limbers))
            if limbers
        )
    moved = tuple(
        f.name
        for f, moves in ((attacker, result.attacker_moves), (defender, result.defender_moves))
        if moves != "stands"
    )
    state = replace(
        state.with_force(attacker).with_force(defender), gave_ground=state.gave_ground + moved
    )
    if (
        result.loser == "defender"
        and attacker.kind == "cavalry"
        and attacker.in_play
        and defender.figures
        and not ctx.pursuit
    ):
        lines.append(
            _agree(state, defender.name, "gives", "give") + f" ground: {attacker.name} may pursue"
        )
        return _Result(_to(state, "pursue_ask"), tuple(lines), cues=frozenset(cues))
    if result.loser == "defender" and attacker.in_play:
        lines.append(f"{attacker.name} may occupy the position")
    return _prefix(_next_charge(state), tuple(lines), frozenset(cues))


def _limber_to_retreat(f: Force, moves: str) -> tuple[Force, bool]:
    """Guns giving ground move back a full (or half) move with nothing spent deploying,
    so they end limbered; the bool says whether that changed anything worth saying."""
    gives_ground = moves in ("retreats", "falls_back")
    if f.kind != "artillery" or not gives_ground or not f.on_table or f.limbered:
        return f, False
    return replace(f, limbered=True), True


# ------------------------------------------------------------- turn changes


def _next_player(state: GameState) -> _Result:
    state = replace(state, ctx=Context())
    if state.player == 0:
        return _Result(replace(state, player=1, stage="pick_unit"))
    return _open_charge(replace(state, stage="charges"))


def _end_turn(state: GameState) -> tuple[GameState, tuple[str, ...]]:
    """The next turn (or the game's end), and a line for each hit commander replaced."""
    forces = []
    lines = []
    for f in state.forces:
        back = 0 if 0 < f.leader_back_turn <= state.turn else f.leader_back_turn
        if back != f.leader_back_turn and f.on_table:
            lines.append(f"{f.name}: the replacement for {f.leader} takes command")
        forces.append(replace(f, acted=False, leader_back_turn=back))
    state = replace(
        state, forces=tuple(forces), charges=(), gave_ground=(), ctx=Context(), player=0
    )
    if state.turn >= state.turn_limit:
        return replace(state, finished=True, stage="over"), tuple(lines)
    return replace(state, turn=state.turn + 1, stage="initiative"), tuple(lines)


def _commanders_follow(state: GameState) -> tuple[GameState, tuple[str, ...]]:
    """A joined commander shares his unit's fate: he leaves the field with it."""
    lines = []
    for f in state.forces:
        if f.joined and not f.routed and not state.force(f.joined).on_table:
            state = state.with_force(replace(f, routed=True))
            lines.append(f"{f.name} leaves the field with {f.joined}")
    return state, tuple(lines)


def _pointless_roll(state: GameState) -> _Result | None:
    """A roll that cannot score is settled at once, without asking for dice: too few
    figures for a single die, or modifiers that leave no face able to hit."""
    if state.finished or _choice(state) is not None:
        return None
    roll = _roll(state)
    if roll is None:
        return None
    action, params = roll
    request = action.request(params)
    odds = action.odds(params)
    if odds.headline.get(0) != 1 or any(odds.effects.values()):
        return None
    why = "too few figures for a die" if not request.dice_count else "no die can hit"
    dice = tuple(1 for _ in range(request.dice_count))  # any faces: none of them scores
    outcome = action.resolve(params, dice)
    said = f"{_reason(state, request)}; {why}, no roll"
    return _prefix(_on_roll(state, outcome, dice), (said,))


def _settle(result: _Result, turn: int) -> _Result:
    """Run the automatic steps: empty order lists, rolls of no dice, game over, turn end."""
    state = result.state
    log = list(result.log)
    cues = set(result.cues)
    for _ in range(100):
        state, lines = _commanders_follow(state)
        log.extend(lines)
        if not state.finished and any(
            not any(f.in_play for f in state.forces if f.side == side) for side in state.sides
        ):
            state = replace(state, finished=True, stage="side_gone")
        if state.finished:
            break
        step: _Result | None = None
        if state.stage == "pick_unit" and not any(
            f.side == state.active_side and f.in_play and not f.acted for f in state.forces
        ):
            step = _next_player(state)
        else:
            step = _pointless_roll(state)
        if step is None:
            break
        state = step.state
        log.extend(step.log)
        cues |= step.cues
    turn_over = state.turn != turn or (state.finished and state.stage == "over")
    if turn_over and not any(line.startswith("End of turn") for line in log):
        log.append(f"End of turn {turn}")
        cues.add("turn_end")
    if state.finished and "game_over" not in cues:
        cues.add("game_over")
        w = winner(state)
        log.append("Game over: " + (agree(w, "wins", "win") if w else "a draw"))
    return _Result(state, tuple(log), result.outcome, frozenset(cues))


# ----------------------------------------------------------------- summary


def strength(state: GameState, side: str) -> tuple[int, int]:
    """Figures up on the table (a routed unit's have left it), and figures the side started
    with."""
    standing = sum(f.figures for f in state.forces if f.side == side and f.on_table)
    started = sum(f.start for f in state.forces if f.side == side)
    return standing, started


def winner(state: GameState) -> str | None:
    """The side keeping the larger share of its starting figures in the ranks."""
    return larger_share_kept(state.sides, lambda side: strength(state, side))


# Stages of the charge phase, which follows both players' orders; `shoot_*` stages
# belong to it only as a held-fire volley (`Context.in_charge`).
_CHARGE_STAGES = frozenset(
    {
        "charges",
        "volley_ask",
        "melee_cover",
        "melee_square",
        "melee_attacker_roll",
        "melee_defender_roll",
        "come_on_attacker_roll",
        "come_on_attacker_use",
        "come_on_defender_roll",
        "come_on_defender_use",
        "pursue_ask",
    }
)


def _phase(state: GameState) -> str:
    """Where the turn is, in the referee's words (the status screen's first line)."""
    if state.stage == "initiative":
        return "rolling for the first move"
    if state.stage in _CHARGE_STAGES or state.ctx.in_charge:
        return "charges"
    return f"orders for {state.active_side}"


def describe(state: GameState) -> tuple[str, ...]:
    if state.finished:
        head = f"{state.title}: game over after turn {state.turn}"
    else:
        head = f"{state.title}: turn {state.turn}/{state.turn_limit}, {_phase(state)}"
    lines = [head]
    for side in state.sides:
        now, started = strength(state, side)
        # A routed unit's figures are up but off the table: they are said apart, so that
        # the units' "up" add up to what the side's line says
        routed = sum(f.figures for f in state.forces if f.side == side and f.routed)
        lines.append(
            f"{side}: {now} of {counted(started, 'figure')} up on the table"
            + (f", {routed} more in routed units" if routed else "")
        )
    for f in state.forces:
        status = []
        if f.routed and f.joined and f.removed:
            status.append("hit")
        elif f.routed:
            status.append("routed" if f.figures else "destroyed")
        elif f.shaken:
            status.append("shaken")
        if f.joined and not f.routed:
            status.append(f"with {f.joined}")
        if f.held_fire and f.in_play:
            status.append("holding fire")
        if f.limbered and f.in_play:
            status.append("limbered")
        if f.leader and f.leader_back_turn and not f.routed:
            status.append(f"{f.leader} away till end of turn {f.leader_back_turn}")
        extra = f" ({', '.join(status)})" if status else ""
        lines.append(
            f"  {f.name}: {f.figures}/{f.start} up, {f.casualties} down, {f.removed} lost{extra}"
        )
    built: dict[tuple[str, str], int] = {}
    for done in state.works_done:
        built[done] = built.get(done, 0) + 1
    for (side, task), count in built.items():
        lines.append(f"  {side} built: {task_text(task)}" + (f" (x{count})" if count > 1 else ""))
    for side, task, points in state.work:
        lines.append(
            f"  {side} working at: {task_text(task)}, "
            f"{points}/{tables.ENGINEERING_TASK_POINTS} points"
        )
    for side, laid in state.laid:
        lines.append(f"  {side}: {counted(laid, 'demolition charge')} laid")
    if state.demolished:
        lines.append(f"  the {state.demolition_target.replace('_', ' ')} is destroyed")
    return tuple(lines)
