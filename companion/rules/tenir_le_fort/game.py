"""The sequence of play as a state machine: preparations, two attacks, chip-bag turns.

`start` gives the first state; `next_step` says what the box waits for; `advance`
applies one input. Every pending question lives in `GameState.pending`, so a
state replayed from the journal asks exactly what it asked before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TypeVar

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
    RulesError,
    Scenario,
    Step,
    Transition,
    check_input,
    counted,
)
from companion.rules.grammar import plural_name
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.actions import ACTIONS
from companion.rules.tenir_le_fort.close_combat import ATTACKER_WINS, TIE, loser_result
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

T = TypeVar("T")

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


def plural(s: GameState, name: str) -> bool:
    """Whether a name takes a plural verb: a unit with a plural name ("Oasis Raiders"),
    never a command figure or a leader with a unit, who is one man."""
    unit = next((u for u in s.units if u.name == name), None)
    return unit is not None and unit.kind != "leader" and plural_name(name)


def does(s: GameState, name: str, singular: str, plural_form: str) -> str:
    """A unit's name and the verb phrase that agrees with it: "Oasis Raiders fire"."""
    return f"{name} {plural_form if plural(s, name) else singular}"


def ask(
    s: GameState, purpose: str, prompt: str, options: list[tuple[str, str]], about: str = ""
) -> GameState:
    if not options:
        raise AssertionError(f"no options for {purpose}")
    choices = tuple(Choice(k, label) for k, label in options)
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
        counter_charge_extra_die=o["counter_charge_die"] == "extra",
        wounded_leader_bonus_six=o["wounded_leader_bonus"] == "six",
        sentry_tie=str(o["sentry_tie"]),
        next_attack_roll=str(o["next_attack_roll"]),
        sergeants_command=o["ffl_command_without_officer"] == "halved",
        sentries=bool(su["sentries"]),
    )


def _int_trait(traits: Mapping[str, object], key: str) -> int:
    value = traits.get(key, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def start(scenario: Scenario) -> GameState:
    units: list[UnitState] = []
    for u in scenario.units:
        tr = u.traits
        joins = _int_trait(tr, "joins_on_day") or 1
        arrives_later = bool(tr.get("reinforcement", False)) or joins > 1
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
                # a command figure listed with a pistol carries one (the sheikhs)
                pistols=_int_trait(tr, "pistols")
                or int(u.kind == "leader" and "pistol" in u.weapons),
                reinforcement=bool(tr.get("reinforcement", False)),
                present=not arrives_later,
                joins_on_day=joins,
                attached_to=str(tr.get("attached_to", "")),
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
        [(f"days:{d}", counted(d, "day")) for d in days],
        "before the game",
    )


# ---------------------------------------------------------------- queries


def command_figures(s: GameState, side: str) -> tuple[UnitState, ...]:
    return tuple(u for u in s.side_units(side) if u.command_figure)


def free_commanders(s: GameState, side: str) -> tuple[UnitState, ...]:
    """Command figures not attached to a unit: points can be spent only while there is one."""
    return tuple(u for u in command_figures(s, side) if not u.attached_to)


def attached_commanders(s: GameState, host: str) -> tuple[UnitState, ...]:
    return tuple(u for u in s.units if u.command_figure and u.alive and u.attached_to == host)


def leader_ranks(s: GameState, u: UnitState) -> tuple[str, ...]:
    """Ranks of every leader with the unit: its own leader, then attached command figures."""
    own = (u.rank,) if u.leader and u.rank else ()
    return own + tuple(c.rank for c in attached_commanders(s, u.name))


def led(s: GameState, u: UnitState) -> bool:
    """Counts as led (movement, berserk, control): a leader with it, or a hero acting as one."""
    return bool(leader_ranks(s, u)) or u.heroes > 0


def unpinnable(s: GameState, u: UnitState) -> bool:
    """A unit with a mounted leader attached cannot be pinned."""
    return "mounted" in leader_ranks(s, u)


def best_cc_rank(s: GameState, u: UnitState) -> str:
    """The leader whose close-combat bonus the unit's figures get: the best one with it."""
    ranks = leader_ranks(s, u)
    if not ranks:
        return "none"
    return max(ranks, key=lambda r: t.CC_MODIFIERS[t.LEADER_CC_KEY[r]])


def mounted_leader(s: GameState, u: UnitState) -> str:
    """Name of a mounted leader with the unit ("" none): its own first, then a sheikh."""
    if u.leader and u.rank == "mounted":
        return u.leader
    return next((c.name for c in attached_commanders(s, u.name) if c.rank == "mounted"), "")


def officers_with(s: GameState, u: UnitState) -> tuple[str, ...]:
    """FFL leaders with the unit who can be among the hit: its own leader, attached officers."""
    own = (u.leader,) if u.leader else ()
    return own + tuple(c.name for c in attached_commanders(s, u.name))


def has_command(s: GameState, side: str) -> bool:
    """A functional command unit: a command figure, or a unit led by a mounted leader or
    officer; for the FFL after the Captain's death, by option, a sergeant's squad (the
    seed halves their points for the Captain's loss rather than stopping them)."""
    if command_figures(s, side):
        return True
    commanders = ["mounted", "captain", "lieutenant"]
    if side == "FFL" and s.ffl_lost_captain and s.config.sergeants_command:
        commanders.append("sergeant")
    return any(u.rank in commanders and u.leader for u in s.side_units(side))


def combatants(s: GameState, side: str) -> tuple[UnitState, ...]:
    return tuple(u for u in s.side_units(side) if not u.command_figure)


def fighting_figures(s: GameState, side: str) -> int:
    """Figures that can still fight: command figures and supply trains alone do not."""
    return sum(u.figures for u in s.side_units(side) if u.kind not in ("supply", "leader"))


def targets_for(s: GameState, side: str, *, leaders: bool = True) -> list[UnitState]:
    """Units the side can shoot at; a command figure alone is a sniping target."""
    return [
        u
        for u in s.side_units(other(side))
        if (leaders or not u.command_figure) and not u.attached_to
    ]


def snipe_targets(s: GameState, u: UnitState) -> tuple[str, ...]:
    """Leaders with the unit that riflemen may aim at: mounted leaders, Captain, Lieutenant."""
    aimable = ("mounted", "captain", "lieutenant")
    own = (u.leader,) if u.leader and u.rank in aimable else ()
    return own + tuple(c.name for c in attached_commanders(s, u.name) if c.rank in aimable)


def cover_options(target: UnitState, firer: UnitState | None = None) -> list[tuple[str, str]]:
    # defenders of the fort are usually in heavy cover, attackers in the open
    order = ["heavy", "light", "none"] if target.side == "FFL" else ["none", "light", "heavy"]
    if firer is not None and firer.kind == "tower":
        # a man on a roof would be in heavy cover (a building) but not against the tower
        order.insert(order.index("heavy"), "rooftop")
    labels = {
        "none": "In the open",
        "light": "Light cover",
        "rooftop": "On a rooftop",
        "heavy": "Heavy cover",
    }
    return [(f"cover:{c}", labels[c]) for c in order]


def tower(s: GameState) -> UnitState | None:
    for u in s.units:
        if u.kind == "tower":
            return u
    return None


def move_men(s: GameState, source: str, dest: str, n: int) -> GameState:
    """Move n men between units: unwounded men first, then the wounded, the hero last.

    Keeps each unit's wounded and heroes within its figures.
    """
    src, dst = s.unit(source), s.unit(dest)
    n = min(n, src.figures)
    fit = src.figures - src.wounded - src.heroes
    wounded = min(src.wounded, max(0, n - fit))
    heroes = max(0, n - fit - wounded)
    s = s.with_unit(
        replace(
            src,
            figures=src.figures - n,
            wounded=src.wounded - wounded,
            heroes=src.heroes - heroes,
        )
    )
    dst = s.unit(dest)
    return s.with_unit(
        replace(
            dst,
            figures=dst.figures + n,
            wounded=dst.wounded + wounded,
            heroes=dst.heroes + heroes,
        )
    )


def cost(side: str, use: str) -> int:
    return t.COMMAND_POINT_COSTS[(side, use)]


def spend(s: GameState, side: str, use: str, tx: Tx, what: str, times: int = 1) -> GameState:
    """Pay for a command-point use from the chart and say so."""
    points = cost(side, use) * times
    tx.say(f"{side}: {counted(points, 'command point')} for {what}.")
    return s.with_cp(side, s.cp(side) - points)


# ---------------------------------------------------------------- pre-game


def _after_prep_days(s: GameState, key: str, tx: Tx) -> GameState:
    days = int(key.split(":")[1])
    s = replace(s, preparation_days=days, day=days + 1)
    tx.say(
        f"The Arabs prepare for {counted(days, 'day')}; the first attack comes on day {days + 1}."
    )
    return _ask_ffl_prep(s)


def _ask_ffl_prep(s: GameState) -> GameState:
    opts: list[tuple[str, str]] = []
    if not s.patrols:
        opts.append(("patrols", "Increase patrols"))
    if s.mines < s.config.ffl_mines:
        opts.append(("mine", "Mine a building"))
    if s.config.sentries and not s.stand_to:
        opts.append(("stand_to", "Garrison stands to"))
    opts.append(("done", "Done preparing"))
    return ask(s, "ffl_prep", "FFL preparations?", opts, "before the game")


def _after_ffl_prep(s: GameState, key: str, tx: Tx) -> GameState:
    done = (*s.preparations, key)
    if key == "patrols":
        tx.say("FFL preparation: increased patrols (+1 to sentry rolls).")
        return _ask_ffl_prep(replace(s, patrols=True, preparations=done))
    if key == "mine":
        tx.say(f"FFL preparation: a building is mined ({s.mines + 1} in all).")
        return _ask_ffl_prep(replace(s, mines=s.mines + 1, preparations=done))
    if key == "stand_to":
        tx.say("FFL preparation: the garrison stands to; no one is caught off duty.")
        return _ask_ffl_prep(replace(s, stand_to=True, preparations=done))
    tx.say("The referee rolls in secret for the day the relief column arrives.")
    return roll(s, "relief_day", "reinforcement-day", {})


def _after_relief_day(s: GameState, out: Outcome, tx: Tx) -> GameState:
    s = replace(s, reinforcement_day=out.headline)
    if _relief_pending(s) and out.headline < s.day:
        return _ask_attack_now(s, tx)
    tx.say("The relief day is noted in secret.")
    return _ask_sabotage(s)


def _ask_attack_now(s: GameState, tx: Tx) -> GameState:
    """The column shows up before the assault (either attack): the Arabs may strike at once."""
    day = s.reinforcement_day
    tx.say(f"The relief column shows up on day {day}, before the assault.")
    return ask(
        s,
        "attack_now",
        "Relief sighted: attack?",
        [("now", f"Now (day {day})"), ("wait", f"As planned (day {s.day})")],
        f"relief on day {day}",
    )


def _after_attack_now(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "now":
        day = s.reinforcement_day
        s = replace(s, day=day)
        if not s.attack:
            s = replace(s, preparation_days=day - 1)
        tx.say(f"The Arabs attack at once, on day {day}, with the bands gathered by then.")
    s = _relief_arrives(s, tx, into_bag=False)
    return _ask_sabotage(s)


def _phases(side: str) -> tuple[str, ...]:
    """The phases of a night operation: Arabs sneak in, the FFL sneak out."""
    return t.SABOTAGE_PHASES if side == "Arab" else t.SORTIE_PHASES


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
    targets = [("other", "Other target")]
    if not s.gate_destroyed:
        targets.insert(0, ("gate", "Blow the gate"))
    return ask(s, "sabotage_target", "Saboteurs' target?", targets, name)


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
        # the sneaking modifiers are on the Arab chart only
        "outside_fort": side == "Arab" and phase == "desert to wall",
        "grappling_hooks": side == "Arab" and phase == "over the wall" and unit.ladder == "hook",
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
    return _ask_sentry_view(s)


def _ask_sentry_view(s: GameState) -> GameState:
    """Only sentries near the party's path can spot it: the box cannot measure, so it asks."""
    phase = _phases(s.act.sabotage_side)[s.act.sabotage_phase]
    tower_in, other_in = t.SENTRY_RANGE_TOWER, t.SENTRY_RANGE_OTHER
    return ask(
        s,
        "sentry_view",
        "Sentry within reach?",
        [("yes", f"Yes ({tower_in}/{other_in}in)"), ("no", "No sentry near")],
        f"night: {phase}",
    )


def _after_sentry_view(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "yes":
        return roll(s, "sabotage_roll", "sentry-roll", _sabotage_params(s))
    phase = _phases(s.act.sabotage_side)[s.act.sabotage_phase]
    tx.say(f"Night operation, {phase}: no sentry is close enough to see.")
    return _phase_succeeded(s, tx)


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
        # the roll stays secret, the sentry's shout does not
        return ask(s, "party_spotted", "Sentry spots them!", [("ok", "Party destroyed")], phase)
    tx.say(f"Night operation, {phase}: unseen.")
    if s.act.sabotage_phase + 1 == len(phases) and s.act.sabotage_target != "gate":
        # the roll stays secret, but not the party's success: the referee must act on it,
        # and the attack that follows must not start inside the secret
        return ask(s, "party_through", "Party gets through!", [("ok", "Carry it out")], phase)
    return _phase_succeeded(s, tx)


def _after_party_through(s: GameState, key: str, tx: Tx) -> GameState:
    return _phase_succeeded(s, tx)


def _phase_succeeded(s: GameState, tx: Tx) -> GameState:
    if s.act.sabotage_phase + 1 < len(_phases(s.act.sabotage_side)):
        s = replace(s, act=replace(s.act, sabotage_phase=s.act.sabotage_phase + 1))
        return _ask_sentry_view(s)
    if s.act.sabotage_target == "gate":
        tx.say("The saboteurs reach the gate and light the fuse.")
        return roll(
            s,
            "sabotage_gate",
            "dynamite",
            {"use": "mine", "target": "gate", "gate_damage": min(s.gate_damage, 6)},
        )
    party = min(t.SABOTEUR_MAX_FIGURES, s.unit(s.act.sabotage_unit).figures)
    what = "sets up the ambush" if s.act.sabotage_target == "ambush" else "applies its result"
    tx.say(
        f"The operation succeeds: the party of {party} from {s.act.sabotage_unit} gets through;"
        f" the referee {what}."
    )
    return _after_operation(s, tx)


def _after_party_spotted(s: GameState, key: str, tx: Tx) -> GameState:
    unit = s.unit(s.act.sabotage_unit)
    party = min(t.SABOTEUR_MAX_FIGURES, unit.figures)
    phase = _phases(s.act.sabotage_side)[s.act.sabotage_phase]
    tx.say(f"Night operation, {phase}: spotted! The party of {party} is destroyed.")
    tx.cues.add("death")
    s = _remove_figures(s, unit.name, party, tx, count_casualties=False)
    return _after_operation(s, tx)


def _after_alarm(s: GameState, key: str, tx: Tx) -> GameState:
    tx.say(f"A sentry spots {s.act.unit} and raises the alarm: the FFL are alerted.")
    return _do_unit_action(replace(s, alerted=True), s.act.action, tx)


def _after_sabotage_gate(s: GameState, out: Outcome, tx: Tx) -> GameState:
    s = _damage_gate(s, out, tx)
    if "premature" in out.effects:
        tx.cues.add("death")
        party = min(t.SABOTEUR_MAX_FIGURES, s.unit(s.act.sabotage_unit).figures)
        if party > 1:
            opts = [(f"n:{n}", counted(n, "other")) for n in range(party)]
            return ask(s, "sabotage_premature", "Others within 1in?", opts, s.act.sabotage_unit)
        s = _remove_figures(s, s.act.sabotage_unit, 1, tx, count_casualties=False)
    return _after_operation(s, tx)


def _after_sabotage_premature(s: GameState, key: str, tx: Tx) -> GameState:
    others = int(key.split(":")[1])
    tx.say(f"The blast kills the sapper and {counted(others, 'figure')} of the party.")
    s = _remove_figures(s, s.act.sabotage_unit, 1 + others, tx, count_casualties=False)
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
    s = _gather_bands(s, tx)
    if not fighting_figures(s, "FFL"):
        return _game_over(s, tx, "Arab", "the garrison is gone before the attack")
    if not fighting_figures(s, "Arab"):
        return _game_over(s, tx, "FFL", "the Arab force is gone before the attack")
    attack = s.attack + 1
    units = tuple(replace(u, pinned=False, berserk=False) for u in s.units)
    s = replace(
        s,
        alerted=not s.config.sentries or s.stand_to,
        tower_climb=("", 0),
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


def _bands_to_come(s: GameState) -> tuple[UnitState, ...]:
    """Arab bands still gathering: they join on a later day."""
    return tuple(u for u in s.units if u.side == "Arab" and not u.present and u.figures)


def _gather_bands(s: GameState, tx: Tx) -> GameState:
    """Arab bands that have joined the siege by the attack's day come to the table."""
    joining = [
        u
        for u in s.units
        if u.side == "Arab" and not u.present and u.figures and u.joins_on_day <= s.day
    ]
    for u in joining:
        s = s.with_unit(replace(u, present=True))
    if joining:
        tx.say(f"Joined the siege by day {s.day}: " + ", ".join(u.name for u in joining) + ".")
    return s


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
    donor = s.config.tower_donor
    s = move_men(s, tw.name, donor, tw.figures)  # last attack's tower men rejoin first
    s = move_men(s, donor, tw.name, n)
    if n:
        climbers = f"{counted(n, 'legionnaire')} from {donor} {'climbs' if n == 1 else 'climb'}"
        tx.say(f"The FFL deploy; {climbers} the tower.")
    else:
        tx.say("The FFL deploy; nobody climbs the tower.")
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
        tx.say(f"Turn 1: {counted(len(s.bag.in_bag), 'chip')} in the bag.")
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
    casualties = counted(s.casualties, "Arab casualty", "Arab casualties")
    tx.say(f"End of turn {s.turn}: {casualties} this attack.")
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
    each = cost("Arab", "resolve")
    if s.cp_arab >= each and free_commanders(s, "Arab"):
        # +5 already makes the lowest roll stay: more would be wasted
        most = min(s.cp_arab // each, 5)
        opts = [(f"cp:{n}", f"Spend {n * each} CP") for n in range(0, most + 1)]
        return ask(s, "resolve_cp", "Arab CP on resolve?", opts, "resolve check")
    return roll(s, "resolve", "arab-resolve", _resolve_params(s, 0))


def _after_resolve(s: GameState, out: Outcome, tx: Tx) -> GameState:
    if "resolve_failed" in out.effects:
        tx.cues.add("resolve_failed")
        tx.say(f"Arab resolve fails ({_resolve_sum(s, out)}): they fall back. The attack is over.")
        return _end_attack(s, tx, "the Arabs fell back")
    tx.say(f"Arab resolve holds ({_resolve_sum(s, out)}): the attack goes on.")
    return _next_turn(s, tx)


def _resolve_sum(s: GameState, out: Outcome) -> str:
    """The resolve roll's total against the number it needed: "7, needs 2"."""
    need = t.resolve_needed(s.casualties, first_band_from=s.config.resolve_threshold)
    return f"{out.headline}, needs {need}"


def _next_turn(s: GameState, tx: Tx) -> GameState:
    if s.config.turn_limit and s.turn >= s.config.turn_limit:
        tx.say(f"Turn limit ({s.config.turn_limit}) reached: night falls and the attack ends.")
        return _end_attack(s, tx, "night fell")
    s = replace(s, turn=s.turn + 1, bag=s.bag.refill())
    tx.say(f"Turn {s.turn}: {counted(len(s.bag.in_bag), 'chip')} in the bag.")
    if s.config.cp_per_turn:
        return _start_command_points(s, tx)
    return _draw(s, tx)


def _end_attack(s: GameState, tx: Tx, reason: str) -> GameState:
    s = replace(s, act=Act())
    if not fighting_figures(s, "FFL"):
        return _game_over(s, tx, "Arab", "the garrison is wiped out")
    if not fighting_figures(s, "Arab") and not _bands_to_come(s):
        return _game_over(s, tx, "FFL", "the Arab force is destroyed")
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
    tx.say(f"Game over: {winner} won ({reason}).")
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
        if unit.side == "FFL" and _relief_pending(s):
            # rolled on every FFL leader chit, asleep or not, so the relief day stays secret
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
            # with no shells left there is neither fire nor a jammed Maxim's clearing
            # roll (a shot too): the chip can still move the gun, or pass
            no_ammo = gun_out_of_ammunition(s, u)
            if u.jammed and not no_ammo:
                opts.append(("fire", "Clear the jam"))
            elif enemies and not no_ammo:
                opts.append(("fire", "Fire (half)" if u.pinned else "Fire"))
            if gun_can_move(u.kind, u.figures):
                opts.append(("move", "Try to move" if u.pinned else "Move"))
            opts.append(("pass", "Pass (no ammo)" if no_ammo else "Pass"))
        return ask(s, "unit_action", f"{u.name}: action?", opts, u.name)
    if u.kind == "supply":
        opts = [("move", "Move"), ("fort", "Into the fort"), ("pass", "Pass")]
        return ask(s, "unit_action", f"{u.name}: action?", opts, u.name)
    if u.berserk:
        opts = [("charge", "Charge (berserk)")] if _charge_targets(s, u) else []
        opts.append(("pass", "No enemy in sight"))
        return ask(s, "unit_action", f"{u.name} is berserk", opts, u.name)
    if enemies:
        opts.append(("fire", "Fire (half)" if u.pinned else "Fire"))
    opts.append(("move", "Try to move" if u.pinned else "Move"))
    if u.side == "FFL" and not u.pinned and not burdened(s, u) and enemies:
        opts.append(("move_fire", "Move and fire"))
    if not u.pinned and _charge_targets(s, u):
        opts.append(("charge", "Charge"))
    if u.ladder and not u.pinned:
        if u.ladder_placed:
            opts.append(("assault", f"Climb the {u.ladder}"))
        else:
            opts.append(("ladder", f"Move, set {u.ladder}"))
    if u.dynamite and enemies:
        opts.append(("dynamite", "Throw dynamite"))
    if u.side == "FFL" and not led(s, u) and u.kind == "foot" and _join_hosts(s, u):
        opts.append(("join", "Join a led unit"))
    if u.side == "FFL" and u.heroes and _unmanned_guns(s) and spare_men(u):
        opts.append(("hero_gun", "Hero mans a gun"))
    opts.append(("pass", "Pass"))
    return ask(s, "unit_action", f"{u.name}: action?", opts, u.name)


def gun_out_of_ammunition(s: GameState, g: UnitState) -> bool:
    """The Legion's Maxim and artillery piece have no ammunition left at the lowest
    level (a third): they cannot fire, nor make a jammed Maxim's clearing roll."""
    return g.gun and g.side == "FFL" and s.ammo == "third"


def gun_can_fire(s: GameState, g: UnitState) -> bool:
    """A gun a leader's chit can have fire: crewed, not broken, with ammunition."""
    return g.gun and g.alive and not g.broken and not gun_out_of_ammunition(s, g)


def burdened(s: GameState, u: UnitState) -> bool:
    """Carrying wounded or a dead officer: the low die is lost and the unit cannot move and fire."""
    wounded_leader = u.leader_wounded or any(c.wounded for c in attached_commanders(s, u.name))
    return u.side == "FFL" and (u.wounded > 0 or u.carrying_dead or wounded_leader)


def _join_hosts(s: GameState, u: UnitState) -> list[UnitState]:
    return [v for v in s.side_units("FFL") if led(s, v) and v.kind == "foot" and v.name != u.name]


def spare_men(u: UnitState) -> int:
    """Men a squad can send off (a hero to a gun, men up the tower): the box keeps a squad's
    own leader (its sergeant) only while he has men, so one stays with him."""
    return max(0, u.figures - 1) if u.leader else u.figures


def _unmanned_guns(s: GameState) -> list[UnitState]:
    """Guns on the table with no crew left that are not broken (either side's)."""
    return [g for g in s.units if g.gun and g.present and g.figures == 0 and not g.broken]


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
                [("no", "Out of sight"), ("yes", f"In sight, within {t.SENTRY_RANGE_OTHER}in")],
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
        return ask(s, "alarm", "A sentry sees them!", [("ok", "Raise the alarm")], s.act.unit)
    else:
        tx.say(does(s, s.act.unit, "moves", "move") + " unseen.")
    return _do_unit_action(s, s.act.action, tx)


def _do_unit_action(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    if key == "pass" and u.berserk:
        # berserk lasts until the unit is gone or no enemy is in sight: this is the latter
        tx.say(does(s, u.name, "sees", "see") + " no enemy: the berserk fury passes.")
        return _end_activation(s.with_unit(replace(u, berserk=False)), tx)
    if key == "pass":
        tx.say(does(s, u.name, "passes", "pass") + ".")
        return _end_activation(s, tx)
    if key == "fire":
        if u.gun and u.jammed and not s.config.jam_clear_fires:
            return _gun_roll(s, tx)
        return _ask_target(s, u)
    if key in ("move", "move_fire", "ladder"):
        if u.gun:
            men = min(u.figures, 5)
            params: dict[str, int | bool | str] = {
                "gun": u.kind,
                "men": men,
                "leader": led(s, u),
                "pinned": u.pinned,
            }
            return roll(s, "move", "move-gun", params)
        return roll(
            s, "move", "move", _move_params(s, u, "move_and_fire" if key == "move_fire" else "move")
        )
    if key == "fort":
        tx.say(
            does(s, u.name, "is", "are") + " inside the fort: ammunition for the rest of the siege."
        )
        s = replace(s, supply_through=True, ammo="normal")
        s = s.with_unit(replace(u, present=False))
        return _end_activation(replace(s, bag=s.bag.remove(u.chip)), tx)
    if key == "hero_gun":
        opts = [(f"unit:{g.name}", g.name) for g in _unmanned_guns(s)]
        return ask(s, "hero_gun", "Hero mans which gun?", opts, u.name)
    if key == "charge":
        opts = [(f"target:{e.name}", e.name) for e in _charge_targets(s, u)]
        return ask(
            s, "charge_target", does(s, u.name, "charges", "charge") + " whom?", opts, u.name
        )
    if key == "assault":
        opts = [
            (f"target:{e.name}", e.name)
            for e in combatants(s, "FFL")
            if e.kind in ("foot", "tower", "maxim", "artillery")
        ]
        opts.append(("clear", f"None within {t.LADDER_DEFENDER_REACH_INCHES}in"))
        return ask(s, "wall_defender", "FFL on the wall?", opts, u.name)
    if key == "dynamite":
        opts = [(f"target:{e.name}", e.name) for e in combatants(s, other(u.side))]
        if u.side == "Arab" and not s.gate_destroyed:
            opts.append(("gate", "The gate"))
        prompt = f"Dynamite at? ({t.GRENADE_RANGE_INCHES}in)"
        return ask(s, "dynamite_target", prompt, opts, u.name)
    if key == "join":
        opts = [(f"unit:{v.name}", v.name) for v in _join_hosts(s, u)]
        return ask(s, "join_unit", does(s, u.name, "joins", "join") + "?", opts, u.name)
    raise RulesError(f"unknown action {key!r}")


def _charge_targets(s: GameState, u: UnitState) -> list[UnitState]:
    # the men at the top of the tower cannot be charged; the wall is a ladder assault
    return [e for e in combatants(s, other(u.side)) if e.kind != "tower"]


def _after_hero_gun(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    g = s.unit(key.split(":", 1)[1])
    s = s.with_unit(replace(g, side="FFL", figures=0, wounded=0, heroes=0))
    s = move_men(s, u.name, g.name, u.figures)  # everyone over, then all but the hero back
    s = move_men(s, g.name, u.name, u.figures - 1)
    if g.chip:
        s = replace(s, bag=s.bag.add_next_turn(g.chip))
    tx.say(f"The hero of {u.name} mans the {g.name}, no command points needed.")
    s = _check_destroyed(s, u.name, tx)
    return _end_activation(s, tx)


def _move_params(s: GameState, u: UnitState, mode: str) -> dict[str, int | bool | str]:
    return {
        "side": u.side,
        "kind": u.kind if u.kind in ("mounted", "supply") else "foot",
        "mode": mode,
        "leader": led(s, u),
        "carrying": burdened(s, u),
        "pinned": u.pinned,
        "berserk": u.berserk,
        "mixed_tribes": u.mixed_tribes,
        "recovered_moves": s.config.pinned_recovery_moves,
        "counter_die": s.config.counter_charge_extra_die,
    }


def _after_move(s: GameState, out: Outcome, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    if "recovered" in out.effects:
        u = replace(u, pinned=False)
        tx.say(does(s, u.name, "is", "are") + " no longer pinned (a 5 or 6).")
    if "regained_control" in out.effects:
        u = replace(u, berserk=False)
        tx.say(does(s, u.name, "is", "are") + " back under control.")
    failed = "pinned" in out.effects and u.pinned
    if "in-fighting" in out.effects:
        tx.say(does(s, u.name, "falls", "fall") + " to in-fighting!")
        return _fall_to_infighting(s, u, "infighting", tx)
    s = s.with_unit(u)
    if out.headline:
        tx.say(
            does(s, u.name, "moves", "move") + f" up to {counted(out.headline, 'inch', 'inches')}."
        )
    elif failed:
        tx.say(
            does(s, u.name, "stays pinned (no 5 or 6) and does", "stay pinned (no 5 or 6) and do")
            + " not move."
        )
    elif out.details:
        tx.say(f"{u.name}: {out.details[-1]}.")
    if failed:
        return _offer_unpin(s, tx)
    if s.act.action == "ladder" and out.headline:
        return yes_no(s, "at_wall", "At the wall?", u.name, yes_first=True)
    if s.act.action == "move_fire" and out.headline:
        s = replace(s, act=replace(s.act, mode="moving"))
        return _ask_target(s, s.unit(u.name))
    return _end_activation(s, tx)


def _after_at_wall(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    if key == "yes":
        s = s.with_unit(replace(u, ladder_placed=True))
        tx.say(
            does(s, u.name, f"sets its {u.ladder}", f"set their {u.ladder}")
            + " against the wall: the climb comes on the next activation."
        )
    else:
        tx.say(does(s, u.name, "is", "are") + " not at the wall yet.")
    return _end_activation(s, tx)


def _after_infighting(s: GameState, out: Outcome, tx: Tx) -> GameState:
    tx.cues.add("death")
    s = _remove_figures(s, s.act.unit, out.headline, tx)
    return _end_activation(s, tx)


def _offer_unpin(s: GameState, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    price = cost("Arab", "unpin")
    if u.side == "Arab" and u.pinned and s.cp_arab >= price and free_commanders(s, "Arab"):
        return yes_no(s, "unpin", f"Spend {price} CP: unpin?", u.name)
    return _end_activation(s, tx)


def _after_unpin(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "yes":
        u = s.unit(s.act.unit)
        s = spend(s.with_unit(replace(u, pinned=False)), "Arab", "unpin", tx, f"unpinning {u.name}")
    return _end_activation(s, tx)


def _end_activation(s: GameState, tx: Tx) -> GameState:
    donor, n = s.tower_climb
    if donor and donor == s.act.unit:
        tw = tower(s)
        d = s.unit(donor)
        if tw is not None and d.alive:
            moved = min(n, spare_men(d), t.TOWER_CAPACITY - tw.figures)
            s = move_men(s, donor, tw.name, moved)
            if moved:
                reach = "reaches" if moved == 1 else "reach"
                tx.say(f"{counted(moved, 'legionnaire')} of {donor} {reach} the top of the tower.")
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
    # points are spent only while at least one of the side's leaders is not attached
    can_spend = bool(free_commanders(s, side))
    opts: list[tuple[str, str]] = []
    if side == "FFL" and not s.alerted:
        return ask(s, "leader_menu", f"{leader.name}: asleep", [("done", "Off duty")], name)

    def offer(key: str, label: str, use: str = "") -> None:
        if key in used:
            return
        if use:
            price = cost(side, use)
            if not can_spend or cp < price:
                return
            label = f"{label} ({price}CP)"
        opts.append((key, label))

    enemies = combatants(s, other(side))
    if side == "FFL":
        tw = tower(s)
        if tw is not None and tw.figures and enemies:
            offer("tower_fire", "Tower fires")
        for g in s.side_units("FFL"):
            if gun_can_fire(s, g) and enemies:
                offer(f"gun:{g.name}", f"{g.name} fires")
        if s.mines and enemies:
            offer("mine", "Detonate a mine")
        if _extra_turn_units(s, side):
            offer("extra_turn", "Extra turn", "extra_turn")
        heroes = sum(u.heroes for u in s.side_units("FFL"))
        if heroes < s.config.max_heroes and _hero_units(s):
            offer("hero", "Hero", "hero")
        if _unmanned_guns(s) and _recrew_donors(s):
            offer("recrew", "Re-crew gun", "recrew")
        if tw is not None and tw.figures + _climbing(s) < t.TOWER_CAPACITY and _recrew_donors(s):
            offer("tower", "Man tower", "tower")
        if tw is not None and tw.figures and _tower_hosts(s):
            offer("tower_down", "Tower down", "tower")
    else:
        for g in s.side_units("Arab"):
            if gun_can_fire(s, g) and enemies:
                offer(f"gun:{g.name}", f"{g.name} fires")
        if _extra_turn_units(s, side):
            offer("extra_turn", "Extra turn", "extra_turn")
        if any(g.kind == "maxim" for g in _unmanned_guns(s)) and _arab_crews(s):
            offer("crew_mg", "Crew MG", "crew_captured_mg")
    # a leader joins or leaves a unit once per chit
    if "attach" in used or "leave" in used:
        pass
    elif leader.attached_to:
        offer("leave", f"Leave {leader.attached_to}")
    elif _leader_hosts(s, leader):
        offer("attach", "Join a unit")
    opts.append(("done", "Done"))
    return ask(s, "leader_menu", f"{leader.name}: spend CP? ({cp} left)", opts, leader.name)


def _extra_turn_units(s: GameState, side: str) -> list[UnitState]:
    return [u for u in combatants(s, side) if u.chip]


def _hero_units(s: GameState) -> list[UnitState]:
    return [u for u in s.side_units("FFL") if u.kind in ("foot", "tower", "maxim", "artillery")]


def _recrew_donors(s: GameState) -> list[UnitState]:
    return [u for u in s.side_units("FFL") if u.kind == "foot" and u.figures >= 2]


def _arab_crews(s: GameState) -> list[UnitState]:
    return [u for u in s.side_units("Arab") if u.kind == "foot" and u.figures >= 2]


def _tower_hosts(s: GameState) -> list[UnitState]:
    return [u for u in s.side_units("FFL") if u.kind == "foot"]


def _leader_hosts(s: GameState, leader: UnitState) -> list[UnitState]:
    return [u for u in s.side_units(leader.side) if u.kind in ("foot", "mounted")]


def _climbing(s: GameState) -> int:
    return s.tower_climb[1] if s.tower_climb[0] else 0


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
        opts = [(f"unit:{u.name}", u.name) for u in _extra_turn_units(s, side)]
        return ask(s, "extra_unit", "Extra turn for?", opts, leader.name)
    if key == "hero":
        opts = [(f"unit:{u.name}", u.name) for u in _hero_units(s)]
        return ask(s, "hero_unit", "Hero in which unit?", opts, leader.name)
    if key == "recrew":
        opts = [(f"unit:{g.name}", g.name) for g in _unmanned_guns(s)]
        return ask(s, "recrew_gun", "Re-crew which gun?", opts, leader.name)
    if key == "tower":
        opts = [(f"unit:{u.name}", u.name) for u in _recrew_donors(s)]
        return ask(s, "tower_donor", "Tower men from?", opts, leader.name)
    if key == "tower_down":
        opts = [(f"unit:{u.name}", u.name) for u in _tower_hosts(s)]
        return ask(s, "tower_down", "Tower men join?", opts, leader.name)
    if key == "crew_mg":
        opts = [(f"unit:{u.name}", u.name) for u in _arab_crews(s)]
        return ask(s, "crew_mg", "Crew taken from?", opts, leader.name)
    if key == "attach":
        opts = [(f"unit:{u.name}", u.name) for u in _leader_hosts(s, leader)]
        return ask(s, "attach", f"{leader.name} joins?", opts, leader.name)
    if key == "leave":
        tx.say(f"{leader.name} leaves {leader.attached_to} and stands alone.")
        s = s.with_unit(replace(leader, attached_to=""))
        return _leader_menu(s, leader.name, used)
    raise RulesError(f"unknown leader option {key!r}")


def _relief_pending(s: GameState) -> bool:
    return not s.relief_arrived and any(u.reinforcement and not u.present for u in s.units)


def _after_relief_arrival(s: GameState, out: Outcome, tx: Tx) -> GameState:
    # this roll's play-by-play stays secret; an arrival is announced by the next step
    if "arrived" in out.effects:
        return ask(s, "relief_here", "Relief column here!", [("ok", "Onto the table")], "relief")
    tx.say("No sign of the relief column.")
    return _leader_menu(s, s.act.unit, s.act.used)


def _after_relief_here(s: GameState, key: str, tx: Tx) -> GameState:
    s = _relief_arrives(s, tx, into_bag=True)
    return _leader_menu(s, s.act.unit, s.act.used)


def _after_extra_unit(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    name = key.split(":", 1)[1]
    s = spend(s, leader.side, "extra_turn", tx, f"an extra turn for {name} on {leader.name}'s chit")
    return _unit_menu(s, name, leader.chip, s.act.used)


def _after_hero_unit(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    u = s.unit(key.split(":", 1)[1])
    s = spend(s.with_unit(replace(u, heroes=u.heroes + 1)), "FFL", "hero", tx, "a hero")
    tx.say(f"A hero rises in {u.name}.")
    return _leader_menu(s, leader.name, s.act.used)


def _after_recrew_gun(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, act=replace(s.act, target=key.split(":", 1)[1]))
    opts = [(f"unit:{u.name}", u.name) for u in _recrew_donors(s)]
    return ask(s, "recrew_donor", "Crew taken from?", opts, s.act.unit)


def _after_recrew(s: GameState, key: str, tx: Tx) -> GameState:
    s = _man_gun(s, s.act.target, key.split(":", 1)[1], "FFL", tx)
    s = spend(s, "FFL", "recrew", tx, f"re-crewing the {s.act.target}")
    return _leader_menu(s, s.act.unit, s.act.used)


def _after_crew_mg(s: GameState, key: str, tx: Tx) -> GameState:
    g = next(g for g in _unmanned_guns(s) if g.kind == "maxim")
    s = _man_gun(s, g.name, key.split(":", 1)[1], "Arab", tx)
    s = spend(s, "Arab", "crew_captured_mg", tx, f"crewing the captured {g.name}")
    return _leader_menu(s, s.act.unit, s.act.used)


def _man_gun(s: GameState, gun: str, donor: str, side: str, tx: Tx) -> GameState:
    """Men of a unit take over an unmanned gun (a full crew, leaving one man behind)."""
    g = s.unit(gun)
    men = min(t.FULL_CREW[g.kind], s.unit(donor).figures - 1)
    s = s.with_unit(replace(g, side=side, figures=0, wounded=0, heroes=0))
    s = move_men(s, donor, gun, men)
    if g.chip:
        s = replace(s, bag=s.bag.add_next_turn(g.chip))
    tx.say(f"{counted(men, 'man', 'men')} of {donor} {'mans' if men == 1 else 'man'} the {gun}.")
    return s


def _after_tower_donor(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    donor = key.split(":", 1)[1]
    tw = tower(s)
    assert tw is not None
    s = replace(s, tower_climb=(donor, t.TOWER_CAPACITY - tw.figures))
    s = spend(s, "FFL", "tower", tx, "men into the tower")
    tx.say(
        f"Men of {donor} go to the foot of the tower; "
        "they reach the top at the end of that unit's next activation."
    )
    return _leader_menu(s, leader.name, s.act.used)


def _after_tower_down(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    host = s.unit(key.split(":", 1)[1])
    tw = tower(s)
    assert tw is not None
    s = move_men(s, tw.name, host.name, tw.figures)
    s = spend(s, "FFL", "tower", tx, "men out of the tower")
    tx.say(f"The men in the tower come down and join {host.name}.")
    return _leader_menu(s, leader.name, s.act.used)


def _after_attach(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    host = key.split(":", 1)[1]
    s = s.with_unit(replace(leader, attached_to=host))
    tx.say(f"{leader.name} joins {host}: the unit has his bonuses while he stays.")
    return _leader_menu(s, leader.name, s.act.used)


def _after_join(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    host = s.unit(key.split(":", 1)[1])
    s = move_men(s, u.name, host.name, u.figures)
    if u.carrying_dead:
        s = s.with_unit(replace(s.unit(host.name), carrying_dead=True))
    s = replace(s, bag=s.bag.remove(u.chip))
    tx.say(does(s, u.name, "joins", "join") + f" {host.name}.")
    return _end_activation(s, tx)


# ---------------------------------------------------------------- fire


def _ask_target(s: GameState, firer: UnitState) -> GameState:
    opts = [(f"target:{e.name}", e.name) for e in targets_for(s, firer.side, leaders=not firer.gun)]
    if firer.kind == "artillery" and not s.gate_destroyed and firer.side == "Arab":
        opts.append(("gate", "The gate"))
    return ask(s, "fire_target", does(s, firer.name, "fires", "fire") + " at?", opts, firer.name)


def _after_fire_target(s: GameState, key: str, tx: Tx) -> GameState:
    firer = s.unit(s.act.firer)
    if key == "gate":
        s = replace(s, act=replace(s.act, target="gate", cover="none"))
        return _gun_roll(s, tx)
    target = s.unit(key.split(":", 1)[1])
    s = replace(s, act=replace(s.act, target=target.name))
    if target.kind == "leader":
        tx.say(does(s, firer.name, "aims", "aim") + f" at {target.name}.")
        return roll(s, "snipe", "snipe-leader", {"hero": firer.heroes > 0})
    opts = cover_options(target, firer)
    return ask(s, "fire_cover", f"{target.name}: cover?", opts, target.name)


def _after_fire_cover(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, act=replace(s.act, cover=key.split(":")[1]))
    return _fire_range_stage(s, tx)


def _fire_range_stage(s: GameState, tx: Tx) -> GameState:
    """Ranges the box cannot see: a gun on the wall's blind zone, pistols' 6 inches."""
    firer = s.unit(s.act.firer)
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
    if _pistols(s, firer):
        return ask(
            s,
            "fire_range",
            f"Within {t.PISTOL_RANGE_INCHES} inches?",
            [
                ("far", f"Beyond {t.PISTOL_RANGE_INCHES}in"),
                ("near", f"Within {t.PISTOL_RANGE_INCHES}in"),
            ],
            firer.name,
        )
    return _volley_roll(s, tx)


def _pistols(s: GameState, u: UnitState) -> int:
    """Pistol-armed figures: the unit's own, every FFL officer with it (sergeants too) and,
    for the Arabs, an attached command figure who carries one."""
    if u.side == "FFL":
        return len(officers_with(s, u)) + u.pistols
    return u.pistols + sum(c.pistols for c in attached_commanders(s, u.name))


def wounded_leader_ranks(s: GameState, u: UnitState) -> tuple[str, ...]:
    """Ranks of the wounded leaders with the unit: its own leader, then attached officers."""
    own = (u.rank,) if u.leader and u.leader_wounded else ()
    return own + tuple(c.rank for c in attached_commanders(s, u.name) if c.wounded)


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
    pistols = _pistols(s, firer) if s.act.within else 0
    if firer.side == "Arab":
        return "arab-fire", {
            "figures": min(firer.figures, 60),
            "cover": s.act.cover,
            "pinned": firer.pinned,
            "pistols": min(pistols, 10),
            "target_unpinnable": unpinnable(s, target),
        }
    ranks = leader_ranks(s, firer)
    hurt = wounded_leader_ranks(s, firer)
    sergeant = "sergeant" in ranks
    officers = min(2, sum(1 for r in ranks if r in ("captain", "lieutenant")))
    hurt_dice = t.SERGEANT_FIRE_DICE * ("sergeant" in hurt) + t.CAPTAIN_FIRE_DICE * min(
        officers, sum(1 for r in hurt if r in ("captain", "lieutenant"))
    )
    return "ffl-fire", {
        "riflemen": min(firer.figures, 40),
        "wounded": min(firer.wounded, firer.figures, 40),
        "mode": s.act.mode,
        "sergeant": sergeant,
        "officers": officers,
        "wounded_leader_dice": hurt_dice if s.config.wounded_leader_bonus_six else 0,
        "pistols": min(pistols, 6),
        # a wounded leader's own pistol hits on 6 whatever the reading of his bonus dice
        "pistols_wounded": min(len(hurt), pistols, 6),
        "cover": s.act.cover,
        "pinned": firer.pinned,
        # the relief column brings its own ammunition
        "ammo": s.ammo if not firer.reinforcement else "normal",
        "from_tower": firer.kind == "tower",
        "target_unpinnable": unpinnable(s, target),
    }


def _volley_roll(s: GameState, tx: Tx) -> GameState:
    action, params = _volley_params(s)
    req = ACTIONS[action].request(ACTIONS[action].complete_params(params))
    if not req.dice_count:
        tx.say(
            does(s, s.act.firer, "has", "have") + f" no dice to roll ({_why_no_dice(s, params)})."
        )
        return _finish_fire(s, tx)
    return roll(s, "volley", action, params)


def _why_no_dice(s: GameState, params: Mapping[str, int | bool | str]) -> str:
    """What leaves a unit's volley with no dice: too few men once its fire is cut down."""
    firer = s.unit(s.act.firer)
    cuts = []
    if s.act.mode == "moving":
        cuts.append("moving: a die per two")
    if firer.pinned:
        cuts.append("pinned: half")
    ammo = params.get("ammo", "normal")
    if ammo != "normal":
        cuts.append("low ammunition: " + ("a third" if ammo == "third" else "half"))
    men = counted(firer.figures, "rifleman", "riflemen")
    return ", ".join([men, *cuts])


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
        "target_unpinnable": unpinnable(s, target) if target else False,
        "pinned": g.pinned and not bonus,
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
    complete = ACTIONS[action].complete_params(params)
    if not ACTIONS[action].request(complete).dice_count:
        # the rules say why in their last line: no crew, no shells, the blind zone
        why = ACTIONS[action].resolve(complete, ()).details
        tx.say(f"The {g.name} cannot fire" + (f": {why[-1]}." if why else "."))
        return _finish_fire(s, tx)
    return roll(s, "gun" if not bonus else "gun_bonus", action, params)


def _after_volley(s: GameState, out: Outcome, tx: Tx) -> GameState:
    firer = s.unit(s.act.firer)
    target = s.unit(s.act.target)
    tx.say(
        does(s, firer.name, "fires", "fire") + f" at {target.name}: {counted(out.headline, 'hit')}."
    )
    if "recovered" in out.effects:
        s = s.with_unit(replace(firer, pinned=False))
        tx.say(does(s, firer.name, "is", "are") + " no longer pinned (a 5 or 6).")
    s = _pin_by_fire(s, target, out, tx)
    s = replace(s, act=replace(s.act, hits=out.headline))
    return _saves_stage(s, tx)


def _pin_by_fire(s: GameState, target: UnitState, out: Outcome, tx: Tx) -> GameState:
    """The shots pin their target; one already pinned gets no second cue or word."""
    if "pinned" in out.effects and not target.pinned:
        s = s.with_unit(replace(target, pinned=True))
        tx.cues.add("pin")
        tx.say(does(s, target.name, "is", "are") + " pinned.")
    return s


def _after_gun(s: GameState, out: Outcome, tx: Tx) -> GameState:
    g = s.unit(s.act.firer)
    bonus = isinstance(s.pending, AskRoll) and s.pending.purpose == "gun_bonus"
    # A jammed Maxim's clearing roll decides whether it fires at all, so its result
    # comes first; what the shots do (a new jam, the crew's recovery, a pin) follows them.
    if "broken_for_good" in out.effects:
        s = s.with_unit(replace(g, broken=True, jammed=False))
        tx.cues.add("jam")
        tx.say(f"The {g.name} is broken for good.")
    elif "cleared" in out.effects:
        s = s.with_unit(replace(g, jammed=False))
        tx.say(f"The {g.name}'s jam is cleared.")
    elif "jammed" in out.effects and g.jammed:
        tx.cues.add("jam")
        tx.say(f"The {g.name} is still jammed.")
    hits = s.act.hits + out.headline
    s = replace(s, act=replace(s.act, hits=hits))
    if s.act.target and bonus:
        tx.say(f"The {g.name}: {counted(out.headline, 'hit')} more from the 6s.")
    elif s.act.target:
        at = "the gate" if s.act.target == "gate" else s.act.target
        tx.say(f"The {g.name} fires at {at}: {counted(out.headline, 'hit')}.")
    if "recovered" in out.effects:
        s = s.with_unit(replace(s.unit(g.name), pinned=False))
        tx.say(f"The {g.name}'s crew is no longer pinned (a 5 or 6).")
    if "jammed" in out.effects and not g.jammed:
        s = s.with_unit(replace(s.unit(g.name), jammed=True))
        tx.cues.add("jam")
        tx.say(f"The {g.name} jams!")
    if not s.act.target:
        return _finish_fire(s, tx)
    if s.act.target != "gate":
        s = _pin_by_fire(s, s.unit(s.act.target), out, tx)
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
    casualties = counted(out.headline, "casualty", "casualties")
    tx.say(f"Heavy cover: {s.act.hits - out.headline} saved, {casualties}.")
    s = replace(s, act=replace(s.act, hits=out.headline))
    return _casualty_stage(s, tx)


def _casualty_stage(s: GameState, tx: Tx) -> GameState:
    target = s.unit(s.act.target)
    hits = s.act.hits
    if not hits or not target.alive:
        return _snipe_stage(s, tx)
    if target.side == "Arab":
        return _arab_losses(s, target.name, hits, tx)
    s = replace(s, act=replace(s.act, asked=(), officers_hit=(), hero_among=False))
    return _ask_among_hit(s, tx)


def _ask_among_hit(s: GameState, tx: Tx) -> GameState:
    """The hit figures are picked at random at the table: ask whether leaders and the hero are."""
    target = s.unit(s.act.target)
    candidates = [*officers_with(s, target), *(("hero",) if target.heroes else ())]
    left = [name for name in candidates if name not in s.act.asked]
    chosen = len(s.act.officers_hit) + int(s.act.hero_among)
    if not left or chosen >= s.act.hits:
        return _officer_wounds(s, tx)
    name = left[0]
    s = replace(s, act=replace(s.act, asked=(*s.act.asked, name)))
    ordinary = target.figures - target.heroes
    if s.act.hits - chosen > ordinary + len(left) - 1:
        # more hits than other figures to take them: this one is certainly hit
        tx.say(f"{'The hero' if name == 'hero' else name} is among the hit.")
        return _after_among_hit(s, "yes", tx)
    label = "the hero" if name == "hero" else name
    return yes_no(s, "among_hit", f"Is {label} hit?", target.name)


def _after_among_hit(s: GameState, key: str, tx: Tx) -> GameState:
    name = s.act.asked[-1]
    if key == "yes":
        if name == "hero":
            s = replace(s, act=replace(s.act, hero_among=True))
        else:
            s = replace(s, act=replace(s.act, officers_hit=(*s.act.officers_hit, name)))
    return _ask_among_hit(s, tx)


def _officer_is_wounded(s: GameState, unit: UnitState, name: str) -> bool:
    if unit.leader == name:
        return unit.leader_wounded
    return s.unit(name).wounded > 0


def _officer_wounds(s: GameState, tx: Tx) -> GameState:
    """Each leader among the hit rolls his own die on Effect of Hits, then the rest roll."""
    target = s.unit(s.act.target)
    if s.act.officers_hit:
        name = s.act.officers_hit[0]
        wounded = _officer_is_wounded(s, target, name)
        params = {"hits": 1, "figures": 1, "already_wounded": int(wounded), "hero_hit": False}
        return roll(s, "officer_wound", "wound-check", params)
    if not s.act.hits or not target.alive:
        return _snipe_stage(s, tx)
    return _wound_roll(s, target, s.act.hits, s.act.hero_among)


def _after_officer_wound(s: GameState, out: Outcome, tx: Tx) -> GameState:
    name = s.act.officers_hit[0]
    unit = s.act.target
    s = replace(s, act=replace(s.act, officers_hit=s.act.officers_hit[1:], hits=s.act.hits - 1))
    if "killed" in out.effects:
        s = _lose_leader(s, unit, name, tx)
    elif "wounded" in out.effects:
        s = _wound_leader(s, unit, name, tx)
    else:
        tx.say(f"{name} is unhurt.")
    return _officer_wounds(s, tx)


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
    u = s.unit(name)
    tx.cues.add("death")
    leader = mounted_leader(s, u)
    if leader and n > u.figures:
        # more casualties than tribesmen: the mounted leader is one of them
        s = _lose_leader(s, name, leader, tx)
        s = _remove_figures(s, name, u.figures, tx)
        return _snipe_stage(s, tx)
    if leader:
        s = replace(s, act=replace(s.act, hits=n))
        return roll(s, "leader_check", "leader-casualty", {})
    s = _remove_figures(s, name, n, tx)
    return _snipe_stage(s, tx)


def _after_leader_check(s: GameState, out: Outcome, tx: Tx) -> GameState:
    u = s.unit(s.act.target)
    if out.headline:
        # the leader is one of the casualties, not one more
        s = _lose_leader(s, u.name, mounted_leader(s, u), tx)
        s = _remove_figures(s, u.name, s.act.hits - 1, tx)
    else:
        tx.say(f"{mounted_leader(s, u)} is not among the casualties.")
        s = _remove_figures(s, u.name, s.act.hits, tx)
    return _snipe_stage(s, tx)


def _lose_leader(s: GameState, unit_name: str, leader_name: str, tx: Tx) -> GameState:
    """A leader dies: a command figure leaves the game, a unit's own leader leaves the unit.

    Legionnaires carry their dead officers; an Arab leader counts as a casualty;
    the Captain's or a mounted leader's death halves the side's command points.
    """
    u = s.unit(unit_name)
    own = u.leader == leader_name and not u.command_figure
    rank = u.rank if own or u.command_figure else s.unit(leader_name).rank
    tx.cues.add("death")
    tx.say(f"{leader_name} ({rank}) falls!")
    if rank == "mounted":
        s = replace(s, arab_lost_leader=True)
    if rank == "captain":
        s = replace(s, ffl_lost_captain=True)
    if u.side == "Arab":
        s = replace(s, casualties=s.casualties + 1, total_casualties=s.total_casualties + 1)
    if own:
        s = s.with_unit(replace(u, leader="", rank="", leader_wounded=False))
    else:
        figure = s.unit(leader_name)
        s = s.with_unit(replace(figure, figures=0, wounded=0, attached_to=""))
        s = replace(s, bag=s.bag.remove(figure.chip))
    if u.side == "FFL" and not u.command_figure and u.figures:
        s = s.with_unit(replace(s.unit(unit_name), carrying_dead=True))
        tx.say(
            does(s, unit_name, "carries the body: it loses its", "carry the body: they lose their")
            + " low die and cannot move and fire."
        )
    return s


def _wound_leader(s: GameState, unit_name: str, leader_name: str, tx: Tx) -> GameState:
    u = s.unit(unit_name)
    if u.leader == leader_name and not u.command_figure:
        s = s.with_unit(replace(u, leader_wounded=True))
    else:
        figure = s.unit(leader_name)
        s = s.with_unit(replace(figure, wounded=1))
    tx.say(f"{leader_name} is wounded; wounded again he dies.")
    return s


def _snipe_stage(s: GameState, tx: Tx) -> GameState:
    firer = s.unit(s.act.firer)
    once = f"snipe:{firer.name}"  # one rifleman, one try, per unit per activation
    if s.act.target and s.act.target != "gate" and once not in s.act.used:
        target = s.unit(s.act.target)
        aims = snipe_targets(s, target) if target.alive else ()
        if (
            aims
            and not firer.gun
            and firer.figures
            and s.act.action in ("fire", "move_fire")
            and s.act.after_fire != "melee"
        ):
            s = replace(s, act=replace(s.act, used=(*s.act.used, once)))
            opts = [("no", "No"), *((f"leader:{name}", f"Snipe {name}") for name in aims)]
            return ask(s, "snipe_offer", "A rifleman snipes?", opts, firer.name)
    return _finish_fire(s, tx)


def _after_snipe_offer(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "no":
        return _finish_fire(s, tx)
    firer = s.unit(s.act.firer)
    s = replace(s, act=replace(s.act, aim=key.split(":", 1)[1]))
    return roll(s, "snipe", "snipe-leader", {"hero": firer.heroes > 0})


def _after_snipe(s: GameState, out: Outcome, tx: Tx) -> GameState:
    target = s.unit(s.act.target)
    aim = s.act.aim or target.name
    if not out.headline:
        tx.say(f"The shot misses {aim}.")
        return _finish_fire(s, tx)
    tx.say(f"{aim} is hit.")
    if target.side == "FFL":
        # a legionnaire hit by a rifle rolls on Effect of Hits, officers too
        s = replace(s, act=replace(s.act, officers_hit=(aim,), hits=1, asked=(aim,)))
        return _officer_wounds(s, tx)
    s = _lose_leader(s, target.name, aim, tx)
    return _finish_fire(s, tx)


def _finish_fire(s: GameState, tx: Tx) -> GameState:
    if s.act.after_fire == "melee":
        return _start_melee_stage(s, tx)
    firer = s.unit(s.act.firer) if s.act.firer else None
    recovery_roll = s.act.action == "fire" and s.act.firer == s.act.unit
    if firer is not None and firer.pinned and firer.side == "Arab" and recovery_roll:
        return _offer_unpin(s, tx)
    return _end_activation(s, tx)


def _remove_figures(
    s: GameState, name: str, n: int, tx: Tx, *, count_casualties: bool = True
) -> GameState:
    u = s.unit(name)
    lost = min(n, u.figures)
    left = u.figures - lost
    s = s.with_unit(
        replace(u, figures=left, wounded=min(u.wounded, left), heroes=min(u.heroes, left))
    )
    if u.side == "Arab" and count_casualties:
        s = replace(s, casualties=s.casualties + lost, total_casualties=s.total_casualties + lost)
    if lost:
        tx.say(
            does(s, name, "loses", "lose") + f" {counted(lost, 'figure')}; {u.figures - lost} left."
        )
    return _check_destroyed(s, name, tx)


def _check_destroyed(s: GameState, name: str, tx: Tx) -> GameState:
    u = s.unit(name)
    if u.figures > 0 or not u.present or u.command_figure:
        return s
    s = s.with_unit(replace(u, figures=0, wounded=0, heroes=0))
    if u.kind == "tower":
        tx.say("The tower is empty.")
        return s
    if u.gun:
        tx.say(f"The {u.name} has no crew left.")
        return replace(s, bag=s.bag.remove(u.chip)) if u.chip else s
    tx.say(does(s, u.name, "is", "are") + " destroyed.")
    if u.leader:
        # its own leader falls with it; leaders with their own chit are left standing alone
        s = _lose_leader(s, name, u.leader, tx)
    for c in attached_commanders(s, name):
        s = s.with_unit(replace(c, attached_to=""))
        tx.say(f"{c.name} is left standing alone.")
    return replace(s, bag=s.bag.remove(u.chip)) if u.chip else s


# ---------------------------------------------------------------- charges and close combat


def _after_charge_target(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    name = key.split(":", 1)[1]
    s = replace(s, act=replace(s.act, target=name, defender=name))
    tx.say(does(s, u.name, "declares", "declare") + f" a charge on {name}.")
    return roll(s, "charge", "move", _move_params(s, u, "charge"))


def _charging_unit_after_roll(s: GameState, u: UnitState, out: Outcome, tx: Tx) -> UnitState:
    """The charger or counter-charger as its roll leaves it: control, berserk, pin."""
    if "regained_control" in out.effects:
        u = replace(u, berserk=False)
        tx.say(does(s, u.name, "is", "are") + " back under control.")
    if "berserk" in out.effects:
        u = replace(u, berserk=True)
        tx.cues.add("berserk")
        tx.say(does(s, u.name, "goes", "go") + " berserk (a 6 on the charge)!")
    if "recovered" in out.effects:
        u = replace(u, pinned=False)
        tx.say(does(s, u.name, "is", "are") + " no longer pinned (a 5 or 6).")
    return u


def _fall_to_infighting(s: GameState, u: UnitState, purpose: str, tx: Tx) -> GameState:
    """A band's tribes turn on each other instead: it is pinned and rolls for its losses."""
    s = s.with_unit(replace(u, pinned=True))
    tx.cues.add("pin")
    return roll(s, purpose, "infighting-losses", {"figures": min(u.figures, 60)})


def _after_charge(s: GameState, out: Outcome, tx: Tx) -> GameState:
    u = _charging_unit_after_roll(s, s.unit(s.act.unit), out, tx)
    s = s.with_unit(u)
    if "in-fighting" in out.effects:
        tx.say(does(s, u.name, "falls", "fall") + " to in-fighting instead of charging!")
        return _fall_to_infighting(s, u, "infighting", tx)
    if u.berserk and not u.pinned:
        tx.say(
            does(s, u.name, "charges", "charge")
            + " home: berserk, the charge always makes contact."
        )
    elif not u.pinned:
        inches = counted(out.headline, "inch", "inches")
        tx.say(does(s, u.name, "charges", "charge") + f" up to {inches}.")
    if u.pinned:
        tx.say(does(s, u.name, "is", "are") + " pinned and cannot charge.")
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
        if unpinnable(s, u):
            tx.say(
                does(
                    s,
                    u.name,
                    "falls short: it does not move (its",
                    "fall short: they do not move (their",
                )
                + " mounted leader: not pinned)."
            )
            return _end_activation(s, tx)
        s = s.with_unit(replace(u, pinned=True))
        tx.cues.add("pin")
        tx.say(
            does(
                s,
                u.name,
                "falls short: it does not move and is",
                "fall short: they do not move and are",
            )
            + " pinned."
        )
        return _end_activation(s, tx)
    return _ask_reaction(s, tx)


def _ask_reaction(s: GameState, tx: Tx) -> GameState:
    d = s.unit(s.act.target)
    opts: list[tuple[str, str]] = []
    if d.side == "FFL" and not s.alerted:
        tx.say(
            does(s, d.name, "is", "are") + " caught unprepared; the fighting alerts the garrison."
        )
        s = replace(s, alerted=True)
        reacts = does(s, d.name, "reacts", "react") + "?"
        return ask(s, "reaction", reacts, [("stand", "Caught unready")], d.name)
    if d.kind in ("foot", "mounted", "tower") or (d.gun and not d.jammed and not d.broken):
        opts.append(("fire", "Defensive fire"))
    if d.kind in ("foot", "mounted"):
        opts.append(("counter", "Counter-charge"))
    opts.append(("stand", "Stand"))
    return ask(s, "reaction", does(s, d.name, "reacts", "react") + "?", opts, d.name)


def _after_reaction(s: GameState, key: str, tx: Tx) -> GameState:
    d = s.unit(s.act.target)
    if key == "stand":
        return _start_melee_stage(s, tx)
    if key == "counter":
        return roll(s, "counter", "move", _move_params(s, d, "counter_charge"))
    tx.say(does(s, d.name, "gives", "give") + " defensive fire.")
    return _fire_at_charger(s, d, "stationary", tx)


def _fire_at_charger(s: GameState, firer: UnitState, mode: str, tx: Tx) -> GameState:
    """The charged unit fires before the close combat; the charger counts as in the open."""
    s = replace(
        s,
        act=replace(
            s.act,
            firer=firer.name,
            target=s.act.unit,
            cover="none",
            after_fire="melee",
            mode=mode,
            hits=0,
            within=False,
        ),
    )
    return _fire_range_stage(s, tx)


def _after_counter(s: GameState, out: Outcome, tx: Tx) -> GameState:
    d = s.unit(s.act.target)
    if "in-fighting" not in out.effects and not ("pinned" in out.effects and d.pinned):
        inches = counted(out.headline, "inch", "inches")
        tx.say(does(s, d.name, "counter-charges", "counter-charge") + f" up to {inches}.")
    d = _charging_unit_after_roll(s, d, out, tx)
    s = s.with_unit(d)
    if "in-fighting" in out.effects:
        tx.say(does(s, d.name, "falls", "fall") + " to in-fighting instead of counter-charging!")
        return _fall_to_infighting(s, d, "counter_infighting", tx)
    if d.pinned:
        tx.say(
            does(
                s,
                d.name,
                "is pinned and cannot counter-charge: it stands",
                "are pinned and cannot counter-charge: they stand",
            )
            + "."
        )
        return _start_melee_stage(s, tx)
    if d.side == "FFL" and d.figures >= 2:
        return _fire_at_charger(s, d, "moving", tx)
    return _start_melee_stage(s, tx)


def _after_counter_infighting(s: GameState, out: Outcome, tx: Tx) -> GameState:
    tx.cues.add("death")
    s = _remove_figures(s, s.act.defender, out.headline, tx)
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
        tx.say(does(s, charger.name, "is", "are") + " pinned by the fire: the charge stops short.")
        return _end_activation(s, tx)
    if d.side == "FFL":
        opts = [("cover", "Behind cover"), ("loophole", "At a loophole"), ("open", "In the open")]
    else:
        opts = [("open", "In the open"), ("cover", "Behind cover")]
    return ask(s, "position", does(s, d.name, "defends", "defend") + "?", opts, d.name)


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


def _pick_bout(m: Melee, defender_side: str) -> tuple[int, int] | None:
    a_idx = next((i for i, st in enumerate(m.a_state) if st == "ready"), None)
    if a_idx is None:
        return None
    # only a surrounded legionnaire (or the wall's defenders) may face more than four
    unlimited = m.ladder or (m.surrounded and defender_side == "FFL")
    limit = len(m.a_state) if unlimited else t.MAX_ATTACKERS_PER_FIGURE
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
        # option leader_cc_bonus: every figure of the unit, or only the first to fight
        if s.config.leader_bonus_whole_unit or idx == 0:
            return best_cc_rank(s, u)
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
    pick = _pick_bout(m, s.unit(m.defender).side)
    if pick is None:
        return _end_melee(s, tx)
    m = replace(m, current=pick)
    s = replace(s, act=replace(s.act, melee=m))
    return roll(s, "bout", "close-combat", _fighter_params(s, m, *pick))


def _set(seq: tuple[T, ...], i: int, v: T) -> tuple[T, ...]:
    return (*seq[:i], v, *seq[i + 1 :])


def _after_bout(s: GameState, out: Outcome, tx: Tx) -> GameState:
    m = s.act.melee
    assert m is not None
    a_idx, d_idx = m.current
    tx.say(*out.details)
    if out.headline == TIE:
        return roll(s, "bout", "close-combat", _fighter_params(s, m, a_idx, d_idx))
    result = loser_result(out.effects)
    # the bout's effects are named for the loser ("loser_killed"), which no tune
    # knows: the transition cues the death, or the pin of a loser who falls back
    # (none for a unit that is pinned already or cannot be)
    losing = s.unit(m.defender if out.headline == ATTACKER_WINS else m.attacker)
    if result == "killed":
        tx.cues.add("death")
    elif result in ("wounded", "fell back") and not (losing.pinned or unpinnable(s, losing)):
        tx.cues.add("pin")
    # every bout counts towards the defender's limit of attackers, whoever wins it
    fights = tuple(f + (1 if i == d_idx else 0) for i, f in enumerate(m.d_fights))
    if out.headline == ATTACKER_WINS:
        d = s.unit(m.defender)
        d_state, d_w = m.d_state, m.d_wounded
        d_falls = m.d_falls or (False,) * len(m.d_state)
        if result == "killed":
            d_state = _set(d_state, d_idx, "killed")
        elif result == "surrendered":
            d_state = _set(d_state, d_idx, "surrendered")
        else:
            if result == "wounded" and d.side == "FFL":
                d_w = _set(d_w, d_idx, True)
            if m.ladder:
                d_state = _set(d_state, d_idx, "fell back")
            elif not (m.surrounded and d.side == "FFL"):
                # an outnumbered loser falls back only after his last combat
                d_falls = _set(d_falls, d_idx, True)
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
        if result == "killed":
            a_state = _set(a_state, a_idx, "killed")
        else:
            if result == "wounded" and a.side == "FFL":
                a_w = _set(a_w, a_idx, True)
            a_state = _set(a_state, a_idx, "fell back")
        m = replace(m, a_state=a_state, a_wounded=a_w, d_fights=fights)
    s = replace(s, act=replace(s.act, melee=m))
    return _next_bout(s, tx)


def _apply_melee(
    s: GameState, name: str, states: tuple[str, ...], wounded: tuple[bool, ...], tx: Tx
) -> tuple[GameState, bool]:
    u = s.unit(name)
    lost = sum(1 for st in states if st in ("killed", "surrendered"))
    falling = sum(1 for st in states if st == "fell back")
    fell = falling > 0
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
        pinned=u.pinned or (fell and not unpinnable(s, u)),
    )
    s = s.with_unit(new)
    if u.side == "Arab":
        s = replace(s, casualties=s.casualties + lost, total_casualties=s.total_casualties + lost)
        if lost and new.figures and mounted_leader(s, new):
            s = replace(s, act=replace(s.act, leader_checks=(*s.act.leader_checks, name)))
    if lost or fell:
        parts = [f"{lost - surrendered} killed"]
        if surrendered:
            parts.append(f"{surrendered} surrendered")
        if fell:
            parts.append(f"{falling} fall back" + (", pinned" if new.pinned else ""))
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
            climbers = counted(climbers_left, "climber stands", "climbers stand")
            tx.say(f"The wall is cleared: {climbers} on it.")
            s = replace(s, act=replace(s.act, melee=None, fallbacks=_fallbacks(m, a_fell, d_fell)))
            return roll(s, "ladder_advance", "ladder-advance", {})
        tx.say("The ladder assault is thrown back." if not climbers_left else "The assault ends.")
    s = replace(s, act=replace(s.act, melee=None, fallbacks=_fallbacks(m, a_fell, d_fell)))
    return _fallback_stage(s, tx)


def _fallbacks(m: Melee, a_fell: bool, d_fell: bool) -> tuple[str, ...]:
    return tuple(n for n, f in ((m.attacker, a_fell), (m.defender, d_fell)) if f)


def _fallback_stage(s: GameState, tx: Tx) -> GameState:
    if s.act.fallbacks:
        falling = s.unit(s.act.fallbacks[0])
        return roll(s, "fall_back", "fall-back", {"unpinnable": unpinnable(s, falling)})
    if s.act.leader_checks:
        name = s.act.leader_checks[0]
        tx.say(f"{name} lost figures: is {mounted_leader(s, s.unit(name))} among them?")
        return roll(s, "melee_leader_check", "leader-casualty", {})
    return _end_activation(s, tx)


def _after_melee_leader_check(s: GameState, out: Outcome, tx: Tx) -> GameState:
    name = s.act.leader_checks[0]
    s = replace(s, act=replace(s.act, leader_checks=s.act.leader_checks[1:]))
    u = s.unit(name)
    if out.headline:
        # one of the fallen was the leader: a tribesman counted among them is still standing
        s = s.with_unit(replace(u, figures=u.figures + 1))
        s = replace(s, casualties=s.casualties - 1, total_casualties=s.total_casualties - 1)
        s = _lose_leader(s, name, mounted_leader(s, u), tx)
    else:
        tx.say(f"{mounted_leader(s, u)} is not among the fallen.")
    return _fallback_stage(s, tx)


def _after_fall_back(s: GameState, out: Outcome, tx: Tx) -> GameState:
    name = s.act.fallbacks[0]
    pinned = "pinned" in out.effects
    if pinned:
        tx.cues.add("pin")
    distance = counted(out.headline, "inch", "inches")
    tx.say(f"The losers of {name} fall back {distance}{', pinned' if pinned else ''}.")
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
    climb = "climbs" if out.headline == 1 else "climb"
    tx.say(f"{counted(out.headline, 'figure')} of {s.act.unit} {climb} onto the wall unopposed.")
    return _end_activation(s, tx)


def _after_ladder_advance(s: GameState, out: Outcome, tx: Tx) -> GameState:
    tx.say(f"The climbers move {counted(out.headline, 'inch', 'inches')} along the wall.")
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


def _say_blast(s: GameState, out: Outcome, what: str, tx: Tx) -> None:
    """The blast in words: hits on the unit named (the gate's damage has its own line)."""
    if not out.headline:
        tx.say(*out.details)
    elif s.act.target != "gate":
        tx.say(f"{what}: {counted(out.headline, 'hit')} on {s.act.target}.")


def _after_dynamite(s: GameState, out: Outcome, tx: Tx) -> GameState:
    _say_blast(s, out, "The dynamite", tx)
    thrower = s.unit(s.act.unit)
    if "premature" in out.effects:
        tx.cues.add("death")
        nearby = thrower.figures - 1  # the seed sets no limit on who stood within 1in
        if nearby < 1:
            s = _remove_figures(s, thrower.name, 1, tx)
            return _end_activation(s, tx)
        opts = [(f"n:{n}", counted(n, "other")) for n in range(nearby + 1)]
        return ask(s, "premature", "Others within 1in?", opts, thrower.name)
    if s.act.target == "gate":
        s = _damage_gate(s, out, tx)
        return _end_activation(s, tx)
    target = s.unit(s.act.target)
    if "ladder_destroyed" in out.effects:
        s = s.with_unit(replace(target, ladder="", ladder_placed=False))
        tx.say(f"The ladder of {target.name} is destroyed.")
    s = replace(s, act=replace(s.act, hits=out.headline, firer=thrower.name))
    return _casualty_stage(s, tx)


def _after_premature(s: GameState, key: str, tx: Tx) -> GameState:
    others = int(key.split(":")[1])
    tx.say(f"The blast kills the thrower and {counted(others, 'figure')} around him.")
    s = _remove_figures(s, s.act.unit, 1 + others, tx)
    return _end_activation(s, tx)


def _after_mine_target(s: GameState, key: str, tx: Tx) -> GameState:
    target = key.split(":", 1)[1]
    s = replace(s, mines=s.mines - 1, act=replace(s.act, target=target, firer=s.act.unit))
    return yes_no(s, "mine_building", f"{target} in the mined building?", target)


def _after_mine_building(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, act=replace(s.act, cover="building" if key == "yes" else "none"))
    ladder = bool(s.unit(s.act.target).ladder)
    return roll(s, "mine", "dynamite", {"use": "mine", "target": "unit", "ladder": ladder})


def _after_mine(s: GameState, out: Outcome, tx: Tx) -> GameState:
    _say_blast(s, out, "The mine", tx)
    target = s.unit(s.act.target)
    if "premature" in out.effects or "dud" in out.effects:
        tx.say("The mine is spent without effect on the target.")
        return _end_activation(s, tx)
    if "ladder_destroyed" in out.effects:
        s = s.with_unit(replace(target, ladder="", ladder_placed=False))
        tx.say(f"The ladder of {target.name} is destroyed.")
    if s.act.cover == "building":
        tx.say(f"The building collapses on {target.name}: every figure in it is lost.")
        tx.cues.add("death")
        for c in attached_commanders(s, target.name):
            s = _lose_leader(s, target.name, c.name, tx)
        s = _remove_figures(s, target.name, target.figures, tx)
        return _end_activation(s, tx)
    s = replace(s, act=replace(s.act, hits=out.headline))
    return _arab_losses(s, target.name, out.headline, tx)


# ---------------------------------------------------------------- between attacks


def _after_second_attack(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "withdraw":
        return _game_over(s, tx, "FFL", "the Arabs give up the siege")
    return roll(s, "next_attack", "next-attack-day", {"rule": s.config.next_attack_roll})


def _after_next_attack(s: GameState, out: Outcome, tx: Tx) -> GameState:
    last_attack_day = s.day
    s = replace(s, day=s.day + out.headline)
    tx.say(f"The next attack will come on day {s.day}.")
    if _relief_pending(s) and last_attack_day < s.reinforcement_day < s.day:
        return _ask_attack_now(s, tx)
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
    if n:
        s = spend(s, "Arab", "resolve", tx, f"+{n} on the resolve roll", times=n)
    return roll(s, "resolve", "arab-resolve", _resolve_params(s, n))


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
    "sentry_view": _after_sentry_view,
    "attack_now": _after_attack_now,
    "relief_here": _after_relief_here,
    "party_spotted": _after_party_spotted,
    "party_through": _after_party_through,
    "alarm": _after_alarm,
    "deploy": _after_deploy,
    "water_ffl": _after_water_ffl,
    "water_arab": _after_water_arab,
    "unit_action": _after_unit_action,
    "leader_menu": _after_leader_menu,
    "extra_unit": _after_extra_unit,
    "hero_unit": _after_hero_unit,
    "recrew_gun": _after_recrew_gun,
    "recrew_donor": _after_recrew,
    "tower_donor": _after_tower_donor,
    "tower_down": _after_tower_down,
    "crew_mg": _after_crew_mg,
    "attach": _after_attach,
    "join_unit": _after_join,
    "hero_gun": _after_hero_gun,
    "at_wall": _after_at_wall,
    "unpin": _after_unpin,
    "fire_target": _after_fire_target,
    "fire_cover": _after_fire_cover,
    "fire_range": _after_fire_range,
    "gun_range": _after_gun_range,
    "snipe_offer": _after_snipe_offer,
    "among_hit": _after_among_hit,
    "charge_target": _after_charge_target,
    "charge_reach": _after_charge_reach,
    "reaction": _after_reaction,
    "position": _after_position,
    "surrounded": _after_surrounded,
    "wall_defender": _after_wall_defender,
    "dynamite_target": _after_dynamite_target,
    "mine_target": _after_mine_target,
    "mine_building": _after_mine_building,
    "premature": _after_premature,
    "sabotage_premature": _after_sabotage_premature,
    "resolve_inside": _after_resolve_inside,
    "resolve_oasis": _after_resolve_oasis,
    "resolve_cp": _after_resolve_cp,
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
    "counter_infighting": _after_counter_infighting,
    "volley": _after_volley,
    "gun": _after_gun,
    "gun_bonus": _after_gun,
    "saves": _after_saves,
    "leader_check": _after_leader_check,
    "officer_wound": _after_officer_wound,
    "snipe": _after_snipe,
    "charge": _after_charge,
    "counter": _after_counter,
    "bout": _after_bout,
    "fall_back": _after_fall_back,
    "melee_leader_check": _after_melee_leader_check,
    "ladder_climb": _after_ladder_climb,
    "ladder_advance": _after_ladder_advance,
    "dynamite": _after_dynamite,
    "mine": _after_mine,
    "relief_arrival": _after_relief_arrival,
    "resolve": _after_resolve,
    "next_attack": _after_next_attack,
}


def next_step(s: GameState) -> Step:
    return _step(s, with_odds=True)


def _step(s: GameState, *, with_odds: bool) -> Step:
    p = s.pending
    if isinstance(p, AskChip):
        return AwaitChip(p.prompt, s.bag.in_bag)
    if isinstance(p, AskChoice):
        return AwaitChoice(p.prompt, p.options, p.about)
    if isinstance(p, AskRoll):
        action = ACTIONS[p.action]
        params = dict(p.params)
        return AwaitRoll(action.request(params), action.odds(params) if with_odds else None)
    head = _result_line(p)
    return GameOver(p.winner, (head, *(line for line in describe(s) if line != head)))


def advance(s: GameState, given: GameInput) -> Transition:
    # the odds are for the screen; checking the input needs only what is asked
    check_input(_step(s, with_odds=False), given)
    p = s.pending
    tx = Tx()
    if isinstance(given, ChipDrawn):
        new = _on_chip(s, given.chip, tx)
    elif isinstance(given, Chosen):
        assert isinstance(p, AskChoice)
        new = CHOICES[p.purpose](s, given.key, tx)
    else:
        assert isinstance(p, AskRoll)
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
    """The state in a few lines: the status screen, and the summary at the end."""
    p = s.pending
    if s.attack == 0:
        head = f"{s.config.title}: before the game (day {s.day})"
    else:
        head = (
            f"Attack {s.attack}, day {s.day}, turn {s.turn}; Arab losses {s.casualties} "
            f"this attack, {s.total_casualties} in all"
        )
    gate = "destroyed" if s.gate_destroyed else f"{s.gate_damage}/{t.GATE_HITS} damage"
    lines = [head, f"CP FFL {s.cp_ffl}, Arab {s.cp_arab}; FFL ammo {s.ammo}; gate {gate}"]
    for side in ("FFL", "Arab"):
        standing = [_describe_unit(s, u) for u in s.side_units(side) if not u.attached_to]
        gone = [
            u.name
            for u in s.units
            if u.side == side and u.present and not u.figures and u.kind not in ("tower",)
        ]
        lines.append(f"{side}: " + ("; ".join(standing) or "none left"))
        if gone:
            lines.append(f"  {side} lost or unmanned: " + ", ".join(gone))
    # The supply train leaves the table by going into the fort: it came, it is not awaited.
    relief = [u.name for u in s.units if u.reinforcement and not u.present and u.figures
              and not (u.kind == "supply" and s.supply_through)]
    if relief and s.attack:
        lines.append("Relief column: not here yet")
    if s.supply_through:
        lines.append("Supply train inside the fort: no more ammunition rolls")
    if isinstance(p, Over):
        lines.append(_result_line(p))
    return tuple(lines)


def _result_line(over: Over) -> str:
    """Who won and why: "won" agrees with any side's name ("FFL", "Arabs")."""
    return f"{over.winner or 'Nobody'} won: {over.reason}."


def _describe_unit(s: GameState, u: UnitState) -> str:
    count = f"{u.figures}" + (f" ({u.wounded} wounded)" if u.wounded else "")
    with_it = [u.leader + (" wounded" if u.leader_wounded else "")] if u.leader else []
    with_it += [c.name + (" wounded" if c.wounded else "") for c in attached_commanders(s, u.name)]
    flags = [
        word
        for word, on in (
            ("pinned", u.pinned),
            ("berserk", u.berserk),
            ("jammed", u.jammed),
            ("broken", u.broken),
            ("hero", u.heroes > 0),
            ("carrying a dead officer", u.carrying_dead),
            ("ladder set", u.ladder_placed),
        )
        if on
    ]
    if u.command_figure:
        return u.name + (" (wounded)" if u.wounded else "")
    text = f"{u.name} {count}"
    if with_it:
        text += " with " + ", ".join(with_it)
    return text + (f" [{', '.join(flags)}]" if flags else "")
