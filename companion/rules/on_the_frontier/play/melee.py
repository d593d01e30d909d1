"""A charge in contact: who has the ground, a square against cavalry, both sides'
contact dice, Come On! for each side's commander, the result (rout, retreat, falling
back, guns limbering to go back), cavalry's pursuit; then the next charge.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import (
    Action,
    AwaitChoice,
    Choice,
    Outcome,
    Params,
    counted,
    yes_no,
)
from companion.rules.on_the_frontier import tables
from companion.rules.on_the_frontier.charges import CHARGE_DICE, COME_ON, charge_result
from companion.rules.on_the_frontier.play.charge_phase import next_charge
from companion.rules.on_the_frontier.play.losses import commander_hit, destroy, standing, take_hits
from companion.rules.on_the_frontier.play.steps import (
    ChoiceStep,
    Result,
    RollStep,
    does,
    is_plural,
    prefix,
    to,
)
from companion.rules.on_the_frontier.state import Force, GameState

# Who has the advantage of ground in a charge: the defender in cover, behind an obstacle
# or uphill, or the attacker coming down from higher ground.
GROUND_PROMPT = "Who has the ground?"
COVER_CHOICES = (
    Choice("none", "Neither"),
    Choice("defender", "Defender: cover/up"),
    Choice("attacker", "Attacker: uphill"),
)


def _ask_melee_cover(state: GameState) -> AwaitChoice:
    ctx = state.ctx
    return AwaitChoice(GROUND_PROMPT, COVER_CHOICES, ctx.target)


def _on_melee_cover(state: GameState, key: str) -> Result:
    ctx = state.ctx
    attacker = state.force(ctx.actor)
    defender = state.force(ctx.target)
    cover = {"defender_cover": key == "defender", "attacker_uphill": key == "attacker"}
    if attacker.kind == "cavalry" and defender.kind == "infantry":
        return Result(to(state, "melee_square", **cover))
    return Result(to(state, "melee_attacker_roll", **cover))



def _on_melee_square(state: GameState, key: str) -> Result:
    yes = key == "yes"
    return Result(to(state, "melee_attacker_roll", square=yes))


def _ask_melee_roll(state: GameState) -> tuple[Action, Params]:
    ctx = state.ctx
    stage = state.stage
    opts = state.options
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


def _on_melee_roll(state: GameState, outcome: Outcome, dice: tuple[int, ...]) -> Result:
    stage = state.stage
    return _melee_rolled(state, stage == "melee_attacker_roll", outcome.headline)


def _melee_rolled(state: GameState, attacking: bool, hits: int) -> Result:
    ctx = state.ctx
    if attacking:
        defender = state.force(ctx.target)
        line = f"{ctx.actor} in contact: {counted(hits, 'hit')} on {ctx.target}"
        state = replace(state, ctx=replace(ctx, defender_took=hits))
        if ctx.pursuit and defender.routed:
            # routers roll nothing back, but the pursuer's commander must still roll Come On!
            return _come_on_then_result(state, (line,))
        return Result(to(state, "melee_defender_roll"), (line,))
    line = f"{ctx.target} in contact: {counted(hits, 'hit')} on {ctx.actor}"
    return _come_on_then_result(replace(state, ctx=replace(ctx, attacker_took=hits)), (line,))


def _come_on_then_result(state: GameState, lines: tuple[str, ...]) -> Result:
    """The contact dice are in: Come On! for the attacker's commander, then the defender's."""
    if state.force(state.ctx.actor).has_leader:
        return Result(to(state, "come_on_attacker_roll"), lines)
    return prefix(_after_come_on(state, True), lines)


def _ask_come_on_roll(state: GameState) -> tuple[Action, Params]:
    # the player picks cancel or inflict after seeing a 5-6
    return COME_ON, COME_ON.complete_params({"use": "either"})


def _on_come_on_roll(state: GameState, outcome: Outcome, dice: tuple[int, ...]) -> Result:
    ctx = state.ctx
    stage = state.stage
    cues: frozenset[str] = frozenset()
    attacking = stage == "come_on_attacker_roll"
    me = state.force(ctx.actor if attacking else ctx.target)
    line = f"Come On! ({me.leader} with {me.name}) rolls {dice[0]}"
    if tables.commander_result(tables.COME_ON_TABLE, dice[0]) == "cancel_or_inflict":
        nxt = "come_on_attacker_use" if attacking else "come_on_defender_use"
        return Result(to(state, nxt), (line + ": cancel or inflict a hit",))
    if "commander_hit" in outcome.effects:
        state, hit = commander_hit(state, me.name)
        line += f": {hit}"
        cues = frozenset({"death"})
    else:
        line += ": no effect"
    return prefix(_after_come_on(state, attacking), (line,), cues)


def _ask_come_on_use(state: GameState) -> AwaitChoice:
    ctx = state.ctx
    stage = state.stage
    return AwaitChoice(
        "Come On! use?",
        (Choice("cancel", "Cancel a hit"), Choice("inflict", "Inflict a hit")),
        ctx.actor if stage == "come_on_attacker_use" else ctx.target,
    )


def _on_come_on_use(state: GameState, key: str) -> Result:
    stage = state.stage
    return _come_on_used(state, stage == "come_on_attacker_use", key)


def _come_on_used(state: GameState, attacking: bool, key: str) -> Result:
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
            does(state, who, "cancels", "cancel")
            if key == "cancel"
            else does(state, who, "inflicts", "inflict")
        )
        + " a hit"
    )
    return prefix(_after_come_on(replace(state, ctx=ctx), attacking), (line,))


def _after_come_on(state: GameState, attacking: bool) -> Result:
    ctx = state.ctx
    defender = state.force(ctx.target)
    if attacking and defender.has_leader and not defender.routed:
        return Result(to(state, "come_on_defender_roll"))
    return _apply_charge_result(state)


def _apply_charge_result(state: GameState) -> Result:
    ctx = state.ctx
    attacker_before = state.force(ctx.actor)
    attacker = take_hits(attacker_before, ctx.attacker_took)
    defender_before = state.force(ctx.target)
    if defender_before.routed:
        # pursuit into a routed unit: the hits fall on the runaways
        down = min(ctx.defender_took, defender_before.figures)
        defender = replace(
            defender_before,
            figures=defender_before.figures - down,
            removed=defender_before.removed + down,
        )
        return prefix(
            next_charge(state.with_force(defender)),
            (
                does(state, ctx.actor, "cuts", "cut")
                + f" down {down} of the routed {defender.name}",
            ),
            frozenset({"death"}) if down else frozenset(),
        )
    defender = take_hits(defender_before, ctx.defender_took)
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
            standing(f)
            for f, took in ((attacker, ctx.attacker_took), (defender, ctx.defender_took))
            if took
        ),
        *result.lines,
    ]
    cues: set[str] = set()
    if ctx.attacker_took or ctx.defender_took:
        cues.add("death")
    if result.attacker_moves == "routs" or not attacker.figures:
        attacker = destroy(attacker)
        cues.add("resolve_failed")
    if result.defender_moves == "routs" or not defender.figures:
        defender = destroy(defender)
        cues.add("resolve_failed")
    if state.options.retreat_limbers_guns:
        attacker, attacker_limbers = _limber_to_retreat(attacker, result.attacker_moves)
        defender, defender_limbers = _limber_to_retreat(defender, result.defender_moves)
        lines.extend(
            does(state, f.name, "limbers", "limber") + " to go back: no shooting until a "
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
            does(state, defender.name, "gives", "give") + f" ground: {attacker.name} may pursue"
        )
        return Result(to(state, "pursue_ask"), tuple(lines), cues=frozenset(cues))
    if result.loser == "defender" and attacker.in_play:
        lines.append(f"{attacker.name} may occupy the position")
    return prefix(next_charge(state), tuple(lines), frozenset(cues))


def _limber_to_retreat(f: Force, moves: str) -> tuple[Force, bool]:
    """Guns giving ground move back a full (or half) move with nothing spent deploying,
    so they end limbered; the bool says whether that changed anything worth saying."""
    gives_ground = moves in ("retreats", "falls_back")
    if f.kind != "artillery" or not gives_ground or not f.on_table or f.limbered:
        return f, False
    return replace(f, limbered=True), True



def _on_pursue(state: GameState, key: str) -> Result:
    ctx = state.ctx
    yes = key == "yes"
    if yes:
        defender = state.force(ctx.target)
        nxt = "melee_attacker_roll"
        return Result(
            to(
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
                does(state, ctx.actor, "pursues", "pursue")
                + f" {defender.name} and "
                + ("attack" if is_plural(state, ctx.actor) else "attacks")
                + " again",
            ),
        )
    return prefix(
        next_charge(state), (does(state, ctx.actor, "does not", "do not") + " pursue",)
    )


# The stages this module asks and answers: game.py routes each here.
CHOICES: dict[str, ChoiceStep] = {
    "melee_cover": ChoiceStep(_ask_melee_cover, _on_melee_cover),
    "melee_square": ChoiceStep(yes_no("Defender in square?", "target"), _on_melee_square),
    "come_on_attacker_use": ChoiceStep(_ask_come_on_use, _on_come_on_use),
    "come_on_defender_use": ChoiceStep(_ask_come_on_use, _on_come_on_use),
    "pursue_ask": ChoiceStep(yes_no("Pursue {target}?", "actor", yes_first=True), _on_pursue),
}

ROLLS: dict[str, RollStep] = {
    "melee_attacker_roll": RollStep(_ask_melee_roll, _on_melee_roll),
    "melee_defender_roll": RollStep(_ask_melee_roll, _on_melee_roll),
    "come_on_attacker_roll": RollStep(_ask_come_on_roll, _on_come_on_roll),
    "come_on_defender_roll": RollStep(_ask_come_on_roll, _on_come_on_roll),
}
