"""The sequence of play as a state machine: preparations, two attacks, chip-bag turns.

`start` gives the first state; `next_step` says what the box waits for; `advance`
applies one input. Every pending question lives in `GameState.pending`, so a
state replayed from the journal asks exactly what it asked before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from companion.rules.chipbag import ChipBag
from companion.rules.core import (
    AwaitChip,
    AwaitChoice,
    AwaitRoll,
    ChipDrawn,
    Choice,
    Chosen,
    GameInput,
    GameOver,
    Outcome,
    Rolled,
    RulesError,
    Scenario,
    Step,
    Transition,
)
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.actions import ACTIONS
from companion.rules.tenir_le_fort.movement import gun_can_move
from companion.rules.tenir_le_fort.state import (
    Act,
    AskChip,
    AskChoice,
    AskRoll,
    Config,
    GameState,
    Melee,
    Over,
    UnitState,
)
from companion.rules.tenir_le_fort.wounds import WoundCheck, check_from_params

# ---------------------------------------------------------------- plumbing


@dataclass
class Tx:
    """What one input tells the table (built up while handling it)."""

    log: list[str] = field(default_factory=list)
    cues: set[str] = field(default_factory=set)
    outcome: Outcome | None = None

    def say(self, *lines: str) -> None:
        self.log.extend(lines)


def other(side: str) -> str:
    return "Arab" if side == "FFL" else "FFL"


def ask(
    s: GameState, purpose: str, prompt: str, options: list[tuple[str, str]], about: str = ""
) -> GameState:
    if not options:
        raise AssertionError(f"no options for {purpose}")
    choices = tuple(Choice(k, label[:18]) for k, label in options)
    return replace(s, pending=AskChoice(purpose, prompt, choices, about))


def roll(
    s: GameState, purpose: str, action: str, params: Mapping[str, int | bool | str]
) -> GameState:
    full = ACTIONS[action].complete_params(params)
    return replace(s, pending=AskRoll(purpose, action, tuple(sorted(full.items()))))


def yes_no(
    s: GameState, purpose: str, prompt: str, about: str = "", yes_first: bool = False
) -> GameState:
    opts = [("no", "No"), ("yes", "Yes")]
    return ask(s, purpose, prompt, opts[::-1] if yes_first else opts, about)


# ---------------------------------------------------------------- setup


def config_of(scenario: Scenario) -> Config:
    o = scenario.options
    su = scenario.setup
    return Config(
        title=scenario.title,
        turn_limit=int(str(su["turn_limit"])),
        max_preparation_days=int(str(su["max_preparation_days"])),
        tower=bool(su["tower"]),
        tower_donor=str(su["tower_donor"]),
        ffl_mines=int(str(su["ffl_mines"])),
        resolve_threshold=int(str(o["resolve_threshold"])),
        cp_per_turn=o["command_points_roll"] == "per_turn",
        max_heroes=int(str(o["max_heroes"])),
        artillery_wall_range=int(str(o["artillery_wall_range"])),
        ammo_eleven=str(o["ammo_eleven"]),
        cc_result_from=str(o["cc_result_from"]),
        leader_bonus_whole_unit=o["leader_cc_bonus"] == "unit",
        jam_clear_fires=bool(o["jam_clear_fires"]),
        pinned_recovery_moves=bool(o["pinned_recovery_moves"]),
        sentry_tie=str(o["sentry_tie"]),
        next_attack_roll=str(o["next_attack_roll"]),
        sentries=bool(su["sentries"]),
    )


def _int_trait(traits: Mapping[str, object], key: str) -> int:
    value = traits.get(key, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def start(scenario: Scenario) -> GameState:
    units: list[UnitState] = []
    for u in scenario.units:
        tr = u.traits
        units.append(
            UnitState(
                name=u.name,
                side=u.side,
                kind=u.kind,
                chip=u.chip or "",
                figures=u.figures,
                start_figures=u.figures,
                leader=u.leader or "",
                rank=str(tr.get("rank", "")) if (u.leader or u.kind == "leader") else "",
                mixed_tribes=bool(tr.get("mixed_tribes", False)),
                ladder=str(tr.get("ladder", "")),
                dynamite=_int_trait(tr, "dynamite"),
                on_wall=bool(tr.get("on_wall", False)),
                pistols=_int_trait(tr, "pistols"),
                reinforcement=bool(tr.get("reinforcement", False)),
                present=not bool(tr.get("reinforcement", False)),
            )
        )
    cfg = config_of(scenario)
    if cfg.tower:
        units.append(UnitState("Tower", "FFL", "tower", "", 0, t.TOWER_CAPACITY))
    s = GameState(config=cfg, units=tuple(units), pending=Over(None, ""))
    return _ask_preparation(s)


def _ask_preparation(s: GameState) -> GameState:
    days = range(1, s.config.max_preparation_days + 1) if s.config.max_preparation_days else [0]
    return ask(
        s,
        "prep_days",
        "Arab days to prepare?",
        [(f"days:{d}", f"{d} day{'s' if d != 1 else ''}") for d in days],
        "before the game",
    )


# ---------------------------------------------------------------- queries


def command_figures(s: GameState, side: str) -> tuple[UnitState, ...]:
    return tuple(u for u in s.side_units(side) if u.kind == "leader")


def has_command(s: GameState, side: str) -> bool:
    if command_figures(s, side):
        return True
    return any(
        u.rank in ("mounted", "captain", "lieutenant") and u.leader for u in s.side_units(side)
    )


def combatants(s: GameState, side: str) -> tuple[UnitState, ...]:
    return tuple(u for u in s.side_units(side) if u.kind not in ("leader",))


def fighting_figures(s: GameState, side: str) -> int:
    """Figures that can still fight: command figures and supply trains alone do not."""
    return sum(u.figures for u in s.side_units(side) if u.kind not in ("supply", "leader"))


def targets_for(s: GameState, side: str, *, leaders: bool = True) -> list[UnitState]:
    out = [u for u in s.side_units(other(side)) if leaders or u.kind != "leader"]
    return out


def snipeable(u: UnitState) -> bool:
    return bool(u.leader) and u.rank in ("mounted", "captain", "lieutenant")


def cover_options(target: UnitState) -> list[tuple[str, str]]:
    # defenders of the fort are usually in heavy cover, attackers in the open
    order = ["heavy", "light", "none"] if target.side == "FFL" else ["none", "light", "heavy"]
    labels = {"none": "In the open", "light": "Light cover", "heavy": "Heavy cover"}
    return [(f"cover:{c}", labels[c]) for c in order]


def tower(s: GameState) -> UnitState | None:
    for u in s.units:
        if u.kind == "tower":
            return u
    return None


# ---------------------------------------------------------------- pre-game


def _after_prep_days(s: GameState, key: str, tx: Tx) -> GameState:
    days = int(key.split(":")[1])
    s = replace(s, preparation_days=days, day=days + 1)
    tx.say(f"The Arabs prepare for {days} day(s); the first attack comes on day {days + 1}.")
    return _ask_ffl_prep(s)


def _ask_ffl_prep(s: GameState) -> GameState:
    opts: list[tuple[str, str]] = []
    if not s.patrols:
        opts.append(("patrols", "Increase patrols"))
    if s.mines < s.config.ffl_mines:
        opts.append(("mine", "Mine a building"))
    opts.append(("done", "Done preparing"))
    return ask(s, "ffl_prep", "FFL preparations?", opts, "before the game")


def _after_ffl_prep(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "patrols":
        tx.say("FFL preparation: increased patrols (+1 to sentry rolls).")
        return _ask_ffl_prep(replace(s, patrols=True, preparations=(*s.preparations, key)))
    if key == "mine":
        tx.say(f"FFL preparation: a building is mined ({s.mines + 1} in all).")
        return _ask_ffl_prep(replace(s, mines=s.mines + 1, preparations=(*s.preparations, key)))
    tx.say("The referee rolls in secret for the day the relief column arrives.")
    return roll(s, "relief_day", "reinforcement-day", {})


SORTIE_PHASES: tuple[str, ...] = ("over the wall", "desert to wall", "attack the target")


def _phases(side: str) -> tuple[str, ...]:
    """The phases of a night operation: Arabs sneak in, the FFL sneak out."""
    return t.SABOTAGE_PHASES if side == "Arab" else SORTIE_PHASES


def _ask_sabotage(s: GameState) -> GameState:
    opts = [("none", "No sabotage")]
    for u in combatants(s, "Arab"):
        if u.kind == "foot":
            opts.append((f"unit:{u.name}", u.name))
    return ask(s, "sabotage", "Arab sabotage tonight?", opts, f"night before day {s.day}")


def _ask_sortie(s: GameState, tx: Tx) -> GameState:
    opts = [("none", "No sortie")]
    for u in combatants(s, "FFL"):
        if u.kind == "foot" and u.figures >= 2:
            opts.append((f"unit:{u.name}", u.name))
    if len(opts) == 1 or not fighting_figures(s, "Arab"):
        return _begin_attack(s, tx)
    return ask(s, "sortie", "FFL sortie tonight?", opts, f"night before day {s.day}")


def _after_sabotage(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "none":
        tx.say("No Arab sabotage tonight.")
        return _ask_sortie(replace(s, act=Act()), tx)
    name = key.split(":", 1)[1]
    s = replace(s, act=Act(sabotage_unit=name, sabotage_side="Arab"))
    return ask(
        s,
        "sabotage_target",
        "Saboteurs' target?",
        [("gate", "Blow the gate"), ("other", "Other target")],
        name,
    )


def _after_sortie(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "none":
        tx.say("No FFL sortie tonight.")
        return _begin_attack(s, tx)
    name = key.split(":", 1)[1]
    s = replace(s, act=Act(sabotage_unit=name, sabotage_side="FFL"))
    return _start_operation(s, "ambush", tx)


def _sabotage_params(s: GameState) -> dict[str, int | bool | str]:
    side = s.act.sabotage_side
    phases = _phases(side)
    phase = phases[s.act.sabotage_phase]
    unit = s.unit(s.act.sabotage_unit)
    tries = s.arab_infiltrations if side == "Arab" else s.ffl_infiltrations
    return {
        "sentry_side": other(side),
        "phase": phase,
        "patrols": s.patrols and side == "Arab",
        "previous_attempt": tries > 1,
        "outside_fort": (side == "FFL" and phase in ("desert to wall", "attack the target"))
        or (side == "Arab" and phase == "desert to wall"),
        "grappling_hooks": phase == "over the wall" and unit.ladder == "hook",
        "tie": s.config.sentry_tie,
    }


def _after_sabotage_target(s: GameState, key: str, tx: Tx) -> GameState:
    return _start_operation(s, key, tx)


def _start_operation(s: GameState, target: str, tx: Tx) -> GameState:
    side = s.act.sabotage_side
    party = min(t.SABOTEUR_MAX_FIGURES, s.unit(s.act.sabotage_unit).figures)
    who = "saboteurs" if side == "Arab" else "legionnaires"
    tx.say(f"{party} {who} from {s.act.sabotage_unit} creep out in the night ({target}).")
    s = replace(s, act=replace(s.act, sabotage_target=target, sabotage_phase=0))
    if side == "Arab":
        s = replace(s, arab_infiltrations=s.arab_infiltrations + 1)
    else:
        s = replace(s, ffl_infiltrations=s.ffl_infiltrations + 1)
    return roll(s, "sabotage_roll", "sentry-roll", _sabotage_params(s))


def _after_operation(s: GameState, tx: Tx) -> GameState:
    """After the Arab operation comes the FFL's chance; after that the attack."""
    if s.act.sabotage_side == "Arab":
        return _ask_sortie(replace(s, act=Act()), tx)
    return _begin_attack(replace(s, act=Act()), tx)


def _after_sabotage_roll(s: GameState, out: Outcome, tx: Tx) -> GameState:
    side = s.act.sabotage_side
    phases = _phases(side)
    phase = phases[s.act.sabotage_phase]
    if "tie" in out.effects:
        tx.say(f"Night operation, {phase}: a tie, roll again.")
        return roll(s, "sabotage_roll", "sentry-roll", _sabotage_params(s))
    if "spotted" in out.effects:
        unit = s.unit(s.act.sabotage_unit)
        party = min(t.SABOTEUR_MAX_FIGURES, unit.figures)
        tx.say(f"Night operation, {phase}: spotted! The party of {party} is destroyed.")
        tx.cues.add("death")
        s = _remove_figures(s, unit.name, party, tx, count_casualties=False)
        return _after_operation(s, tx)
    tx.say(f"Night operation, {phase}: unseen.")
    if s.act.sabotage_phase + 1 < len(phases):
        s = replace(s, act=replace(s.act, sabotage_phase=s.act.sabotage_phase + 1))
        return roll(s, "sabotage_roll", "sentry-roll", _sabotage_params(s))
    if s.act.sabotage_target == "gate":
        tx.say("The saboteurs reach the gate and light the fuse.")
        return roll(
            s,
            "sabotage_gate",
            "dynamite",
            {"use": "mine", "target": "gate", "gate_damage": min(s.gate_damage, 6)},
        )
    tx.say("The operation succeeds; the referee applies its result.")
    return _after_operation(s, tx)


def _after_sabotage_gate(s: GameState, out: Outcome, tx: Tx) -> GameState:
    s = _damage_gate(s, out, tx)
    if "premature" in out.effects:
        s = _remove_figures(s, s.act.sabotage_unit, 1, tx, count_casualties=False)
    return _after_operation(s, tx)


def _damage_gate(s: GameState, out: Outcome, tx: Tx) -> GameState:
    if out.headline and not s.gate_destroyed:
        damage = s.gate_damage + out.headline
        destroyed = damage >= t.GATE_HITS
        tx.say(
            f"The gate takes {out.headline} damage ({damage} of {t.GATE_HITS})."
            + (" The gate is destroyed!" if destroyed else "")
        )
        return replace(s, gate_damage=damage, gate_destroyed=destroyed)
    return s


# ---------------------------------------------------------------- attacks


def _begin_attack(s: GameState, tx: Tx) -> GameState:
    if not fighting_figures(s, "FFL"):
        return _game_over(s, tx, "Arab", "the garrison is gone before the attack")
    if not fighting_figures(s, "Arab"):
        return _game_over(s, tx, "FFL", "the Arab force is gone before the attack")
    attack = s.attack + 1
    units = tuple(replace(u, pinned=False, berserk=False) for u in s.units)
    s = replace(
        s,
        alerted=not s.config.sentries,
        attack=attack,
        turn=0,
        casualties=0,
        units=units,
        act=Act(),
        resolve_inside=False,
        resolve_oasis=False,
    )
    tx.say(f"=== Attack {attack}, day {s.day} ===")
    if not s.alerted:
        tx.say("Only the sentries are awake: the FFL act once the alarm is raised.")
    if s.reinforcement_day and s.reinforcement_day < s.day and not s.relief_arrived:
        s = _relief_arrives(s, tx, into_bag=False)
    tx.say("The Arabs mark their starting positions on a map (36 inches out or out of sight).")
    if attack > 1 and not s.supply_through:
        return roll(s, "ammo", "ammunition", {"eleven": s.config.ammo_eleven})
    return _after_ammo_stage(s, tx)


def _after_ammo_stage(s: GameState, tx: Tx) -> GameState:
    if s.attack > 1:
        return yes_no(s, "water_ffl", "FFL have water?", "second attack", yes_first=True)
    return _ask_deploy(s, tx)


def _ask_deploy(s: GameState, tx: Tx) -> GameState:
    tw = tower(s)
    donor = s.config.tower_donor
    if tw is not None and donor and s.unit(donor).alive:
        avail = s.unit(donor).figures + tw.figures - 1
        opts = [
            (f"tower:{n}", f"{n} in the tower") for n in range(min(t.TOWER_CAPACITY, avail), -1, -1)
        ]
        if opts:
            return ask(s, "deploy", "FFL deploy: tower?", opts, donor)
    tx.say("The FFL deploy in the fort, the oasis and the village.")
    return _start_command_points(s, tx)


def _after_deploy(s: GameState, key: str, tx: Tx) -> GameState:
    n = int(key.split(":")[1])
    tw = tower(s)
    assert tw is not None
    donor = s.unit(s.config.tower_donor)
    pool = donor.figures + tw.figures
    s = s.with_unit(replace(donor, figures=pool - n))
    s = s.with_unit(replace(tw, figures=n))
    tx.say(f"The FFL deploy; {n} legionnaire(s) from {donor.name} climb the tower.")
    return _start_command_points(s, tx)


def _start_command_points(s: GameState, tx: Tx) -> GameState:
    if has_command(s, "FFL"):
        return roll(s, "cp_ffl", "command-points", {"side": "FFL", "halved": s.ffl_lost_captain})
    tx.say("The FFL have no command figure: no command points.")
    return _cp_arab(s, tx)


def _cp_arab(s: GameState, tx: Tx) -> GameState:
    if has_command(s, "Arab"):
        return roll(s, "cp_arab", "command-points", {"side": "Arab", "halved": s.arab_lost_leader})
    tx.say("The Arabs have no command figure: no command points.")
    return _after_cp(s, tx)


def _after_cp(s: GameState, tx: Tx) -> GameState:
    if s.turn == 0:
        tx.say("The Arabs place their units as mapped.")
        s = replace(s, turn=1, bag=ChipBag.of(_chips_in_play(s)))
        tx.say(f"Turn 1: {len(s.bag.in_bag)} chips in the bag.")
    return _draw(s, tx)


def _chips_in_play(s: GameState) -> list[str]:
    return [u.chip for u in s.units if u.alive and u.chip]


def _draw(s: GameState, tx: Tx) -> GameState:
    s = replace(s, act=Act())
    if s.bag.empty:
        return _end_of_turn(s, tx)
    return replace(s, pending=AskChip(f"Attack {s.attack} turn {s.turn}: draw a chip"))


def _end_of_turn(s: GameState, tx: Tx) -> GameState:
    tx.cues.add("turn_end")
    tx.say(f"End of turn {s.turn}: {s.casualties} Arab casualties this attack.")
    need = t.resolve_needed(s.casualties, first_band_from=s.config.resolve_threshold)
    if need is not None:
        return yes_no(s, "resolve_inside", "Arabs inside fort?", "resolve check")
    return _next_turn(s, tx)


def _resolve_params(s: GameState, cp: int) -> dict[str, int | bool | str]:
    return {
        "casualties": s.casualties,
        "inside_fort": s.resolve_inside,
        "oasis": s.resolve_oasis,
        "command_points": cp,
        "first_band": str(s.config.resolve_threshold),
    }


def _ask_resolve_cp(s: GameState, tx: Tx) -> GameState:
    if s.cp_arab and command_figures(s, "Arab"):
        opts = [(f"cp:{n}", f"Spend {n} CP") for n in range(0, min(s.cp_arab, 6) + 1)]
        return ask(s, "resolve_cp", "Arab CP on resolve?", opts, "resolve check")
    return roll(s, "resolve", "arab-resolve", _resolve_params(s, 0))


def _after_resolve(s: GameState, out: Outcome, tx: Tx) -> GameState:
    if "resolve_failed" in out.effects:
        tx.cues.add("resolve_failed")
        tx.say("Arab resolve fails: they fall back. The attack is over.")
        return _end_attack(s, tx, "the Arabs fell back")
    tx.say("Arab resolve holds: the attack goes on.")
    return _next_turn(s, tx)


def _next_turn(s: GameState, tx: Tx) -> GameState:
    if s.turn >= s.config.turn_limit:
        tx.say(f"Turn limit ({s.config.turn_limit}) reached: night falls and the attack ends.")
        return _end_attack(s, tx, "night fell")
    s = replace(s, turn=s.turn + 1, bag=s.bag.refill())
    tx.say(f"Turn {s.turn}: {len(s.bag.in_bag)} chips in the bag.")
    if s.config.cp_per_turn:
        return _start_command_points(s, tx)
    return _draw(s, tx)


def _end_attack(s: GameState, tx: Tx, reason: str) -> GameState:
    s = replace(s, act=Act())
    if not fighting_figures(s, "FFL"):
        return _game_over(s, tx, "Arab", "the garrison is wiped out")
    if not fighting_figures(s, "Arab"):
        return _game_over(s, tx, "FFL", "the Arab force is destroyed")
    supply = [u for u in s.side_units("FFL") if u.kind == "supply"]
    if supply and not s.supply_through:
        s = replace(s, act=Act(action=reason))
        return yes_no(s, "supply", "Supply reached fort?", supply[0].name, yes_first=True)
    return _after_supply(s, tx, reason)


def _after_supply(s: GameState, tx: Tx, reason: str) -> GameState:
    if s.attack >= 2:
        return _game_over(s, tx, "FFL", f"{reason} on the last attack: the fort holds")
    return ask(
        s,
        "second_attack",
        "Arabs attack again?",
        [("attack", "Attack again"), ("withdraw", "Withdraw")],
        "after attack 1",
    )


def _game_over(s: GameState, tx: Tx, winner: str, reason: str) -> GameState:
    tx.cues.add("game_over")
    tx.say(f"Game over: {winner} win ({reason}).")
    return replace(s, pending=Over(winner, reason), act=Act())


def _relief_arrives(s: GameState, tx: Tx, *, into_bag: bool) -> GameState:
    units = []
    bag = s.bag
    for u in s.units:
        if u.reinforcement and not u.present:
            u = replace(u, present=True)
            if into_bag and u.chip:
                bag = bag.add(u.chip)
        units.append(u)
    tx.say("The relief column arrives: " + ", ".join(u.name for u in s.units if u.reinforcement))
    return replace(s, units=tuple(units), bag=bag, relief_arrived=True)


# ---------------------------------------------------------------- activations


def _on_chip(s: GameState, chip: str, tx: Tx) -> GameState:
    bag = s.bag.draw(chip)
    s = replace(s, bag=bag)
    tx.cues.add("chip")
    unit = next(u for u in s.units if u.chip == chip)
    tx.say(f"Chip {chip}: {unit.name} ({unit.side}).")
    if unit.kind == "leader":
        if unit.side == "FFL" and s.alerted and _relief_pending(s):
            # rolled on every FFL leader chit so that the relief day stays secret
            s = replace(s, act=Act(unit=unit.name, leader_chip=unit.chip))
            due = s.reinforcement_day == s.day
            return roll(s, "relief_arrival", "reinforcement-arrival", {"due": due})
        return _leader_menu(s, unit.name, ())
    return _unit_menu(s, unit.name, "", ())


def _unit_menu(s: GameState, name: str, leader_chip: str, used: tuple[str, ...]) -> GameState:
    u = s.unit(name)
    s = replace(s, act=Act(unit=name, leader_chip=leader_chip, used=used))
    opts: list[tuple[str, str]] = []
    enemies = combatants(s, other(u.side))
    if u.side == "FFL" and not s.alerted:
        return ask(s, "unit_action", f"{u.name}: not alerted", [("pass", "Off duty")], u.name)
    if u.gun:
        if u.figures < 1 or u.broken:
            opts.append(("pass", "Pass (unmanned)" if not u.broken else "Pass (broken)"))
        else:
            if u.jammed:
                opts.append(("fire", "Clear the jam"))
            elif enemies and (u.side == "Arab" or s.ammo != "third"):
                opts.append(("fire", "Fire"))
            if gun_can_move(u.kind, u.figures):
                opts.append(("move", "Move"))
            opts.append(("pass", "Pass"))
        return ask(s, "unit_action", f"{u.name}: action?", opts, u.name)
    if u.kind == "supply":
        return ask(
            s, "unit_action", f"{u.name}: action?", [("move", "Move"), ("pass", "Pass")], u.name
        )
    if u.berserk:
        opts = [("charge", "Charge (berserk)")] if enemies else []
        opts.append(("pass", "No enemy in sight"))
        return ask(s, "unit_action", f"{u.name} is berserk", opts, u.name)
    if enemies:
        opts.append(("fire", "Fire (half)" if u.pinned else "Fire"))
    opts.append(("move", "Try to move" if u.pinned else "Move"))
    if u.side == "FFL" and not u.pinned and not u.wounded and not u.carrying_dead and enemies:
        opts.append(("move_fire", "Move and fire"))
    if not u.pinned and enemies:
        opts.append(("charge", "Charge"))
    if u.ladder and not u.pinned:
        if u.ladder_placed:
            opts.append(("assault", f"Climb the {u.ladder}"))
        else:
            opts.append(("ladder", f"Move, set {u.ladder}"))
    if u.dynamite and enemies:
        opts.append(("dynamite", "Throw dynamite"))
    hosts = [v for v in s.side_units("FFL") if v.led and v.kind == "foot" and v.name != u.name]
    if u.side == "FFL" and not u.led and u.kind == "foot" and hosts:
        opts.append(("join", "Join a led unit"))
    opts.append(("pass", "Pass"))
    return ask(s, "unit_action", f"{u.name}: action?", opts, u.name)


SNEAKY_ACTIONS = ("move", "charge", "ladder", "assault")
NOISY_ACTIONS = ("fire", "dynamite")


def _after_unit_action(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    s = replace(s, act=replace(s.act, action=key, firer=u.name))
    if u.side == "Arab" and not s.alerted:
        if key in NOISY_ACTIONS:
            tx.say("The shooting wakes the garrison: the FFL are alerted.")
            s = replace(s, alerted=True)
        elif key in SNEAKY_ACTIONS:
            return ask(
                s,
                "sentry_sight",
                "Seen by a sentry?",
                [("no", "Out of sight"), ("yes", "In sight, in range")],
                u.name,
            )
    return _do_unit_action(s, key, tx)


def _after_sentry_sight(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "no":
        return _do_unit_action(s, s.act.action, tx)
    return roll(s, "sentry", "sentry-roll", _sentry_params(s))


def _sentry_params(s: GameState) -> dict[str, int | bool | str]:
    return {
        "sentry_side": "FFL",
        "phase": "unit moving",
        "patrols": s.patrols,
        "outside_fort": True,
        "tie": s.config.sentry_tie,
    }


def _after_sentry(s: GameState, out: Outcome, tx: Tx) -> GameState:
    if "tie" in out.effects:
        return roll(s, "sentry", "sentry-roll", _sentry_params(s))
    if "spotted" in out.effects:
        tx.say(f"A sentry spots {s.act.unit} and raises the alarm: the FFL are alerted.")
        s = replace(s, alerted=True)
    else:
        tx.say(f"{s.act.unit} moves unseen.")
    return _do_unit_action(s, s.act.action, tx)


def _do_unit_action(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    if key == "pass":
        tx.say(f"{u.name} passes.")
        return _end_activation(s, tx)
    if key == "fire":
        if u.gun and u.jammed and not s.config.jam_clear_fires:
            return _gun_roll(s, tx)
        return _ask_target(s, u)
    if key in ("move", "move_fire", "ladder"):
        if u.gun:
            return roll(
                s, "move", "move-gun", {"gun": u.kind, "men": min(u.figures, 5), "leader": False}
            )
        return roll(
            s, "move", "move", _move_params(s, u, "move_and_fire" if key == "move_fire" else "move")
        )
    if key == "charge":
        opts = [(f"target:{e.name}", e.name) for e in combatants(s, other(u.side))]
        return ask(s, "charge_target", f"{u.name} charges whom?", opts, u.name)
    if key == "assault":
        opts = [
            (f"target:{e.name}", e.name)
            for e in combatants(s, "FFL")
            if e.kind in ("foot", "tower", "maxim", "artillery")
        ]
        opts.append(("clear", "No one within 2in"))
        return ask(s, "wall_defender", "FFL on the wall?", opts, u.name)
    if key == "dynamite":
        opts = [(f"target:{e.name}", e.name) for e in combatants(s, other(u.side))]
        if u.side == "Arab" and not s.gate_destroyed:
            opts.append(("gate", "The gate"))
        return ask(s, "dynamite_target", "Dynamite at?", opts, u.name)
    if key == "join":
        opts = [
            (f"unit:{v.name}", v.name)
            for v in s.side_units("FFL")
            if v.led and v.kind == "foot" and v.name != u.name
        ]
        return ask(s, "join_unit", f"{u.name} joins?", opts, u.name)
    raise RulesError(f"unknown action {key!r}")


def _move_params(s: GameState, u: UnitState, mode: str) -> dict[str, int | bool | str]:
    return {
        "side": u.side,
        "kind": "mounted" if u.kind == "mounted" else "foot",
        "mode": mode,
        "leader": u.led,
        "carrying": u.side == "FFL" and (u.wounded > 0 or u.carrying_dead),
        "pinned": u.pinned,
        "berserk": u.berserk,
        "mixed_tribes": u.mixed_tribes,
        "recovered_moves": s.config.pinned_recovery_moves,
    }


def _after_move(s: GameState, out: Outcome, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    tx.say(f"{u.name}: {out.details[-1] if out.details else ''}".rstrip())
    if "recovered" in out.effects:
        u = replace(u, pinned=False)
        tx.say(f"{u.name} recovers from pin.")
    if "regained_control" in out.effects:
        u = replace(u, berserk=False)
        tx.say(f"{u.name} is back under control.")
    failed = "pinned" in out.effects and u.pinned
    if "infighting" in out.effects:
        u = replace(u, pinned=True)
        s = s.with_unit(u)
        tx.cues.add("pin")
        tx.say(f"{u.name} falls to in-fighting!")
        return roll(s, "infighting", "infighting-losses", {"figures": min(u.figures, 60)})
    s = s.with_unit(u)
    if out.headline:
        tx.say(f"{u.name} moves up to {out.headline} inches.")
    if s.act.action == "ladder" and out.headline:
        s = s.with_unit(replace(u, ladder_placed=True))
        tx.say(f"{u.name} sets its {u.ladder} against the wall.")
    if failed:
        return _offer_unpin(s, tx)
    if s.act.action == "move_fire" and out.headline:
        s = replace(s, act=replace(s.act, mode="moving"))
        return _ask_target(s, s.unit(u.name))
    return _end_activation(s, tx)


def _after_infighting(s: GameState, out: Outcome, tx: Tx) -> GameState:
    tx.cues.add("death")
    s = _remove_figures(s, s.act.unit, out.headline, tx)
    return _end_activation(s, tx)


def _offer_unpin(s: GameState, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    if u.side == "Arab" and u.pinned and s.cp_arab >= 1 and command_figures(s, "Arab"):
        return yes_no(s, "unpin", "Spend 1 CP: unpin?", u.name)
    return _end_activation(s, tx)


def _after_unpin(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "yes":
        u = s.unit(s.act.unit)
        s = s.with_unit(replace(u, pinned=False)).with_cp("Arab", s.cp_arab - 1)
        tx.say(f"The Arabs spend 1 command point: {u.name} is no longer pinned.")
    return _end_activation(s, tx)


def _end_activation(s: GameState, tx: Tx) -> GameState:
    donor, n = s.tower_climb
    if donor and donor == s.act.unit:
        tw = tower(s)
        d = s.unit(donor)
        if tw is not None and d.alive:
            moved = min(n, d.figures, t.TOWER_CAPACITY - tw.figures)
            s = s.with_unit(replace(d, figures=d.figures - moved))
            s = s.with_unit(replace(tw, figures=tw.figures + moved))
            tx.say(f"{moved} legionnaire(s) of {donor} reach the top of the tower.")
            if not s.unit(donor).alive:
                s = replace(s, bag=s.bag.remove(d.chip))
        s = replace(s, tower_climb=("", 0))
    if not fighting_figures(s, "FFL"):
        return _game_over(s, tx, "Arab", "the garrison is wiped out")
    if not fighting_figures(s, "Arab"):
        return _end_attack(s, tx, "the Arabs were wiped out")
    if s.act.leader_chip:
        leader = next((u for u in s.units if u.chip == s.act.leader_chip), None)
        if leader is not None and leader.alive:
            return _leader_menu(s, leader.name, s.act.used)
    return _draw(s, tx)


# ---------------------------------------------------------------- leaders' chits


def _leader_menu(s: GameState, name: str, used: tuple[str, ...]) -> GameState:
    leader = s.unit(name)
    side = leader.side
    s = replace(s, act=Act(unit=name, leader_chip=leader.chip, used=used))
    cp = s.cp(side)
    opts: list[tuple[str, str]] = []
    if side == "FFL" and not s.alerted:
        return ask(s, "leader_menu", f"{leader.name}: asleep", [("done", "Off duty")], name)

    def offer(key: str, label: str) -> None:
        if key not in used:
            opts.append((key, label))

    if side == "FFL":
        tw = tower(s)
        if tw is not None and tw.figures and combatants(s, "Arab"):
            offer("tower_fire", "Tower fires")
        for g in s.side_units("FFL"):
            if g.gun and not g.broken and combatants(s, "Arab") and (g.jammed or s.ammo != "third"):
                offer(f"gun:{g.name}", f"{g.name} fires"[:18])
        if s.mines and combatants(s, "Arab"):
            offer("mine", "Detonate a mine")
        if cp >= 1:
            offer("extra_turn", "Extra turn (1CP)")
        heroes = sum(u.heroes for u in s.side_units("FFL"))
        if cp >= 2 and heroes < s.config.max_heroes:
            offer("hero", "Hero (2CP)")
        if (
            cp >= 1
            and any(
                g.gun and g.figures == 0 and not g.broken and g.present
                for g in s.units
                if g.side == "FFL"
            )
            and _recrew_donors(s)
        ):
            offer("recrew", "Re-crew gun (1CP)")
        if cp >= 1 and tw is not None and tw.figures < t.TOWER_CAPACITY and _tower_donors(s):
            offer("tower", "Man tower (1CP)")
    else:
        for g in s.side_units("Arab"):
            if g.gun and not g.broken and combatants(s, "FFL"):
                offer(f"gun:{g.name}", f"{g.name} fires"[:18])
        if cp >= 1:
            offer("extra_turn", "Extra turn (1CP)")
        if cp >= 2 and any(g.kind == "maxim" and g.figures == 0 and not g.broken for g in s.units):
            offer("crew_mg", "Crew MG (2CP)")
    opts.append(("done", "Done"))
    return ask(s, "leader_menu", f"{leader.name} ({cp} CP)", opts, leader.name)


def _recrew_donors(s: GameState) -> list[UnitState]:
    return [u for u in s.side_units("FFL") if u.kind == "foot" and u.figures >= 2]


def _tower_donors(s: GameState) -> list[UnitState]:
    return [u for u in s.side_units("FFL") if u.kind == "foot" and u.figures >= 2]


def _after_leader_menu(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    side = leader.side
    used = (*s.act.used, key)
    s = replace(s, act=replace(s.act, used=used))
    if key == "done":
        tx.say(f"{leader.name} is done.")
        return _draw(s, tx)
    if key == "tower_fire":
        s = replace(s, act=replace(s.act, firer="Tower", action="fire"))
        return _ask_target(s, s.unit("Tower"))
    if key.startswith("gun:"):
        g = s.unit(key[4:])
        s = replace(s, act=replace(s.act, firer=g.name, action="fire"))
        if g.jammed and not s.config.jam_clear_fires:
            return _gun_roll(s, tx)
        return _ask_target(s, g)
    if key == "mine":
        opts = [(f"target:{e.name}", e.name) for e in combatants(s, "Arab")]
        return ask(s, "mine_target", "Mine under whom?", opts, leader.name)
    if key == "extra_turn":
        opts = [
            (f"unit:{u.name}", u.name)
            for u in s.side_units(side)
            if u.kind not in ("leader",) and u.chip
        ]
        if not opts:
            return _leader_menu(s, leader.name, used)
        return ask(s, "extra_unit", "Extra turn for?", opts, leader.name)
    if key == "hero":
        opts = [
            (f"unit:{u.name}", u.name)
            for u in s.side_units("FFL")
            if u.kind in ("foot", "tower", "maxim", "artillery")
        ]
        return ask(s, "hero_unit", "Hero in which unit?", opts, leader.name)
    if key == "recrew":
        opts = [(f"unit:{u.name}", u.name) for u in _recrew_donors(s)]
        return ask(s, "recrew_donor", "Crew taken from?", opts, leader.name)
    if key == "tower":
        opts = [(f"unit:{u.name}", u.name) for u in _tower_donors(s)]
        return ask(s, "tower_donor", "Tower men from?", opts, leader.name)
    if key == "crew_mg":
        g = next(g for g in s.units if g.kind == "maxim" and g.figures == 0 and not g.broken)
        s = s.with_unit(
            replace(g, side="Arab", figures=t.FULL_CREW["maxim"], jammed=False, present=True)
        ).with_cp("Arab", s.cp_arab - 2)
        if g.chip and g.chip not in s.bag.in_play:
            s = replace(s, bag=s.bag.add_next_turn(g.chip))
        tx.say(f"The Arabs spend 2 command points and crew the captured {g.name}.")
        return _leader_menu(s, leader.name, used)
    raise RulesError(f"unknown leader option {key!r}")


def _relief_pending(s: GameState) -> bool:
    return not s.relief_arrived and any(u.reinforcement and not u.present for u in s.units)


def _after_relief_arrival(s: GameState, out: Outcome, tx: Tx) -> GameState:
    leader = s.act.unit
    if "arrived" in out.effects:
        s = _relief_arrives(s, tx, into_bag=True)
    else:
        tx.say("No sign of the relief column.")
    return _leader_menu(s, leader, s.act.used)


def _after_extra_unit(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    name = key.split(":", 1)[1]
    s = s.with_cp(leader.side, s.cp(leader.side) - 1)
    tx.say(f"{leader.name} spends 1 command point: {name} takes an extra turn.")
    return _unit_menu(s, name, leader.chip, s.act.used)


def _after_hero_unit(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    u = s.unit(key.split(":", 1)[1])
    s = s.with_unit(replace(u, heroes=u.heroes + 1)).with_cp("FFL", s.cp_ffl - 2)
    tx.say(f"{leader.name} spends 2 command points: a hero rises in {u.name}.")
    return _leader_menu(s, leader.name, s.act.used)


def _after_recrew(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    donor = s.unit(key.split(":", 1)[1])
    g = next(g for g in s.units if g.side == "FFL" and g.gun and g.figures == 0 and not g.broken)
    men = min(t.FULL_CREW[g.kind], donor.figures - 1)
    s = s.with_unit(replace(donor, figures=donor.figures - men))
    s = s.with_unit(replace(g, figures=men, present=True)).with_cp("FFL", s.cp_ffl - 1)
    if g.chip:
        s = replace(s, bag=s.bag.add_next_turn(g.chip))
    tx.say(f"{leader.name} spends 1 command point: {men} men of {donor.name} man the {g.name}.")
    return _leader_menu(s, leader.name, s.act.used)


def _after_tower_donor(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    donor = key.split(":", 1)[1]
    tw = tower(s)
    assert tw is not None
    s = replace(s, tower_climb=(donor, t.TOWER_CAPACITY - tw.figures)).with_cp("FFL", s.cp_ffl - 1)
    tx.say(
        f"{leader.name} spends 1 command point: men of {donor} go to the foot of the tower; "
        "they reach the top at the end of that unit's next activation."
    )
    return _leader_menu(s, leader.name, s.act.used)


def _after_join(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    host = s.unit(key.split(":", 1)[1])
    s = s.with_unit(
        replace(
            host,
            figures=host.figures + u.figures,
            wounded=host.wounded + u.wounded,
            heroes=host.heroes + u.heroes,
            carrying_dead=host.carrying_dead or u.carrying_dead,
        )
    )
    s = s.with_unit(replace(u, figures=0, wounded=0, heroes=0))
    s = replace(s, bag=s.bag.remove(u.chip))
    tx.say(f"{u.name} joins {host.name}.")
    return _end_activation(s, tx)


# ---------------------------------------------------------------- fire


def _ask_target(s: GameState, firer: UnitState) -> GameState:
    opts = [(f"target:{e.name}", e.name) for e in targets_for(s, firer.side, leaders=not firer.gun)]
    if firer.kind == "artillery" and not s.gate_destroyed and firer.side == "Arab":
        opts.append(("gate", "The gate"))
    return ask(s, "fire_target", f"{firer.name} fires at?", opts, firer.name)


def _after_fire_target(s: GameState, key: str, tx: Tx) -> GameState:
    firer = s.unit(s.act.firer)
    if key == "gate":
        s = replace(s, act=replace(s.act, target="gate", cover="none"))
        return _gun_roll(s, tx)
    target = s.unit(key.split(":", 1)[1])
    s = replace(s, act=replace(s.act, target=target.name))
    if target.kind == "leader":
        tx.say(f"{firer.name} aims at {target.name}.")
        return roll(s, "snipe", "snipe-leader", {"hero": firer.heroes > 0})
    return ask(s, "fire_cover", f"{target.name}: cover?", cover_options(target), target.name)


def _after_fire_cover(s: GameState, key: str, tx: Tx) -> GameState:
    firer = s.unit(s.act.firer)
    s = replace(s, act=replace(s.act, cover=key.split(":")[1]))
    if firer.gun:
        if firer.on_wall:
            inches = (
                t.WALL_MIN_RANGE["maxim"]
                if firer.kind == "maxim"
                else s.config.artillery_wall_range
            )
            return ask(
                s,
                "gun_range",
                f"Target within {inches}in?",
                [("far", f"Beyond {inches}in"), ("near", f"Within {inches}in")],
                firer.name,
            )
        return _gun_roll(s, tx)
    if _pistols(firer):
        return ask(
            s,
            "fire_range",
            "Within 6 inches?",
            [("far", "Beyond 6in"), ("near", "Within 6in")],
            firer.name,
        )
    return _volley_roll(s, tx)


def _pistols(u: UnitState) -> int:
    officer = 1 if (u.side == "FFL" and u.leader) else 0
    return officer + u.pistols


def _after_gun_range(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "near":
        firer = s.unit(s.act.firer)
        tx.say(f"The {firer.name} on the wall cannot depress onto so close a target.")
        return _finish_fire(s, tx)
    return _gun_roll(s, tx)


def _after_fire_range(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, act=replace(s.act, within=key == "near"))
    return _volley_roll(s, tx)


def _volley_params(s: GameState) -> tuple[str, dict[str, int | bool | str]]:
    firer = s.unit(s.act.firer)
    target = s.unit(s.act.target)
    pistols = _pistols(firer) if s.act.within else 0
    if firer.side == "Arab":
        return "arab-fire", {
            "figures": min(firer.figures, 60),
            "cover": s.act.cover,
            "pinned": firer.pinned,
            "pistols": min(pistols, 10),
            "target_unpinnable": target.unpinnable,
        }
    return "ffl-fire", {
        "riflemen": min(firer.figures, 40),
        "wounded": min(firer.wounded, firer.figures, 40),
        "mode": s.act.mode,
        "sergeant": firer.rank == "sergeant" and bool(firer.leader),
        "officer": firer.rank in ("captain", "lieutenant") and bool(firer.leader),
        "pistols": min(pistols, 6),
        "cover": s.act.cover,
        "pinned": firer.pinned,
        "ammo": s.ammo if not firer.reinforcement else "normal",
        "from_tower": firer.kind == "tower",
        "target_unpinnable": target.unpinnable,
    }


def _volley_roll(s: GameState, tx: Tx) -> GameState:
    action, params = _volley_params(s)
    req = ACTIONS[action].request(ACTIONS[action].complete_params(params))
    if not req.dice_count:
        tx.say(f"{s.act.firer} has no dice to roll.")
        return _finish_fire(s, tx)
    return roll(s, "volley", action, params)


def _gun_params(s: GameState, bonus: int = 0) -> dict[str, int | bool | str]:
    g = s.unit(s.act.firer)
    target = s.unit(s.act.target) if s.act.target and s.act.target != "gate" else None
    return {
        "side": g.side,
        "crew": min(g.figures, t.FULL_CREW[g.kind]),
        "ammo": s.ammo if g.side == "FFL" else "normal",
        "bonus_dice": bonus,
        "too_close": False,
        "cover": s.act.cover or "none",
        "target_unpinnable": target.unpinnable if target else False,
        **(
            {"jammed": g.jammed, "clear_fires": s.config.jam_clear_fires}
            if g.kind == "maxim"
            else {}
        ),
    }


def _gun_roll(s: GameState, tx: Tx, bonus: int = 0) -> GameState:
    g = s.unit(s.act.firer)
    action = f"{g.kind}-fire"
    params = _gun_params(s, bonus)
    req = ACTIONS[action].request(ACTIONS[action].complete_params(params))
    if not req.dice_count:
        tx.say(f"The {g.name} cannot fire.")
        return _finish_fire(s, tx)
    return roll(s, "gun" if not bonus else "gun_bonus", action, params)


def _after_volley(s: GameState, out: Outcome, tx: Tx) -> GameState:
    firer = s.unit(s.act.firer)
    target = s.unit(s.act.target)
    tx.say(f"{firer.name} fires at {target.name}: {out.headline} hits.")
    if "recovered" in out.effects:
        s = s.with_unit(replace(firer, pinned=False))
        tx.say(f"{firer.name} recovers from pin.")
    if "pinned" in out.effects and not target.pinned:
        s = s.with_unit(replace(target, pinned=True))
        tx.cues.add("pin")
        tx.say(f"{target.name} is pinned.")
    s = replace(s, act=replace(s.act, hits=out.headline))
    return _saves_stage(s, tx)


def _after_gun(s: GameState, out: Outcome, tx: Tx) -> GameState:
    g = s.unit(s.act.firer)
    bonus = isinstance(s.pending, AskRoll) and s.pending.purpose == "gun_bonus"
    if "broken" in out.effects:
        s = s.with_unit(replace(g, broken=True, jammed=False))
        tx.cues.add("jam")
        tx.say(f"The {g.name} is broken for good.")
    elif "cleared" in out.effects:
        s = s.with_unit(replace(g, jammed=False))
        tx.say(f"The {g.name}'s jam is cleared.")
    elif "jammed" in out.effects:
        s = s.with_unit(replace(g, jammed=True))
        tx.cues.add("jam")
        tx.say(f"The {g.name} jams!" if not g.jammed else f"The {g.name} is still jammed.")
    hits = s.act.hits + out.headline
    s = replace(s, act=replace(s.act, hits=hits))
    if not s.act.target:
        return _finish_fire(s, tx)
    if s.act.target != "gate":
        target = s.unit(s.act.target)
        if "pinned" in out.effects and not target.pinned:
            s = s.with_unit(replace(target, pinned=True))
            tx.cues.add("pin")
            tx.say(f"{target.name} is pinned.")
    tx.say(f"The {g.name}: {out.headline} hits" + (" (rolling again)" if bonus else "") + ".")
    if out.follow_up is not None:
        return _gun_roll(s, tx, bonus=out.follow_up.dice_count)
    if s.act.target == "gate":
        s = _damage_gate(s, Outcome(hits, "hits"), tx)
        return _finish_fire(s, tx)
    return _saves_stage(s, tx)


def _saves_stage(s: GameState, tx: Tx) -> GameState:
    firer = s.unit(s.act.firer)
    if s.act.hits and s.act.cover == "heavy" and firer.kind != "artillery":
        return roll(s, "saves", "heavy-cover-save", {"hits": min(s.act.hits, 40)})
    return _casualty_stage(s, tx)


def _after_saves(s: GameState, out: Outcome, tx: Tx) -> GameState:
    tx.say(f"Heavy cover: {s.act.hits - out.headline} saved, {out.headline} casualties.")
    s = replace(s, act=replace(s.act, hits=out.headline))
    return _casualty_stage(s, tx)


def _casualty_stage(s: GameState, tx: Tx) -> GameState:
    target = s.unit(s.act.target)
    hits = s.act.hits
    if not hits or not target.alive:
        return _snipe_stage(s, tx)
    if target.side == "Arab":
        return _arab_losses(s, target.name, hits, tx)
    if target.heroes:
        return yes_no(s, "hero_hit", "Hero among the hit?", target.name)
    return _wound_roll(s, target, hits, False)


def _wound_roll(s: GameState, target: UnitState, hits: int, hero: bool) -> GameState:
    hits = min(hits, target.figures)
    ordinary = hits - (1 if hero else 0)
    return roll(
        s,
        "wounds",
        "wound-check",
        {
            "hits": min(ordinary, 40),
            "figures": min(target.figures, 40),
            "already_wounded": min(target.wounded, target.figures, 40),
            "hero_hit": hero,
        },
    )


def _after_hero_hit(s: GameState, key: str, tx: Tx) -> GameState:
    target = s.unit(s.act.target)
    return _wound_roll(s, target, s.act.hits, key == "yes")


def _after_wounds(s: GameState, check: WoundCheck, dice: tuple[int, ...], tx: Tx) -> GameState:
    target = s.unit(s.act.target)
    r = check.tally(dice)
    # deaths fall first on unwounded figures, then on wounded ones (see wounds.apply_wounds)
    healthy = target.figures - target.wounded - (1 if check.hero_hit else 0)
    dead_of_wounded = max(0, r.killed - r.hero_killed - healthy)
    figures = target.figures - r.killed
    wounded = max(0, min(figures, target.wounded - dead_of_wounded + r.newly_wounded))
    heroes = max(0, target.heroes - (1 if r.hero_killed else 0))
    tx.say(f"{target.name}: {r.killed} killed, {r.newly_wounded} wounded.")
    if r.killed:
        tx.cues.add("death")
    s = s.with_unit(replace(target, figures=figures, wounded=wounded, heroes=heroes))
    s = _check_destroyed(s, target.name, tx)
    return _snipe_stage(s, tx)


def _arab_losses(s: GameState, name: str, n: int, tx: Tx) -> GameState:
    unit = s.unit(name)
    s = _remove_figures(s, name, n, tx)
    tx.cues.add("death")
    if unit.leader and unit.rank == "mounted" and n > 0:
        return roll(s, "leader_check", "leader-casualty", {})
    return _snipe_stage(s, tx)


def _after_leader_check(s: GameState, out: Outcome, tx: Tx) -> GameState:
    if out.headline:
        target = s.unit(s.act.target)
        s = _lose_leader(s, target.name, tx)
    return _snipe_stage(s, tx)


def _lose_leader(s: GameState, name: str, tx: Tx) -> GameState:
    u = s.unit(name)
    tx.cues.add("death")
    tx.say(f"{u.leader or u.name} ({u.rank}) falls!")
    if u.rank == "mounted":
        s = replace(s, arab_lost_leader=True)
    if u.rank == "captain":
        s = replace(s, ffl_lost_captain=True)
    if u.kind == "leader":
        s = s.with_unit(replace(u, figures=0))
        return replace(s, bag=s.bag.remove(u.chip))
    return s.with_unit(replace(u, leader="", rank="", carrying_dead=u.side == "FFL"))


def _snipe_stage(s: GameState, tx: Tx) -> GameState:
    firer = s.unit(s.act.firer)
    once = f"snipe:{firer.name}"  # one rifleman, one try, per unit per activation
    if s.act.target and s.act.target != "gate" and once not in s.act.used:
        target = s.unit(s.act.target)
        if (
            target.alive
            and snipeable(target)
            and not firer.gun
            and firer.figures
            and s.act.action in ("fire", "move_fire")
            and s.act.after_fire != "melee"
        ):
            s = replace(s, act=replace(s.act, used=(*s.act.used, once)))
            return yes_no(s, "snipe_offer", f"Snipe {target.leader}?"[:30], firer.name)
    return _finish_fire(s, tx)


def _after_snipe_offer(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "yes":
        firer = s.unit(s.act.firer)
        return roll(s, "snipe", "snipe-leader", {"hero": firer.heroes > 0})
    return _finish_fire(s, tx)


def _after_snipe(s: GameState, out: Outcome, tx: Tx) -> GameState:
    if out.headline:
        s = _lose_leader(s, s.act.target, tx)
    else:
        tx.say("The shot misses the leader.")
    return _finish_fire(s, tx)


def _finish_fire(s: GameState, tx: Tx) -> GameState:
    if s.act.after_fire == "melee":
        return _start_melee_stage(s, tx)
    firer = s.unit(s.act.firer) if s.act.firer else None
    if firer is not None and firer.pinned and firer.side == "Arab" and s.act.firer == s.act.unit:
        return _offer_unpin(s, tx)
    return _end_activation(s, tx)


def _remove_figures(
    s: GameState, name: str, n: int, tx: Tx, *, count_casualties: bool = True
) -> GameState:
    u = s.unit(name)
    lost = min(n, u.figures)
    s = s.with_unit(replace(u, figures=u.figures - lost, wounded=min(u.wounded, u.figures - lost)))
    if u.side == "Arab" and count_casualties:
        s = replace(s, casualties=s.casualties + lost, total_casualties=s.total_casualties + lost)
    if lost:
        tx.say(f"{name} loses {lost} figure(s); {u.figures - lost} left.")
    return _check_destroyed(s, name, tx)


def _check_destroyed(s: GameState, name: str, tx: Tx) -> GameState:
    u = s.unit(name)
    if u.figures <= 0 and u.present:
        if u.kind == "tower":
            tx.say("The tower is empty.")
            return s
        if u.gun:
            tx.say(f"The {u.name} has no crew left.")
            return replace(s, bag=s.bag.remove(u.chip)) if u.chip else s
        tx.say(f"{u.name} is destroyed.")
        if u.leader and u.rank == "mounted":
            s = replace(s, arab_lost_leader=True)
        if u.leader and u.rank == "captain":
            s = replace(s, ffl_lost_captain=True)
        return replace(s, bag=s.bag.remove(u.chip)) if u.chip else s
    return s


# ---------------------------------------------------------------- charges and close combat


def _after_charge_target(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    name = key.split(":", 1)[1]
    s = replace(s, act=replace(s.act, target=name, defender=name))
    tx.say(f"{u.name} declares a charge on {name}.")
    return roll(s, "charge", "move", _move_params(s, u, "charge"))


def _after_charge(s: GameState, out: Outcome, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    tx.say(f"{u.name}: {out.details[-1] if out.details else ''}")
    if "regained_control" in out.effects:
        u = replace(u, berserk=False)
        tx.say(f"{u.name} is back under control.")
    if "berserk" in out.effects:
        u = replace(u, berserk=True)
        tx.cues.add("berserk")
        tx.say(f"{u.name} goes berserk!")
    if "recovered" in out.effects:
        u = replace(u, pinned=False)
    s = s.with_unit(u)
    if "infighting" in out.effects:
        s = s.with_unit(replace(u, pinned=True))
        tx.cues.add("pin")
        return roll(s, "infighting", "infighting-losses", {"figures": min(u.figures, 60)})
    if u.pinned:
        tx.say(f"{u.name} is pinned and cannot charge.")
        return _end_activation(s, tx)
    if u.berserk:
        return _ask_reaction(s, tx)
    return ask(
        s,
        "charge_reach",
        f"Reached {s.act.target}?",
        [("yes", "Contact made"), ("no", "Fell short")],
        u.name,
    )


def _after_charge_reach(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "no":
        u = s.unit(s.act.unit)
        s = s.with_unit(replace(u, pinned=not u.unpinnable))
        tx.cues.add("pin")
        tx.say(f"{u.name} falls short: it does not move and is pinned.")
        return _end_activation(s, tx)
    return _ask_reaction(s, tx)


def _ask_reaction(s: GameState, tx: Tx) -> GameState:
    d = s.unit(s.act.target)
    opts: list[tuple[str, str]] = []
    if d.side == "FFL" and not s.alerted:
        tx.say(f"{d.name} is caught unprepared; the fighting alerts the garrison.")
        s = replace(s, alerted=True)
        return ask(s, "reaction", f"{d.name} reacts?", [("stand", "Caught unready")], d.name)
    if d.kind in ("foot", "mounted", "tower") or (d.gun and not d.jammed and not d.broken):
        opts.append(("fire", "Defensive fire"))
    if d.kind in ("foot", "mounted"):
        opts.append(("counter", "Counter-charge"))
    opts.append(("stand", "Stand"))
    return ask(s, "reaction", f"{d.name} reacts?", opts, d.name)


def _after_reaction(s: GameState, key: str, tx: Tx) -> GameState:
    d = s.unit(s.act.target)
    attacker = s.act.unit
    if key == "stand":
        return _start_melee_stage(s, tx)
    if key == "counter":
        return roll(s, "counter", "move", _move_params(s, d, "counter_charge"))
    # defensive fire: the defender fires at the charger, who counts as in the open
    s = replace(
        s,
        act=replace(
            s.act,
            firer=d.name,
            target=attacker,
            cover="none",
            after_fire="melee",
            mode="stationary",
            hits=0,
            within=False,
        ),
    )
    tx.say(f"{d.name} gives defensive fire.")
    if d.gun:
        return _gun_roll(s, tx)
    return _volley_roll(s, tx)


def _after_counter(s: GameState, out: Outcome, tx: Tx) -> GameState:
    d = s.unit(s.act.target)
    tx.say(f"{d.name} counter-charges: {out.details[-1] if out.details else ''}")
    if "berserk" in out.effects:
        d = replace(d, berserk=True)
        tx.cues.add("berserk")
        tx.say(f"{d.name} goes berserk!")
    if "recovered" in out.effects:
        d = replace(d, pinned=False)
    s = s.with_unit(d)
    if d.pinned:
        tx.say(f"{d.name} is pinned and cannot counter-charge: it stands.")
        return _start_melee_stage(s, tx)
    if d.side == "FFL" and d.figures >= 2:
        s = replace(
            s,
            act=replace(
                s.act,
                firer=d.name,
                target=s.act.unit,
                cover="none",
                after_fire="melee",
                mode="moving",
                hits=0,
            ),
        )
        return _volley_roll(s, tx)
    return _start_melee_stage(s, tx)


def _start_melee_stage(s: GameState, tx: Tx) -> GameState:
    charger = s.unit(s.act.unit)
    defender_name = s.act.defender
    s = replace(
        s, act=replace(s.act, firer=charger.name, target=defender_name, after_fire="", hits=0)
    )
    d = s.unit(defender_name)
    if not charger.alive or not d.alive:
        tx.say("No close combat: one side is gone.")
        return _end_activation(s, tx)
    if charger.pinned and not charger.berserk:
        tx.say(f"{charger.name} is pinned by the fire: the charge stops short.")
        return _end_activation(s, tx)
    if d.side == "FFL":
        opts = [("cover", "Behind cover"), ("loophole", "At a loophole"), ("open", "In the open")]
    else:
        opts = [("open", "In the open"), ("cover", "Behind cover")]
    return ask(s, "position", f"{d.name} defends?", opts, d.name)


def _after_position(s: GameState, key: str, tx: Tx) -> GameState:
    d = s.unit(s.act.target)
    s = replace(s, act=replace(s.act, cover=key))
    return yes_no(s, "surrounded", f"{d.name} surrounded?", d.name)


def _figure_wounds(u: UnitState, n: int) -> tuple[bool, ...]:
    return tuple(i >= u.figures - u.wounded for i in range(n))


def _after_surrounded(s: GameState, key: str, tx: Tx) -> GameState:
    a = s.unit(s.act.unit)
    d = s.unit(s.act.target)
    melee = Melee(
        attacker=a.name,
        defender=d.name,
        a_state=("ready",) * a.figures,
        d_state=("ready",) * d.figures,
        d_fights=(0,) * d.figures,
        a_wounded=_figure_wounds(a, a.figures),
        d_wounded=_figure_wounds(d, d.figures),
        position=s.act.cover,
        surrounded=key == "yes",
    )
    tx.say(f"Close combat: {a.figures} of {a.name} against {d.figures} of {d.name}.")
    s = replace(s, act=replace(s.act, melee=melee))
    return _next_bout(s, tx)


def _pick_bout(m: Melee) -> tuple[int, int] | None:
    a_idx = next((i for i, st in enumerate(m.a_state) if st == "ready"), None)
    if a_idx is None:
        return None
    limit = len(m.a_state) if (m.surrounded or m.ladder) else t.MAX_ATTACKERS_PER_FIGURE
    best: int | None = None
    for i, st in enumerate(m.d_state):
        if st != "ready" or (m.d_fights[i] >= limit and not m.ladder):
            continue
        if m.ladder:
            best = i
            break
        if best is None or m.d_fights[i] < m.d_fights[best]:
            best = i
    if best is None:
        return None
    return a_idx, best


def _fighter_params(s: GameState, m: Melee, a_idx: int, d_idx: int) -> dict[str, int | bool | str]:
    a = s.unit(m.attacker)
    d = s.unit(m.defender)

    def leader_for(u: UnitState, idx: int) -> str:
        if not u.leader or u.rank == "":
            return "none"
        if s.config.leader_bonus_whole_unit or idx == 0:
            return u.rank
        return "none"

    def water(u: UnitState) -> bool:
        return s.ffl_low_water if u.side == "FFL" else s.arab_low_water

    return {
        "attacker_side": a.side,
        "attacker_leader": leader_for(a, a_idx),
        "attacker_berserk": a.berserk,
        "attacker_pinned": a.pinned,
        "attacker_low_water": water(a),
        "attacker_wounded": a.side == "FFL" and m.a_wounded[a_idx],
        "attacker_hero": a.side == "FFL" and a_idx < a.heroes,
        "attacker_gun_crew": a.gun,
        "defender_leader": leader_for(d, d_idx),
        "defender_berserk": d.berserk,
        "defender_pinned": d.pinned,
        "defender_low_water": water(d),
        "defender_wounded": d.side == "FFL" and m.d_wounded[d_idx],
        "defender_hero": d.side == "FFL" and d_idx < d.heroes,
        "defender_gun_crew": d.gun,
        "defender_position": m.position
        if (d.side == "FFL" or m.position != "loophole")
        else "open",
        "defender_surrounded": m.surrounded and d.side == "Arab",
        "result_from": s.config.cc_result_from,
    }


def _next_bout(s: GameState, tx: Tx) -> GameState:
    m = s.act.melee
    assert m is not None
    pick = _pick_bout(m)
    if pick is None:
        return _end_melee(s, tx)
    m = replace(m, current=pick)
    s = replace(s, act=replace(s.act, melee=m))
    return roll(s, "bout", "close-combat", _fighter_params(s, m, *pick))


def _set(seq: tuple[str, ...], i: int, v: str) -> tuple[str, ...]:
    return (*seq[:i], v, *seq[i + 1 :])


def _setb(seq: tuple[bool, ...], i: int, v: bool) -> tuple[bool, ...]:
    return (*seq[:i], v, *seq[i + 1 :])


def _after_bout(s: GameState, out: Outcome, tx: Tx) -> GameState:
    m = s.act.melee
    assert m is not None
    a_idx, d_idx = m.current
    tx.say(*out.details)
    if out.headline == 0:
        return roll(s, "bout", "close-combat", _fighter_params(s, m, a_idx, d_idx))
    results = out.effects
    result = next(
        (r for r in ("killed", "surrendered", "wounded", "fell_back") if r in results), ""
    )
    if result == "killed":
        tx.cues.add("death")
    if out.headline == 1:  # attacker won; defender lost
        d = s.unit(m.defender)
        d_state, d_w = m.d_state, m.d_wounded
        d_falls = m.d_falls or (False,) * len(m.d_state)
        fights = tuple(f + (1 if i == d_idx else 0) for i, f in enumerate(m.d_fights))
        if result == "killed":
            d_state = _set(d_state, d_idx, "killed")
        elif result == "surrendered":
            d_state = _set(d_state, d_idx, "surrendered")
        else:
            if result == "wounded" and d.side == "FFL":
                d_w = _setb(d_w, d_idx, True)
            if m.ladder:
                d_state = _set(d_state, d_idx, "fell back")
            elif not (m.surrounded and d.side == "FFL"):
                # an outnumbered loser falls back only after his last combat
                d_falls = _setb(d_falls, d_idx, True)
        a_state = m.a_state if m.ladder else _set(m.a_state, a_idx, "done")
        m = replace(
            m,
            d_state=d_state,
            d_wounded=d_w,
            d_fights=fights,
            a_state=a_state,
            d_falls=d_falls,
        )
    else:  # defender won; attacker lost
        a = s.unit(m.attacker)
        a_state, a_w = m.a_state, m.a_wounded
        fights = tuple(f + (1 if i == d_idx else 0) for i, f in enumerate(m.d_fights))
        if result == "killed":
            a_state = _set(a_state, a_idx, "killed")
        else:
            if result == "wounded" and a.side == "FFL":
                a_w = _setb(a_w, a_idx, True)
            a_state = _set(a_state, a_idx, "fell back")
        m = replace(m, a_state=a_state, a_wounded=a_w, d_fights=fights)
    s = replace(s, act=replace(s.act, melee=m))
    return _next_bout(s, tx)


def _apply_melee(
    s: GameState, name: str, states: tuple[str, ...], wounded: tuple[bool, ...], tx: Tx
) -> tuple[GameState, bool]:
    u = s.unit(name)
    lost = sum(1 for st in states if st in ("killed", "surrendered"))
    fell = any(st == "fell back" for st in states)
    heroes_lost = sum(1 for i, st in enumerate(states) if i < u.heroes and st == "killed")
    survivors = [i for i, st in enumerate(states) if st not in ("killed", "surrendered")]
    extra = u.figures - len(states)  # figures not in the fight (ladder assaults)
    w = sum(1 for i in survivors if wounded[i]) if u.side == "FFL" else 0
    if u.side == "FFL" and extra > 0:
        w += min(u.wounded, extra)
    surrendered = sum(1 for st in states if st == "surrendered")
    new = replace(
        u,
        figures=u.figures - lost,
        wounded=min(w, u.figures - lost) if u.side == "FFL" else 0,
        heroes=max(0, u.heroes - heroes_lost),
        pinned=u.pinned or (fell and not u.unpinnable),
    )
    s = s.with_unit(new)
    if u.side == "Arab":
        s = replace(s, casualties=s.casualties + lost, total_casualties=s.total_casualties + lost)
    if lost or fell:
        parts = [f"{lost - surrendered} killed"]
        if surrendered:
            parts.append(f"{surrendered} surrendered")
        if fell:
            parts.append("some fell back (pinned)")
        tx.say(f"{name}: " + ", ".join(parts) + ".")
    s = _check_destroyed(s, name, tx)
    return s, fell and s.unit(name).alive


def _end_melee(s: GameState, tx: Tx) -> GameState:
    m = s.act.melee
    assert m is not None
    if m.d_falls:
        falling = zip(m.d_state, m.d_falls, strict=True)
        m = replace(
            m, d_state=tuple("fell back" if st == "ready" and f else st for st, f in falling)
        )
    s, a_fell = _apply_melee(s, m.attacker, m.a_state, m.a_wounded, tx)
    s, d_fell = _apply_melee(s, m.defender, m.d_state, m.d_wounded, tx)
    if m.ladder:
        climbers_left = sum(1 for st in m.a_state if st == "ready")
        defenders_left = sum(1 for st in m.d_state if st == "ready")
        if climbers_left and not defenders_left:
            tx.say(f"The wall is cleared: {climbers_left} climbers stand on it.")
            s = replace(s, act=replace(s.act, melee=None, fallbacks=_fallbacks(m, a_fell, d_fell)))
            return roll(s, "ladder_advance", "ladder-advance", {})
        tx.say("The ladder assault is thrown back." if not climbers_left else "The assault ends.")
    s = replace(s, act=replace(s.act, melee=None, fallbacks=_fallbacks(m, a_fell, d_fell)))
    return _fallback_stage(s, tx)


def _fallbacks(m: Melee, a_fell: bool, d_fell: bool) -> tuple[str, ...]:
    return tuple(n for n, f in ((m.attacker, a_fell), (m.defender, d_fell)) if f)


def _fallback_stage(s: GameState, tx: Tx) -> GameState:
    if s.act.fallbacks:
        tx.cues.add("pin")
        return roll(s, "fall_back", "fall-back", {})
    return _end_activation(s, tx)


def _after_fall_back(s: GameState, out: Outcome, tx: Tx) -> GameState:
    name = s.act.fallbacks[0]
    tx.say(f"The losers of {name} fall back {out.headline} inches, pinned.")
    s = replace(s, act=replace(s.act, fallbacks=s.act.fallbacks[1:]))
    return _fallback_stage(s, tx)


# ---------------------------------------------------------------- ladders and dynamite


def _after_wall_defender(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    if key == "clear":
        return roll(s, "ladder_climb", "ladder-climb", {"figures": min(u.figures, 60)})
    d = s.unit(key.split(":", 1)[1])
    climbers = min(t.LADDER_ASSAULT_CLIMBERS[u.ladder], u.figures)
    melee = Melee(
        attacker=u.name,
        defender=d.name,
        a_state=("ready",) * climbers,
        d_state=("ready",) * d.figures,
        d_fights=(0,) * d.figures,
        a_wounded=(False,) * climbers,
        d_wounded=_figure_wounds(d, d.figures),
        position="cover",
        surrounded=False,
        ladder=True,
    )
    tx.say(f"{climbers} of {u.name} climb the {u.ladder} one at a time against {d.name}.")
    s = replace(s, act=replace(s.act, melee=melee, target=d.name))
    return _next_bout(s, tx)


def _after_ladder_climb(s: GameState, out: Outcome, tx: Tx) -> GameState:
    tx.say(f"{out.headline} figures of {s.act.unit} climb onto the wall unopposed.")
    return _end_activation(s, tx)


def _after_ladder_advance(s: GameState, out: Outcome, tx: Tx) -> GameState:
    tx.say(f"The climbers move {out.headline} inches along the wall.")
    return _fallback_stage(s, tx)


def _after_dynamite_target(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    s = s.with_unit(replace(u, dynamite=u.dynamite - 1))
    if key == "gate":
        s = replace(s, act=replace(s.act, target="gate"))
        return roll(
            s,
            "dynamite",
            "dynamite",
            {"use": "thrown", "target": "gate", "gate_damage": min(s.gate_damage, 6)},
        )
    target = s.unit(key.split(":", 1)[1])
    s = replace(s, act=replace(s.act, target=target.name, cover="none"))
    return roll(
        s,
        "dynamite",
        "dynamite",
        {"use": "thrown", "target": "unit", "ladder": bool(target.ladder)},
    )


def _after_dynamite(s: GameState, out: Outcome, tx: Tx) -> GameState:
    tx.say(*out.details)
    thrower = s.act.unit
    if "premature" in out.effects:
        tx.cues.add("death")
        s = _remove_figures(s, thrower, 1, tx)
        return _end_activation(s, tx)
    if s.act.target == "gate":
        s = _damage_gate(s, out, tx)
        return _end_activation(s, tx)
    target = s.unit(s.act.target)
    if "ladder_destroyed" in out.effects:
        s = s.with_unit(replace(target, ladder="", ladder_placed=False))
        tx.say(f"{target.name}'s ladder is destroyed.")
    s = replace(s, act=replace(s.act, hits=out.headline, firer=thrower))
    return _casualty_stage(s, tx)


def _after_mine_target(s: GameState, key: str, tx: Tx) -> GameState:
    target = key.split(":", 1)[1]
    s = replace(s, mines=s.mines - 1, act=replace(s.act, target=target, firer=s.act.unit))
    return yes_no(s, "mine_building", f"{target} in the mined building?", target)


def _after_mine_building(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, act=replace(s.act, cover="building" if key == "yes" else "none"))
    return roll(s, "mine", "dynamite", {"use": "mine", "target": "unit"})


def _after_mine(s: GameState, out: Outcome, tx: Tx) -> GameState:
    tx.say(*out.details)
    target = s.unit(s.act.target)
    leader = s.act.unit
    if "premature" in out.effects or "dud" in out.effects:
        tx.say("The mine is spent without effect on the target.")
        return _leader_menu(s, leader, s.act.used)
    if s.act.cover == "building":
        tx.say(f"The building collapses on {target.name}: every figure in it is lost.")
        tx.cues.add("death")
        s = _remove_figures(s, target.name, target.figures, tx)
        return _leader_menu(s, leader, s.act.used)
    s = replace(s, act=replace(s.act, hits=out.headline))
    return _arab_losses(s, target.name, out.headline, tx)


# ---------------------------------------------------------------- between attacks


def _after_second_attack(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "withdraw":
        return _game_over(s, tx, "FFL", "the Arabs give up the siege")
    return roll(s, "next_attack", "next-attack-day", {"rule": s.config.next_attack_roll})


def _after_next_attack(s: GameState, out: Outcome, tx: Tx) -> GameState:
    s = replace(s, day=s.day + out.headline)
    tx.say(f"The next attack will come on day {s.day}.")
    return _ask_sabotage(s)


def _after_ammo(s: GameState, out: Outcome, tx: Tx) -> GameState:
    level = {1: "normal", 2: "half", 3: "third"}[out.headline]
    tx.say(
        f"FFL ammunition: {level}."
        + (" No Maxim or artillery ammunition." if level == "third" else "")
    )
    s = replace(s, ammo=level)
    return _after_ammo_stage(s, tx)


# ---------------------------------------------------------------- dispatch

ChoiceHandler = Callable[[GameState, str, Tx], GameState]
RollHandler = Callable[[GameState, Outcome, Tx], GameState]


def _after_water_ffl(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, ffl_low_water=key == "no")
    return yes_no(s, "water_arab", "Arabs have water?", "second attack", yes_first=True)


def _after_water_arab(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, arab_low_water=key == "no")
    low = [side for side, low in (("FFL", s.ffl_low_water), ("Arab", s.arab_low_water)) if low]
    tx.say("Low on water (-1 in close combat): " + (", ".join(low) if low else "nobody") + ".")
    return _ask_deploy(s, tx)


def _after_resolve_inside(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, resolve_inside=key == "yes")
    return yes_no(s, "resolve_oasis", "Arabs hold oasis?", "resolve check")


def _after_resolve_oasis(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, resolve_oasis=key == "yes")
    return _ask_resolve_cp(s, tx)


def _after_resolve_cp(s: GameState, key: str, tx: Tx) -> GameState:
    n = int(key.split(":")[1])
    s = s.with_cp("Arab", s.cp_arab - n)
    if n:
        tx.say(f"The Arabs spend {n} command point(s) on their resolve.")
    return roll(s, "resolve", "arab-resolve", _resolve_params(s, n))


def _after_supply_choice(s: GameState, key: str, tx: Tx) -> GameState:
    reason = s.act.action
    if key == "yes":
        s = replace(s, supply_through=True, ammo="normal")
        tx.say("The supply column is inside the fort: no more ammunition rolls.")
    return _after_supply(s, tx, reason)


def _after_relief_day(s: GameState, out: Outcome, tx: Tx) -> GameState:
    tx.say("The relief day is noted in secret.")
    s = replace(s, reinforcement_day=out.headline)
    return _ask_sabotage(s)


def _after_cp_ffl(s: GameState, out: Outcome, tx: Tx) -> GameState:
    s = replace(s, cp_ffl=s.cp_ffl + out.headline)
    tx.say(f"FFL command points: +{out.headline} = {s.cp_ffl}.")
    return _cp_arab(s, tx)


def _after_cp_arab(s: GameState, out: Outcome, tx: Tx) -> GameState:
    s = replace(s, cp_arab=s.cp_arab + out.headline)
    tx.say(f"Arab command points: +{out.headline} = {s.cp_arab}.")
    return _after_cp(s, tx)


CHOICES: dict[str, ChoiceHandler] = {
    "prep_days": _after_prep_days,
    "ffl_prep": _after_ffl_prep,
    "sabotage": _after_sabotage,
    "sabotage_target": _after_sabotage_target,
    "sortie": _after_sortie,
    "sentry_sight": _after_sentry_sight,
    "deploy": _after_deploy,
    "water_ffl": _after_water_ffl,
    "water_arab": _after_water_arab,
    "unit_action": _after_unit_action,
    "leader_menu": _after_leader_menu,
    "extra_unit": _after_extra_unit,
    "hero_unit": _after_hero_unit,
    "recrew_donor": _after_recrew,
    "tower_donor": _after_tower_donor,
    "join_unit": _after_join,
    "unpin": _after_unpin,
    "fire_target": _after_fire_target,
    "fire_cover": _after_fire_cover,
    "fire_range": _after_fire_range,
    "gun_range": _after_gun_range,
    "hero_hit": _after_hero_hit,
    "snipe_offer": _after_snipe_offer,
    "charge_target": _after_charge_target,
    "charge_reach": _after_charge_reach,
    "reaction": _after_reaction,
    "position": _after_position,
    "surrounded": _after_surrounded,
    "wall_defender": _after_wall_defender,
    "dynamite_target": _after_dynamite_target,
    "mine_target": _after_mine_target,
    "mine_building": _after_mine_building,
    "resolve_inside": _after_resolve_inside,
    "resolve_oasis": _after_resolve_oasis,
    "resolve_cp": _after_resolve_cp,
    "supply": _after_supply_choice,
    "second_attack": _after_second_attack,
}

ROLLS: dict[str, RollHandler] = {
    "relief_day": _after_relief_day,
    "sentry": _after_sentry,
    "sabotage_roll": _after_sabotage_roll,
    "sabotage_gate": _after_sabotage_gate,
    "ammo": _after_ammo,
    "cp_ffl": _after_cp_ffl,
    "cp_arab": _after_cp_arab,
    "move": _after_move,
    "infighting": _after_infighting,
    "volley": _after_volley,
    "gun": _after_gun,
    "gun_bonus": _after_gun,
    "saves": _after_saves,
    "leader_check": _after_leader_check,
    "snipe": _after_snipe,
    "charge": _after_charge,
    "counter": _after_counter,
    "bout": _after_bout,
    "fall_back": _after_fall_back,
    "ladder_climb": _after_ladder_climb,
    "ladder_advance": _after_ladder_advance,
    "dynamite": _after_dynamite,
    "mine": _after_mine,
    "relief_arrival": _after_relief_arrival,
    "resolve": _after_resolve,
    "next_attack": _after_next_attack,
}


def next_step(s: GameState) -> Step:
    p = s.pending
    if isinstance(p, AskChip):
        return AwaitChip(p.prompt, s.bag.in_bag)
    if isinstance(p, AskChoice):
        return AwaitChoice(p.prompt, p.options, p.about)
    if isinstance(p, AskRoll):
        action = ACTIONS[p.action]
        params = dict(p.params)
        return AwaitRoll(action.request(params), action.odds(params))
    summary = (f"{p.winner or 'Nobody'} win: {p.reason}.", *describe(s))
    return GameOver(p.winner, summary)


def advance(s: GameState, given: GameInput) -> Transition:
    p = s.pending
    tx = Tx()
    if isinstance(p, Over):
        raise RulesError("the game is over")
    if isinstance(p, AskChip):
        if not isinstance(given, ChipDrawn):
            raise RulesError(f"expected a chip from the bag, got {type(given).__name__}")
        new = _on_chip(s, given.chip, tx)
    elif isinstance(p, AskChoice):
        if not isinstance(given, Chosen):
            raise RulesError(f"expected a choice ({p.prompt}), got {type(given).__name__}")
        keys = [o.key for o in p.options]
        if given.key not in keys:
            raise RulesError(
                f"{given.key!r} is not an option here; choose one of {', '.join(keys)}"
            )
        new = CHOICES[p.purpose](s, given.key, tx)
    else:
        if not isinstance(given, Rolled):
            raise RulesError(f"expected dice, got {type(given).__name__}")
        action = ACTIONS[p.action]
        params = dict(p.params)
        out = action.resolve(params, given.dice)
        tx.outcome = out
        tx.cues.add("dice")
        if p.purpose == "wounds":
            new = _after_wounds(s, check_from_params(params), given.dice, tx)
        else:
            new = ROLLS[p.purpose](s, out, tx)
    return Transition(new, tuple(tx.log), tx.outcome, frozenset(tx.cues))


def describe(s: GameState) -> tuple[str, ...]:
    p = s.pending
    if s.attack == 0:
        head = f"{s.config.title}: before the game (day {s.day})"
    else:
        head = f"Attack {s.attack}, day {s.day}, turn {s.turn}; Arab losses {s.casualties}"
    lines = [head, f"CP FFL {s.cp_ffl} Arab {s.cp_arab}; ammo {s.ammo}; gate {s.gate_damage}/7"]
    for side in ("FFL", "Arab"):
        parts = []
        for u in s.units:
            if u.side != side or not u.present or (u.kind == "tower" and not u.figures):
                continue
            flags = "".join(
                f
                for f, on in (
                    ("P", u.pinned),
                    ("B", u.berserk),
                    ("J", u.jammed),
                    ("X", u.broken),
                    ("H", u.heroes > 0),
                )
                if on
            )
            wounded = f"({u.wounded}w)" if u.wounded else ""
            parts.append(f"{u.name} {u.figures}{wounded}{flags}")
        lines.append(f"{side}: " + ", ".join(parts))
    if isinstance(p, Over):
        lines.append(f"Over: {p.winner} ({p.reason})")
    return tuple(lines)
