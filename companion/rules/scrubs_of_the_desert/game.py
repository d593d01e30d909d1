"""The sequence of play as a state machine.

Until every unit has activated this turn, both sides toss a d10 (the side that
keeps losing adds +1 a loss); the winner activates one unit: French units first
try to sight hidden Arabs, then the unit moves (or charges, unlimbers, throws a
grappling hook, crews an abandoned machine gun...), then, if it did not charge,
fires; a unit that lost figures tests its morale. A charge that makes contact
runs the melee sequence: defender's test, defensive fire or counter-charge,
attacker's test, the bouts, and the test of the side that lost more.
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
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.activation import (
    ACTIVATION_TOSS,
    TIE,
    bonuses_after,
    toss_outcome,
)
from companion.rules.scrubs_of_the_desert.cannon import CANNON_BLAST, CANNON_TO_HIT
from companion.rules.scrubs_of_the_desert.crew_targeting import CREW_TARGETING
from companion.rules.scrubs_of_the_desert.fire import FIRE
from companion.rules.scrubs_of_the_desert.grappling import HOOK_CLIMB, HOOK_THROW
from companion.rules.scrubs_of_the_desert.melee import (
    ATTACKER_WINS,
    DEFENDER_WINS,
    LOCKED,
    MELEE_BOUT,
    pair_figures,
)
from companion.rules.scrubs_of_the_desert.morale import MORALE
from companion.rules.scrubs_of_the_desert.movement import FORMATION_CHANGE_ONLY, MOVE
from companion.rules.scrubs_of_the_desert.scenario import Options, read_options, read_setup
from companion.rules.scrubs_of_the_desert.sighting import SIGHTING


@dataclass(frozen=True)
class Band:
    """A unit as it stands now."""

    name: str
    side: str
    nation: str  # "french" or "arab"
    kind: str  # foot, horse, gun
    weapons: tuple[str, ...]
    start: int  # figures at the start, for the final count
    figures: int
    base_morale: int
    size: int  # the unit size the morale chart reads (the new crew once infantry man a gun)
    loss_per_figure: int = 0  # the scenario's morale loss rate; 0: by size
    leader: str = ""
    activated: bool = False
    routed: bool = False  # routed this turn: recovers by itself next turn
    removed: bool = False
    spotted: bool = True
    limbered: bool = False
    jammed_from: int = 0  # the machine gun may not fire from this turn...
    jammed_until: int = 0  # ...to the end of this one
    infantry_crew: bool = False  # the machine gun is served by infantry
    setting_up: bool = False  # infantry just reached the gun: a full action before it fires
    detached: int = 0  # figures gone to crew a machine gun (not losses)
    locked_with: str = ""
    hook_up: bool = False
    over_wall: int = 0
    plural: bool = False  # the name takes a plural verb: "Spahis move"

    def does(self, singular: str, plural: str) -> str:
        """The name and its verb, agreeing: "1st Section moves", "Spahis move"."""
        return f"{self.name} {plural if self.plural else singular}"

    @property
    def support_weapon(self) -> str:
        return next((w for w in self.weapons if w in tables.SUPPORT_WEAPONS), "")

    @property
    def abandoned(self) -> bool:
        """A machine gun whose crew is gone: infantry may man it."""
        return self.support_weapon == "machine_gun" and self.figures == 0 and not self.removed

    @property
    def in_play(self) -> bool:
        return not self.removed and self.figures > 0

    @property
    def lost(self) -> int:
        """Figures lost, for morale: figures that went to crew a gun are not losses."""
        return max(0, self.size - self.figures - self.detached)

    def can_fire(self, turn: int) -> bool:
        if not self.in_play or self.routed:
            return False
        gun = self.support_weapon
        if gun:
            if self.limbered or self.setting_up:
                return False
            if gun == "machine_gun" and self.jammed_from <= turn <= self.jammed_until:
                return False
            if gun in tables.CANNONS and self.figures < tables.CANNON_MIN_CREW:
                return False
        return bool(self.weapons)


@dataclass(frozen=True)
class Context:
    side: int = 0  # index of the side activating
    actor: str = ""
    tried: tuple[str, ...] = ()  # hidden units the actor has tried to sight
    sight_target: str = ""
    band: str = ""
    charging: bool = False
    moved: bool = False
    terrain: str = ""
    shooter: str = ""
    target: str = ""
    weapon: str = ""
    range_band: str = "short"
    cover: bool = False
    grapeshot: bool = False
    crew_near: bool = False
    crew_others: int = 0
    order: str = ""  # move or charge, while sighting comes first (sighting_when = moving)
    manning: bool = False  # the move takes infantry to an abandoned machine gun
    crew: int = 0  # how many of them will crew it
    hits: int = 0
    crew_hits: int = 0
    defensive: bool = False
    pending: tuple[str, ...] = ()  # units still to test morale after fire
    position: str = "open"
    attacker: str = ""
    defender: str = ""
    def_position: str = "open"
    counter: bool = False
    att_failed: bool = False
    continuing: bool = False
    bouts: tuple[tuple[int, int], ...] = ()
    bout_index: int = 0
    defenders_killed: int = 0
    attackers_killed: int = 0
    locked: int = 0
    hook_fight: bool = False
    climber: int = 0
    hook_defenders: int = 0
    # a cannon's blast: (unit, figures under the template) and the kills rolled so far
    blast: tuple[tuple[str, int], ...] = ()
    blast_kills: tuple[int, ...] = ()
    blast_unit: str = ""  # the unit whose figures under the template are being counted


@dataclass(frozen=True)
class GameState:
    title: str
    sides: tuple[str, str]
    options: Options
    turn_limit: int
    fort: bool
    wall_goal: int
    bands: tuple[Band, ...]
    turn: int = 1
    stage: str = "toss"
    bonus: tuple[int, int] = (0, 0)
    ctx: Context = Context()
    finished: bool = False

    def band(self, name: str) -> Band:
        for b in self.bands:
            if b.name == name:
                return b
        raise RulesError(f"no unit named {name!r}")

    def with_band(self, band: Band) -> GameState:
        return replace(self, bands=tuple(band if b.name == band.name else b for b in self.bands))

    def ready(self, side: str) -> tuple[Band, ...]:
        return tuple(b for b in self.bands if b.side == side and b.in_play and not b.activated)

    def enemies(self, side: str, visible_only: bool = True) -> tuple[Band, ...]:
        return tuple(
            b
            for b in self.bands
            if b.side != side and b.in_play and (b.spotted or not visible_only)
        )

    def over_wall(self) -> int:
        return sum(b.over_wall for b in self.bands if b.nation == "arab" and not b.removed)


def side_does(side: str, singular: str, plural: str) -> str:
    """A side's name and its verb, agreeing: "Legion wins", "Arabs win"."""
    return agree(side, singular, plural)


def start(scenario: Scenario) -> GameState:
    options = read_options(scenario.options)
    setup = read_setup(scenario.setup, scenario.sides)
    bands = []
    for u in scenario.units:
        nation = "french" if u.side == setup.french_side else "arab"
        hidden_default = setup.hidden_arabs and nation == "arab"
        hidden = bool(u.traits.get("hidden", hidden_default))
        bands.append(
            Band(
                name=u.name,
                side=u.side,
                nation=nation,
                kind=u.kind,
                weapons=u.weapons,
                start=u.figures,
                figures=u.figures,
                base_morale=int(str(u.traits["base_morale"])),
                size=u.figures,
                loss_per_figure=int(str(u.traits.get("loss_per_figure", 0))),
                leader=u.leader or "",
                spotted=not hidden,
                limbered=bool(u.traits.get("limbered", False)),
                plural=bool(u.traits.get("plural", plural_name(u.name))),
            )
        )
    return GameState(
        title=scenario.title,
        sides=(scenario.sides[0], scenario.sides[1]),
        options=options,
        turn_limit=setup.turn_limit,
        fort=setup.fort,
        wall_goal=setup.figures_over_wall_to_win,
        bands=tuple(bands),
    )


# ----------------------------------------------------------------- choices

NO_YES = (Choice("no", "No"), Choice("yes", "Yes"))
YES_NO = (Choice("yes", "Yes"), Choice("no", "No"))
POSITION_CHOICES = (
    Choice("open", "Open"),
    Choice("building", "Building"),
    Choice("fort", "Fort/trench"),
)


#: The most figures a menu offers (figures under a blast, others near a gun).
MAX_FIGURES_ASKED = 30


def _count_choices(most: int) -> tuple[Choice, ...]:
    """How many: 1 to `most`."""
    return tuple(Choice(str(n), str(n)) for n in range(1, most + 1))


def _orders(state: GameState, b: Band) -> tuple[Choice, ...]:
    if b.setting_up:
        return (Choice("set_up", "Set up the gun"),)
    out = [Choice("move", "Move")]
    if b.kind != "gun" and state.enemies(b.side):
        out.append(Choice("charge", "Charge"))
    if b.kind == "gun" and b.limbered:
        out.append(Choice("unlimber", "Unlimber gun"))
    if state.fort and b.nation == "arab" and b.kind == "foot":
        out.append(
            Choice(
                "climb" if b.hook_up else "hook",
                "Climb the hook" if b.hook_up else "Grappling hook",
            )
        )
    if b.nation == "french" and b.kind == "foot":
        if any(g.side == b.side and g.abandoned for g in state.bands):
            out.append(Choice("man_gun", "Man the gun"))
        if state.fort and any(
            a.hook_up and a.over_wall and a.in_play for a in state.bands if a.side != b.side
        ):
            out.append(Choice("attack_hook", "Attack a hook"))
    out.append(Choice("stay", "Stay put"))
    return tuple(out)


def _choice(state: GameState) -> AwaitChoice | None:
    c = state.ctx
    s = state.stage
    if s == "pick_unit":
        side = state.sides[c.side]
        return AwaitChoice(f"{side}: activate?", unit_choices("unit", state.ready(side)), side)
    if s == "sight_pick":
        actor = state.band(c.actor)
        hidden = [
            b for b in state.enemies(actor.side, False) if not b.spotted and b.name not in c.tried
        ]
        done = Choice("skip", "None")  # the same words before and after a try
        return AwaitChoice("Try to sight?", (*unit_choices("target", hidden), done), c.actor)
    if s == "sight_range":
        return AwaitChoice(
            "Range to it?",
            (
                *(Choice(row.band, row.label) for row in tables.SIGHTING_TABLE),
                Choice("beyond", 'Over 24"'),
            ),
            c.sight_target,
        )
    if s == "order":
        return AwaitChoice("Order?", _orders(state, state.band(c.actor)), c.actor)
    if s == "charge_target":
        actor = state.band(c.actor)
        targets = unit_choices("target", state.enemies(actor.side))
        return AwaitChoice("Charge whom?", targets, c.actor)
    if s == "terrain":
        return AwaitChoice(
            "Terrain?",
            (
                Choice("desert", "Desert"),
                Choice("trail", "Trail or fort"),
                Choice("rough", "Rough"),
            ),
            c.actor,
        )
    if s == "contact":
        return AwaitChoice("Contact made?", YES_NO, c.actor)
    if s == "fire_pick":
        actor = state.band(c.actor)
        targets = unit_choices("target", state.enemies(actor.side))
        return AwaitChoice("Fire at?", (*targets, Choice("hold", "No fire")), c.actor)
    if s == "weapon_pick":
        return AwaitChoice(
            "Which weapon?",
            tuple(Choice(w, tables.display_name(w)) for w in state.band(c.shooter).weapons),
            c.shooter,
        )
    if s == "fire_range":
        row = tables.weapon_row(c.weapon)
        return AwaitChoice(
            "Range?",
            (
                Choice("short", f'Short, up to {row.short_inches}"'),
                Choice("long", f'Long, up to {row.long_inches}"'),
                Choice("out", "Out of range"),
            ),
            c.shooter,
        )
    if s == "fire_cover":
        return AwaitChoice("Target in cover?", NO_YES, c.target)
    if s == "grapeshot":
        return AwaitChoice('Under 6"?', NO_YES, c.target)
    if s == "crew_near":
        return AwaitChoice('Infantry within 4"?', NO_YES, c.target)
    if s == "crew_count":
        return AwaitChoice('Others within 5"?', _count_choices(MAX_FIGURES_ASKED), c.target)
    if s == "crew_others":
        gun = state.band(c.target)
        near = [b for b in state.bands if b.side == gun.side and b.in_play and b.kind != "gun"]
        return AwaitChoice(
            "Other hits on?", (*unit_choices("unit", near), Choice("none", "No one")), c.target
        )
    if s == "blast_count":
        target = state.band(c.target)
        most = min(MAX_FIGURES_ASKED, target.figures)
        return AwaitChoice("Figures in blast?", _count_choices(most), c.target)
    if s == "blast_others":
        # the template kills whatever stands under it, friend or foe (seed: "per figure
        # in target area"), so the referee names every other unit it covers
        return AwaitChoice(
            "Others under blast?",
            (*unit_choices("unit", _blast_candidates(state)), Choice("none", "No one else")),
            c.target,
        )
    if s == "blast_other_count":
        most = min(MAX_FIGURES_ASKED, state.band(c.blast_unit).figures)
        return AwaitChoice("Figures in blast?", _count_choices(most), c.blast_unit)
    if s == "morale_position":
        return AwaitChoice("Unit's position?", POSITION_CHOICES, c.pending[0])
    if s == "def_position":
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
    if s == "def_response":
        defender = state.band(c.defender)
        options = []
        if defender.can_fire(state.turn):
            options.append(Choice("fire", "Defensive fire"))
        if defender.kind == "horse":
            options.append(Choice("counter", "Counter-charge"))
        options.append(Choice("none", "Stand"))
        return AwaitChoice("Defender's answer?", tuple(options), c.defender)
    if s == "hook_defenders":
        most = tables.HOOK_MAX_DEFENDERS_COUNTED
        return AwaitChoice(
            'Defenders within 1"?',
            tuple(Choice(str(n), str(n) if n < most else f"{n} or more") for n in range(most + 1)),
            c.actor,
        )
    if s == "climb_more":
        return AwaitChoice(f"Climber {c.climber + 1}?", YES_NO, c.actor)
    if s == "gun_pick":
        actor = state.band(c.actor)
        guns = [g for g in state.bands if g.side == actor.side and g.abandoned]
        return AwaitChoice("Which gun?", unit_choices("unit", guns), c.actor)
    if s == "gun_crew":
        actor = state.band(c.actor)
        gun = state.band(c.target)
        return AwaitChoice("How many crew?", _count_choices(min(gun.start, actor.figures)), c.actor)
    if s == "reached_gun":
        return AwaitChoice("Reached the gun?", YES_NO, c.actor)
    if s == "hook_target":
        actor = state.band(c.actor)
        hooks = [
            a
            for a in state.bands
            if a.side != actor.side and a.hook_up and a.over_wall and a.in_play
        ]
        return AwaitChoice("Which hook?", unit_choices("unit", hooks), c.actor)
    return None


# ------------------------------------------------------------------- rolls


def _morale_params(state: GameState, name: str, position: str, closing: bool) -> Params:
    b = state.band(name)
    return MORALE.complete_params(
        {
            "base_morale": b.base_morale,
            "unit_size": b.size,
            "figures_lost": min(b.lost, max(0, b.size - 1)),
            "loss_per_figure": b.loss_per_figure,
            "position": position,
            "closing_melee": closing,
            "rout_rule": state.options.rout_rule,
            "double_zero": state.options.double_zero,
        }
    )


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


def _toss_params(state: GameState) -> Params:
    return ACTIVATION_TOSS.complete_params(
        {"first_bonus": min(50, state.bonus[0]), "second_bonus": min(50, state.bonus[1])}
    )


def _roll(state: GameState) -> tuple[Action, Params] | None:
    c = state.ctx
    s = state.stage
    if s == "toss":
        return ACTIVATION_TOSS, _toss_params(state)
    if s == "sight_roll":
        return SIGHTING, SIGHTING.complete_params({"range": c.band})
    if s == "move_roll":
        b = state.band(c.actor)
        row = tables.movement_type(b.nation, b.kind, state.options.arab_gun_moves_as)
        return MOVE, MOVE.complete_params({"unit_type": row, "terrain": c.terrain})
    if s == "fire_roll":
        b = state.band(c.shooter)
        return FIRE, FIRE.complete_params(
            {
                "weapon": c.weapon,
                "figures": min(40, b.figures),
                "range": c.range_band,
                "target_in_cover": c.cover,
                "did_not_move": not c.moved and not c.defensive,
                "before_melee": c.defensive,
                "target_mounted": state.band(c.target).kind == "horse",
                "crewed_by": "infantry" if b.infantry_crew else "crew",
            }
        )
    if s == "cannon_roll":
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
    if s == "blast_roll":
        _, figures = c.blast[len(c.blast_kills)]
        return CANNON_BLAST, CANNON_BLAST.complete_params(
            {"figures": figures, "target_in_cover": c.cover and state.options.blast_cover_modifier}
        )
    if s == "crew_roll":
        gun = state.band(c.target)
        return CREW_TARGETING, CREW_TARGETING.complete_params(
            {
                "hits": min(40, c.hits),
                "crew": min(12, gun.figures),
                "others": c.crew_others,
                "double_zero": state.options.double_zero,
            }
        )
    if s == "morale_roll":
        return MORALE, _morale_params(state, c.pending[0], c.position, False)
    if s == "def_morale_roll":
        closing = not state.options.charged_unit_can_be_removed
        position = _morale_position(c.def_position)
        return MORALE, _morale_params(state, c.defender, position, closing)
    if s == "att_morale_roll":
        return MORALE, _morale_params(state, c.attacker, "open", True)
    if s == "loser_morale_roll":
        loser = c.attacker if c.attackers_killed > c.defenders_killed else c.defender
        if c.hook_fight:  # the French fight from the fort, the Arabs on the wall
            position = "fort" if loser == c.attacker else "open"
        else:
            stayed = loser == c.defender and not c.counter  # counter-chargers left cover
            position = _morale_position(c.def_position) if stayed else "open"
        return MORALE, _morale_params(state, loser, position, False)
    if s == "bout_roll":
        return MELEE_BOUT, _bout_params(state)
    if s == "hook_throw_roll":
        return HOOK_THROW, HOOK_THROW.complete_params({"defenders": c.hook_defenders})
    if s == "climb_roll":
        return HOOK_CLIMB, HOOK_CLIMB.complete_params(
            {"climber": "second" if c.climber + 1 == 2 else "third"}
        )
    return None


def _morale_position(def_position: str) -> str:
    return def_position if def_position in ("building", "fort") else "open"


def next_step(state: GameState) -> Step:
    if state.finished:
        return GameOver(winner(state), describe(state))
    step = await_stage(state, _choice, _roll, roll_off_stage="toss")
    c = state.ctx
    if state.stage == "blast_roll" and len(c.blast) > 1 and isinstance(step, AwaitRoll):
        # a blast over several units is rolled unit by unit: say whose figures these are
        name = c.blast[len(c.blast_kills)][0]
        step = replace(step, request=replace(step.request, reason=f"{name}: {step.request.reason}"))
    return step


# ------------------------------------------------------------------ engine


@dataclass(frozen=True)
class _Result:
    state: GameState
    log: tuple[str, ...] = ()
    cues: frozenset[str] = frozenset()


def _r(state: GameState, *lines: str, cues: frozenset[str] = frozenset()) -> _Result:
    return _Result(state, tuple(lines), cues)


def _then(result: _Result, *lines: str, cues: frozenset[str] = frozenset()) -> _Result:
    """`lines` first, then what `result` says."""
    return _Result(result.state, (*lines, *result.log), result.cues | cues)


def advance(state: GameState, given: GameInput) -> Transition:
    check_input(next_step(state), given)
    outcome: Outcome | None = None
    if isinstance(given, Chosen):
        result = _on_choice(state, given.key)
    else:
        assert isinstance(given, Rolled)
        outcome = resolve_stage_roll(state, _roll, given.dice)
        if state.stage == "toss":
            # the toss's lines name the sides, as its dice on the screen do
            outcome = toss_outcome(_toss_params(state), given.dice, state.sides)
        result = _on_roll(state, outcome)
        result = replace(result, cues=result.cues | {"dice"})
    settled = _settle(result, state.turn)
    return Transition(settled.state, settled.log, outcome, settled.cues)


def _to(state: GameState, stage: str, **changes: object) -> GameState:
    return replace(state, stage=stage, ctx=replace(state.ctx, **changes))  # type: ignore[arg-type]


def _begin_activation(state: GameState, name: str) -> _Result:
    b = state.band(name)
    ctx = Context(side=state.ctx.side, actor=name)
    state = replace(state, ctx=ctx)
    partner = state.band(b.locked_with) if b.locked_with else None
    if partner is not None and partner.in_play:
        state = _to(state, "def_position", attacker=name, defender=partner.name, continuing=True)
        return _r(state, f"{b.does('activates', 'activate')}: locked in melee with {partner.name}")
    if state.options.sighting_when == "activation" and _may_sight(state, b):
        return _r(_to(state, "sight_pick"), b.does("activates", "activate"))
    return _r(_to(state, "order"), b.does("activates", "activate"))


def _may_sight(state: GameState, b: Band) -> bool:
    return b.nation == "french" and any(not e.spotted for e in state.enemies(b.side, False))


def _after_sighting(state: GameState) -> _Result:
    """Back to the order, or on with the move or charge that sighting came before."""
    order = state.ctx.order
    if order == "move":
        return _r(_to(state, "terrain"))
    if order == "charge":
        return _r(_to(state, "charge_target"))
    return _r(_to(state, "order"))


def _end_activation(state: GameState) -> GameState:
    actor = state.band(state.ctx.actor)
    state = state.with_band(replace(actor, activated=True))
    return replace(state, stage="toss", ctx=Context())


def _to_fire(state: GameState) -> _Result:
    actor = state.band(state.ctx.actor)
    if actor.can_fire(state.turn) and state.enemies(actor.side):
        return _r(_to(state, "fire_pick"))
    why = _why_no_fire(state, actor)
    return _r(_end_activation(state), *((why,) if why else ()))


def _why_no_fire(state: GameState, b: Band) -> str:
    """Why a unit that could have fired does not, for the referee who expected it to."""
    if not b.in_play or b.routed or not b.weapons:
        return ""
    gun = b.support_weapon
    if gun and b.limbered:
        return f"{b.does('is', 'are')} limbered: no fire until a whole move unlimbers it"
    if gun == "machine_gun" and b.jammed_from <= state.turn <= b.jammed_until:
        return f"{b.does('is', 'are')} jammed: no fire this turn"
    if gun in tables.CANNONS and b.figures < tables.CANNON_MIN_CREW:
        return f"{b.name} cannot fire: a cannon needs {tables.CANNON_MIN_CREW} crew"
    if not state.enemies(b.side):
        return f"{b.name}: no enemy in sight to fire at"
    return ""


def _spot(state: GameState, name: str) -> tuple[GameState, tuple[str, ...]]:
    b = state.band(name)
    if b.spotted:
        return state, ()
    gives = b.does("gives itself", "give themselves")
    return state.with_band(replace(b, spotted=True)), (f"{gives} away: spotted",)


# ----------------------------------------------------------------- choices


def _on_choice(state: GameState, key: str) -> _Result:
    c = state.ctx
    s = state.stage
    yes = key == "yes"
    if s == "pick_unit":
        return _begin_activation(state, key.removeprefix("unit:"))
    if s == "sight_pick":
        if key == "skip":
            return _after_sighting(state)
        target = key.removeprefix("target:")
        return _r(_to(state, "sight_range", sight_target=target, tried=(*c.tried, target)))
    if s == "sight_range":
        if key == "beyond":
            beyond = state.band(c.sight_target).does("is", "are")
            return _r(_to(state, "sight_pick"), f'{beyond} beyond 24": no sighting')
        if tables.sighting_need(key) == 0:
            b = state.band(c.sight_target)
            return _r(
                _to(state.with_band(replace(b, spotted=True)), "sight_pick"),
                f'{b.does("is", "are")} within 2": sighted',
            )
        return _r(_to(state, "sight_roll", band=key))
    if s == "order":
        return _on_order(state, key)
    if s == "charge_target":
        return _r(
            _to(state, "terrain", target=key.removeprefix("target:"), charging=True),
            f"{state.band(c.actor).does('charges', 'charge')} {key.removeprefix('target:')}",
        )
    if s == "terrain":
        return _r(_to(state, "move_roll", terrain=key))
    if s == "contact":
        if not yes:
            reach = state.band(c.actor).does("does", "do")
            return _r(_end_activation(state), f"{reach} not reach {c.target}")
        return _r(
            _to(state, "def_position", attacker=c.actor, defender=c.target),
            f"{state.band(c.actor).does('contacts', 'contact')} {c.target}: melee sequence",
        )
    if s == "fire_pick":
        if key == "hold":
            return _r(_end_activation(state), f"{state.band(c.actor).does('does', 'do')} not fire")
        return _pick_weapon(
            _to(state, "fire_pick", shooter=c.actor, target=key.removeprefix("target:"))
        )
    if s == "weapon_pick":
        return _after_weapon(_to(state, s, weapon=key))
    if s == "fire_range":
        if key == "out":
            out = state.band(c.target).does("is", "are")
            return _r(_end_activation(state), f"{out} out of range: no fire")
        return _r(_to(state, "fire_cover", range_band=key))
    if s == "fire_cover":
        state = _to(state, s, cover=yes)
        if c.weapon in tables.CANNONS:
            return _r(_to(state, "grapeshot" if c.range_band == "short" else "cannon_roll"))
        if state.band(c.target).support_weapon:
            return _r(_to(state, "crew_near"))
        return _r(_to(state, "fire_roll"))
    if s == "grapeshot":
        return _r(_to(state, "cannon_roll", grapeshot=yes))
    if s == "crew_near":
        return _r(_to(state, "crew_count" if yes else "fire_roll", crew_near=yes))
    if s == "crew_count":
        return _r(_to(state, "fire_roll", crew_others=int(key)))
    if s == "crew_others":
        if key == "none":
            return _apply_fire(
                state, (), f"{counted(c.hits, 'hit falls', 'hits fall')} on no one else"
            )
        name = key.removeprefix("unit:")
        return _apply_fire(state, ((name, c.hits),))
    if s == "blast_count":
        state = _to(state, "blast_others", blast=((c.target, int(key)),), blast_kills=())
        return _r(state if _blast_candidates(state) else _to(state, "blast_roll"))
    if s == "blast_others":
        if key == "none":
            return _r(_to(state, "blast_roll"))
        return _r(_to(state, "blast_other_count", blast_unit=key.removeprefix("unit:")))
    if s == "blast_other_count":
        state = _to(state, "blast_others", blast=(*c.blast, (c.blast_unit, int(key))))
        return _r(state if _blast_candidates(state) else _to(state, "blast_roll"))
    if s == "morale_position":
        return _r(_to(state, "morale_roll", position=key))
    if s == "def_position":
        state = _to(state, s, def_position=key)
        if c.continuing:
            return _start_bouts(state)
        return _r(_to(state, "def_morale_roll"))
    if s == "def_response":
        if key == "fire":
            return _pick_weapon(
                _to(state, s, defensive=True, shooter=c.defender, target=c.attacker),
                f"{state.band(c.defender).does('fires', 'fire')} at the chargers",
            )
        if key == "counter":
            left = f", leaving the {c.def_position}" if c.def_position != "open" else ""
            counter = state.band(c.defender).does("counter-charges", "counter-charge")
            return _r(_to(state, "att_morale_roll", counter=True), f"{counter}{left}")
        waits = state.band(c.defender).does("stands and waits", "stand and wait")
        return _r(_to(state, "att_morale_roll"), waits)
    if s == "hook_defenders":
        defenders = int(key)
        state = _to(state, "hook_throw_roll", hook_defenders=defenders)
        if not defenders:
            return _r(state)
        return _r(state, f"the {defenders} defending the hook do nothing else this turn")
    if s == "climb_more":
        if yes:
            return _r(_to(state, "climb_roll"))
        return _r(_end_activation(state))
    if s == "gun_pick":
        return _r(_to(state, "gun_crew", target=key.removeprefix("unit:")))
    if s == "gun_crew":
        return _r(
            _to(state, "terrain", crew=int(key), manning=True),
            f"{key} of {c.actor} {'makes' if key == '1' else 'make'} for {c.target}",
        )
    if s == "reached_gun":
        if yes:
            return _man_gun(state)
        reach = f"{c.crew} of {c.actor} {'does' if c.crew == 1 else 'do'} not reach"
        return _r(_end_activation(state), f"{reach} {c.target} this time")
    if s == "hook_target":
        arab = state.band(key.removeprefix("unit:"))
        french = state.band(c.actor)
        bouts = pair_figures(
            min(tables.HOOK_MAX_FRENCH_ATTACKERS, french.figures),
            min(tables.HOOK_MAX_ARAB_DEFENDERS, arab.over_wall),
        )
        state = _to(
            state,
            "bout_roll",
            attacker=french.name,
            defender=arab.name,
            hook_fight=True,
            def_position="open",
            bouts=tuple((b.attackers, b.defenders) for b in bouts),
            bout_index=0,
        )
        return _r(state, f"{french.does('attacks', 'attack')} the hook of {arab.name}")
    raise RulesError(f"no choice expected at stage {s!r}")


def _on_order(state: GameState, key: str) -> _Result:
    c = state.ctx
    b = state.band(c.actor)
    if key in ("move", "charge"):
        if state.options.sighting_when == "moving" and _may_sight(state, b):
            return _r(_to(state, "sight_pick", order=key))
        return _r(_to(state, "terrain" if key == "move" else "charge_target"))
    if key == "unlimber":
        state = _to(state.with_band(replace(b, limbered=False)), "order", moved=True)
        line = f"{b.does('spends its', 'spend their')} move to unlimber"
        if not state.options.fire_after_unlimbering:
            return _r(_end_activation(state), line, "it fires from its next activation")
        return _then(_to_fire(state), line)
    if key == "set_up":
        state = state.with_band(replace(b, setting_up=False))
        return _r(
            _end_activation(state),
            f"{b.name}: the new crew spend this action setting up; it fires from the next",
        )
    if key == "stay":
        return _then(_to_fire(_to(state, "order", moved=False)), b.does("stays put", "stay put"))
    if key == "hook":
        state, spotted = _spot(state, b.name)
        return _r(_to(state, "hook_defenders"), *spotted)
    if key == "climb":
        state, spotted = _spot(state, b.name)
        return _then(_climbed(state, 1, f"{b.name}: a figure climbs the hook"), *spotted)
    if key == "man_gun":
        return _r(_to(state, "gun_pick"))
    if key == "attack_hook":
        return _r(_to(state, "hook_target"))
    raise RulesError(f"unknown order {key!r}")


def _pick_weapon(state: GameState, *lines: str) -> _Result:
    shooter = state.band(state.ctx.shooter)
    weapons = shooter.weapons
    if len(weapons) > 1:
        return _r(_to(state, "weapon_pick"), *lines)
    return _then(_after_weapon(_to(state, state.stage, weapon=weapons[0])), *lines)


def _after_weapon(state: GameState) -> _Result:
    c = state.ctx
    if c.defensive:
        if c.weapon in tables.CANNONS:
            return _r(_to(state, "cannon_roll", range_band="short", cover=False, grapeshot=True))
        return _r(_to(state, "fire_roll", range_band="short", cover=False))
    return _r(_to(state, "fire_range"))


def _man_gun(state: GameState) -> _Result:
    """The figures leave their unit (not as losses) and become the gun's crew, which tests
    morale as a unit of that size; the gun is done for this turn."""
    c = state.ctx
    foot = state.band(c.actor)
    gun = state.band(c.target)
    crew = min(c.crew, foot.figures)
    state = state.with_band(
        replace(foot, figures=foot.figures - crew, detached=foot.detached + crew)
    )
    setting_up = state.options.gun_crew_setup_action
    state = state.with_band(
        replace(
            gun,
            figures=crew,
            size=crew,
            detached=0,
            loss_per_figure=0,
            infantry_crew=True,
            setting_up=setting_up,
            activated=True,
            routed=False,
            base_morale=foot.base_morale,
        )
    )
    then = (
        "its next activation is a full action setting up, then it fires"
        if setting_up
        else "it fires from its next activation"
    )
    man = "mans" if crew == 1 else "man"
    return _r(
        _end_activation(state), f"{crew} of {foot.name} {man} {gun.name}: {then}, one die a man"
    )


# -------------------------------------------------------------------- rolls


def _on_roll(state: GameState, outcome: Outcome) -> _Result:
    c = state.ctx
    s = state.stage
    if s == "toss":
        tossed = outcome.details[0].split(":")[0]  # the sides' totals, by name
        if outcome.headline == TIE:
            return _r(state, f"toss: {tossed}: a tie, toss again")
        winner = outcome.headline - 1
        bonus = bonuses_after(outcome.headline, *state.bonus)
        state = replace(state, bonus=bonus, stage="pick_unit", ctx=Context(side=winner))
        won = side_does(state.sides[winner], "wins and activates", "win and activate")
        return _r(state, f"toss: {tossed}: {won} a unit")
    if s == "sight_roll":
        b = state.band(c.sight_target)
        if "sighted" in outcome.effects:
            state = state.with_band(replace(b, spotted=True))
            return _r(_to(state, "sight_pick"), f"{b.name} sighted ({outcome.details[0]})")
        return _r(_to(state, "sight_pick"), f"{b.name} not seen ({outcome.details[0]})")
    if s == "move_roll":
        return _moved(state, outcome)
    if s == "fire_roll":
        return _fired(state, outcome)
    if s == "cannon_roll":
        state, spotted = _spot(state, c.shooter)
        if "hit" in outcome.effects:
            return _r(
                _to(state, "blast_count"),
                f"{c.shooter}'s cannon hits: place the 3\" blast",
                *spotted,
            )
        return _then(_after_fire(state, (), f"{c.shooter}'s cannon misses"), *spotted)
    if s == "blast_roll":
        kills = (*c.blast_kills, outcome.headline)
        name = c.blast[len(kills) - 1][0]
        line = f"the blast kills {outcome.headline}" + (f" of {name}" if len(c.blast) > 1 else "")
        if len(kills) < len(c.blast):
            return _r(_to(state, "blast_roll", blast_kills=kills), line)
        hits = tuple((unit, k) for (unit, _), k in zip(c.blast, kills, strict=True))
        return _apply_fire(state, hits, line)
    if s == "crew_roll":
        crew_hits = outcome.headline
        others = c.hits - crew_hits
        fall = "falls" if crew_hits == 1 else "fall"
        line = f"{crew_hits} of {counted(c.hits, 'hit')} {fall} on the crew of {c.target}"
        if others:
            state = _to(state, "crew_others", hits=others, crew_hits=crew_hits)
            state, said = _lose_figures(state, c.target, crew_hits)
            cues = frozenset({"death"}) if crew_hits else frozenset()
            return _r(state, line, *said, cues=cues)
        return _apply_fire(state, ((c.target, crew_hits),), line)
    if s == "morale_roll":
        name = c.pending[0]
        state, lines, cues = _morale_applied(state, name, outcome)
        rest = c.pending[1:]
        if rest:
            return _r(_to(state, "morale_position", pending=rest), *lines, cues=cues)
        return _r(_end_activation(state), *lines, cues=cues)
    if s == "def_morale_roll":
        state, lines, cues = _morale_applied(state, c.defender, outcome)
        if outcome.headline:
            return _r(_to(state, "def_response"), *lines)
        takes = state.band(c.attacker).does("takes", "take")
        return _r(_end_activation(state), *lines, f"{takes} the ground", cues=cues)
    if s == "att_morale_roll":
        attacker = state.band(c.attacker)
        roll = outcome.details[1].split(":")[0]  # "rolled 23 against 70%"
        if outcome.headline:
            closes = attacker.does("closes in", "close in")
            return _then(_start_bouts(state), f"{closes}: morale {roll}, holds")
        if c.counter:
            state = _to(state, s, att_failed=True)
            return _then(
                _start_bouts(state),
                f"{attacker.does('falters', 'falter')} (morale {roll}): "
                "the counter-charge strikes with +3",
            )
        state, lines, cues = _morale_applied(state, c.attacker, outcome)
        return _r(_end_activation(state), *lines, "no melee", cues=cues)
    if s == "bout_roll":
        return _bout_fought(state, outcome)
    if s == "loser_morale_roll":
        loser = c.attacker if c.attackers_killed > c.defenders_killed else c.defender
        state, lines, cues = _morale_applied(state, loser, outcome)
        return _r(_end_activation(state), *lines, cues=cues)
    if s == "hook_throw_roll":
        b = state.band(c.actor)
        roll = outcome.details[0].split(":")[0]  # "rolled 6 - 1 for defenders ... = 5, needing 4+"
        if "hooked" in outcome.effects:
            state = state.with_band(replace(b, hook_up=True))
            held = f"{b.name}'s hook holds ({roll})"
            if state.options.hook_thrower_is_first_climber:
                return _climbed(state, 1, held, "the thrower scales the wall")
            return _climbed(
                state, 1, held, "the thrower scales the wall and the free climber follows", up=2
            )
        return _r(_end_activation(state), f"{b.name}'s hook falls back ({roll})")
    if s == "climb_roll":
        climb = f"{c.actor}'s {outcome.details[0]}"  # "...'s second climber rolled 6 ..."
        if "climbed" in outcome.effects:
            return _climbed(state, c.climber + 1, climb)
        return _r(_end_activation(state), climb)
    raise RulesError(f"no roll expected at stage {s!r}")


def _climbed(state: GameState, nth: int, *lines: str, up: int = 1) -> _Result:
    """`up` more figures over the wall; `nth` climbers have used the hook this turn."""
    b = state.band(state.ctx.actor)
    b = replace(b, over_wall=min(b.figures, b.over_wall + up))
    state = _to(state.with_band(b), "climb_more", climber=nth)
    lines = (*lines, f"{b.name}: {b.over_wall} over the wall")
    if nth >= 3 or b.over_wall >= b.figures:
        return _r(_end_activation(state), *lines)
    return _r(state, *lines)


def _moved(state: GameState, outcome: Outcome) -> _Result:
    c = state.ctx
    b = state.band(c.actor)
    inches = outcome.headline
    lines = [f'{b.does("moves", "move")} {inches}" ({outcome.details[0]})']
    if FORMATION_CHANGE_ONLY in outcome.effects and b.kind != "gun":  # a gun has no formation
        lines.append(f"{b.name} may still change formation")
    if b.kind == "gun" and not b.limbered and inches:  # a gun that rolls 0" stays deployed
        b = replace(b, limbered=True)
        lines.append(
            f"{b.does('limbers', 'limber')} up to move: no fire until a later whole move "
            "unlimbers it"
        )
    state = state.with_band(b)
    # A unit that rolls 0" stays where it stood: it has not moved, so a hidden unit stays
    # unseen and its fire keeps the +1 for not moving.
    state, spotted = _spot(state, b.name) if inches else (state, ())
    state = _to(state, "order", moved=inches > 0)
    if c.charging:
        return _r(_to(state, "contact"), *lines, *spotted)
    if c.manning:
        return _r(_to(state, "reached_gun"), *lines, *spotted)
    return _then(_to_fire(state), *lines, *spotted)


def _fired(state: GameState, outcome: Outcome) -> _Result:
    c = state.ctx
    shooter = state.band(c.shooter)
    lines = [
        f"{shooter.does('fires', 'fire')} {tables.display_name(c.weapon)} at {c.target}: "
        f"{counted(outcome.headline, 'hit')}"
    ]
    cues: frozenset[str] = frozenset()
    if "jammed" in outcome.effects:
        at_once = state.options.jam_silences_this_turn
        shooter = replace(
            shooter,
            jammed_from=state.turn if at_once else state.turn + 1,
            jammed_until=state.turn + 1,
        )
        state = state.with_band(shooter)
        lines.append(
            f"{shooter.does('jams', 'jam')}: "
            + ("no more fire this turn or next" if at_once else "no fire next turn")
        )
        cues = frozenset({"jam"})
    state, spotted = _spot(state, shooter.name)
    lines.extend(spotted)
    if outcome.headline and c.crew_near:
        return _r(_to(state, "crew_roll", hits=outcome.headline), *lines, cues=cues)
    return _then(_apply_fire(state, ((c.target, outcome.headline),)), *lines, cues=cues)


def _blast_candidates(state: GameState) -> tuple[Band, ...]:
    """Units on the table, of either side, the blast could also cover: not yet counted."""
    counted_already = {name for name, _ in state.ctx.blast}
    return tuple(
        b for b in state.bands if b.in_play and b.figures and b.name not in counted_already
    )


def _lose_figures(state: GameState, name: str, dead: int) -> tuple[GameState, tuple[str, ...]]:
    b = state.band(name)
    dead = min(dead, b.figures)
    if not dead:
        return state, ()
    b = replace(b, figures=b.figures - dead, over_wall=min(b.over_wall, b.figures - dead))
    line = f"{b.does('loses', 'lose')} {dead}: {b.figures} left"
    if b.figures == 0:
        if b.support_weapon == "machine_gun":
            line += "; the machine gun is abandoned"
        else:
            b = replace(b, removed=True)
            line += "; the unit is gone"
        state = _unlock(state, b.name)
    return state.with_band(b), (line,)


def _unlock(state: GameState, name: str) -> GameState:
    return replace(
        state,
        bands=tuple(
            replace(b, locked_with="") if b.name == name or b.locked_with == name else b
            for b in state.bands
        ),
    )


def _apply_fire(state: GameState, hits: tuple[tuple[str, int], ...], *lines: str) -> _Result:
    out = list(lines)
    damaged = []
    for name, count in hits:
        state, said = _lose_figures(state, name, count)
        out.extend(said)
        if said:
            damaged.append(name)
    c = state.ctx
    if c.crew_hits and state.band(c.target).in_play:
        damaged.insert(0, c.target)
    result = _after_fire(state, tuple(dict.fromkeys(damaged)))
    cues = frozenset({"death"}) if damaged else frozenset()
    return _then(result, *out, cues=cues)


def _after_fire(state: GameState, damaged: tuple[str, ...], *lines: str) -> _Result:
    c = state.ctx
    if c.defensive:
        state = _to(state, "att_morale_roll", defensive=False, shooter="", hits=0, crew_hits=0)
        attacker = state.band(c.attacker)
        if not attacker.in_play:
            never = attacker.does("never reaches", "never reach")
            return _r(_end_activation(state), *lines, f"{never} the enemy")
        return _r(state, *lines)
    pending = tuple(n for n in damaged if state.band(n).in_play)
    if pending:
        return _r(_to(state, "morale_position", pending=pending), *lines)
    return _r(_end_activation(state), *lines)


def _morale_applied(
    state: GameState, name: str, outcome: Outcome
) -> tuple[GameState, tuple[str, ...], frozenset[str]]:
    b = state.band(name)
    lines = [f"{name} morale: {outcome.details[1]}"]
    if "routed" in outcome.effects:
        # a rout runs 12" back from the wall: the climbers come down and the hook is left
        if b.over_wall or b.hook_up:
            lines.append(f"{b.does('leaves', 'leave')} the wall")
        b = replace(b, routed=True, activated=True, over_wall=0, hook_up=False)
        state = _unlock(state.with_band(b), name)
        return state, tuple(lines), frozenset({"resolve_failed"})
    if "removed" in outcome.effects:
        if b.support_weapon == "machine_gun":
            b = replace(b, figures=0, setting_up=False)
            lines.append(f"{name}'s crew is removed; the machine gun is left for infantry to man")
        else:
            b = replace(b, removed=True)
        state = _unlock(state.with_band(b), name)
        return state, tuple(lines), frozenset({"resolve_failed", "death"})
    return state, tuple(lines), frozenset()


# -------------------------------------------------------------------- melee


def _start_bouts(state: GameState) -> _Result:
    c = state.ctx
    att = state.band(c.attacker)
    dfn = state.band(c.defender)
    bouts = pair_figures(att.figures if att.in_play else 0, dfn.figures if dfn.in_play else 0)
    if not bouts:
        return _r(_end_activation(state), "no one left to fight")
    state = _to(
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
    return _r(state, line)


def _bout_fought(state: GameState, outcome: Outcome) -> _Result:
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
    state = _to(
        state,
        "bout_roll",
        attackers_killed=a_k,
        defenders_killed=d_k,
        locked=locked,
        bout_index=c.bout_index + 1,
    )
    if c.bout_index + 1 < len(c.bouts):
        return _r(state, line)
    return _then(_melee_over(state), line)


def _bout_words(state: GameState, result: int) -> str:
    """Who won the bout and whose figure the referee takes off, by name."""
    c = state.ctx
    if result == LOCKED:
        return "a tie: the melee is locked"
    won, lost = (c.attacker, c.defender) if result == ATTACKER_WINS else (c.defender, c.attacker)
    return f"{state.band(won).does('wins', 'win')}: one of {lost} is killed"


def _melee_over(state: GameState) -> _Result:
    c = state.ctx
    state, a_lines = _lose_figures(state, c.attacker, c.attackers_killed)
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
        state, d_lines = _lose_figures(state, c.defender, c.defenders_killed)
        cues = frozenset({"death"}) if c.defenders_killed + c.attackers_killed else frozenset()
        return _loser_tests(state, (*lines, *a_lines, *d_lines), cues)
    state, d_lines = _lose_figures(state, c.defender, c.defenders_killed)
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
        state = _unlock(_unlock(state, att.name), dfn.name)
    return _loser_tests(state, tuple(lines), cues)


def _loser_tests(state: GameState, lines: tuple[str, ...], cues: frozenset[str]) -> _Result:
    """After a melee the side that lost more figures tests morale (none on equal losses)."""
    c = state.ctx
    if c.attackers_killed != c.defenders_killed:
        loser = state.band(c.attacker if c.attackers_killed > c.defenders_killed else c.defender)
        if loser.in_play:
            return _r(
                _to(state, "loser_morale_roll"),
                *lines,
                f"{loser.name} took more casualties: morale check",
                cues=cues,
            )
    return _r(_end_activation(state), *lines, cues=cues)


# ----------------------------------------------------------- turn and end


def _settle(result: _Result, turn: int) -> _Result:
    state = result.state
    log = list(result.log)
    cues = set(result.cues)
    for _ in range(4):
        if state.finished:
            break
        if _decided(state):
            state = replace(state, finished=True, stage="over")
            break
        if state.stage != "toss":
            break
        first, second = (bool(state.ready(side)) for side in state.sides)
        if first and second:
            break
        if first or second:
            side = 0 if first else 1
            state = replace(state, stage="pick_unit", ctx=Context(side=side))
            log.append(f"only {side_does(state.sides[side], 'has', 'have')} units left to activate")
            break
        state = _end_turn(state)
        log.append(f"End of turn {turn}")
        cues.add("turn_end")
    if state.finished and "game_over" not in cues:
        if state.turn > state.turn_limit and f"End of turn {turn}" not in log:
            log.append(f"End of turn {turn}")
        w = winner(state)
        log.append("Game over: " + (side_does(w, "wins", "win") if w else "a draw"))
        cues.add("game_over")
    return _Result(state, tuple(log), frozenset(cues))


def _end_turn(state: GameState) -> GameState:
    bands = tuple(replace(b, activated=False, routed=False) for b in state.bands)
    bonus = state.bonus if state.options.activation_bonus_carries_over else (0, 0)
    state = replace(
        state, bands=bands, bonus=bonus, ctx=Context(), stage="toss", turn=state.turn + 1
    )
    if state.turn > state.turn_limit:
        return replace(state, finished=True, stage="over")
    return state


def _decided(state: GameState) -> bool:
    if state.wall_goal and state.over_wall() >= state.wall_goal:
        return True
    return any(not any(b.in_play for b in state.bands if b.side == side) for side in state.sides)


def strength(state: GameState, side: str) -> tuple[int, int]:
    """Figures in units not removed, and figures the side started with."""
    now = sum(b.figures for b in state.bands if b.side == side and b.in_play)
    started = sum(b.start for b in state.bands if b.side == side)
    return now, started


def winner(state: GameState) -> str | None:
    arab_side = next((b.side for b in state.bands if b.nation == "arab"), state.sides[1])
    french_side = state.sides[1] if arab_side == state.sides[0] else state.sides[0]
    if state.wall_goal and state.over_wall() >= state.wall_goal:
        return arab_side
    alive = [side for side in state.sides if any(b.in_play for b in state.bands if b.side == side)]
    if len(alive) == 1:
        return alive[0]
    if not alive:
        return None
    if state.wall_goal:
        return french_side
    return larger_share_kept(state.sides, lambda side: strength(state, side))


def _phase(state: GameState) -> str:
    """Where the turn is, in the referee's words (the status screen's first line)."""
    if state.stage == "toss":
        return "the toss for the next activation"
    side = state.sides[state.ctx.side]
    if state.ctx.actor:
        return f"{side} activating {state.ctx.actor}"
    return f"{side} to activate a unit"


def describe(state: GameState) -> tuple[str, ...]:
    if state.finished:
        head = f"{state.title}: game over, turn {min(state.turn, state.turn_limit)}"
    else:
        head = (
            f"{state.title}: turn {state.turn}/{state.turn_limit}, {_phase(state)}; "
            f"toss bonus {state.sides[0]} +{state.bonus[0]}, "
            f"{state.sides[1]} +{state.bonus[1]}"
        )
    lines = [head]
    for side in state.sides:
        now, started = strength(state, side)
        # A removed unit keeps the count it left with ("6/12 (removed)"): those figures are
        # said apart, so that the units' counts add up to what the side's line says
        removed = sum(b.figures for b in state.bands if b.side == side and b.removed)
        lines.append(
            f"{side}: {now} of {counted(started, 'figure')} on the table"
            + (f", {removed} more in removed units" if removed else "")
        )
    if state.fort:
        arabs = next((b.side for b in state.bands if b.nation == "arab"), "Arabs")
        lines.append(
            f"{arabs} over the wall: {state.over_wall()}"
            + (f" of {state.wall_goal} to win" if state.wall_goal else "")
        )
    for b in state.bands:
        status = []
        if b.removed:
            status.append("removed")
        elif b.abandoned:
            status.append("abandoned")
        if b.routed and not b.removed:
            status.append("routed")
        if not b.spotted:
            status.append("hidden")
        if b.activated and not b.removed:
            status.append("activated")
        if b.limbered:
            status.append("limbered")
        if b.jammed_from <= state.turn <= b.jammed_until:
            status.append(f"jammed to the end of turn {b.jammed_until}")
        elif b.jammed_from > state.turn:
            status.append(f"jammed in turn {b.jammed_from}")
        if b.setting_up:
            status.append("new crew setting up")
        if b.detached:
            status.append(f"{b.detached} crewing a gun")
        if b.locked_with:
            status.append(f"locked with {b.locked_with}")
        if b.hook_up and not b.removed:
            status.append("hook up")
        if b.over_wall and not b.removed:
            status.append(f"{b.over_wall} over the wall")
        extra = f" ({', '.join(status)})" if status else ""
        lines.append(f"  {b.name}: {b.figures}/{b.start}{extra}")
    return tuple(lines)
