"""Fire by a unit, the tower or a gun: target, cover and range, the volley or the
gun's roll (its bonus dice and jams), heavy-cover saves, the leaders or hero among
the hit, the Effect of Hits rolls, Arab losses with a mounted leader's check, and a
rifleman sniping at a leader. The dice are in `fire.py` and `wounds.py`.

Defensive fire goes on to the close combat (`melee`); other fire ends the activation
(`activation`). Blasts (`assaults`) use the casualty steps from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from companion.rules.core import Outcome, counted
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.actions import ACTIONS
from companion.rules.tenir_le_fort.play.activation import end_activation, offer_unpin
from companion.rules.tenir_le_fort.play.losses import (
    check_destroyed,
    damage_gate,
    lose_leader,
    remove_figures,
    wound_leader,
)
from companion.rules.tenir_le_fort.play.melee import start_melee_stage
from companion.rules.tenir_le_fort.play.steps import (
    ChoiceHandler,
    RollHandler,
    Tx,
    ask,
    does,
    roll,
    yes_no,
)
from companion.rules.tenir_le_fort.play.units import (
    attached_commanders,
    cover_options,
    leader_ranks,
    mounted_leader,
    officers_with,
    snipe_targets,
    targets_for,
    unpinnable,
)
from companion.rules.tenir_le_fort.state import AskRoll, GameState, UnitState
from companion.rules.tenir_le_fort.wounds import WoundCheck


def ask_target(s: GameState, firer: UnitState) -> GameState:
    opts = [(f"target:{e.name}", e.name) for e in targets_for(s, firer.side, leaders=not firer.gun)]
    if firer.kind == "artillery" and not s.gate_destroyed and firer.side == "Arab":
        opts.append(("gate", "The gate"))
    return ask(s, "fire_target", does(s, firer.name, "fires", "fire") + " at?", opts, firer.name)


def _after_fire_target(s: GameState, key: str, tx: Tx) -> GameState:
    firer = s.unit(s.act.firer)
    if key == "gate":
        s = replace(s, act=replace(s.act, target="gate", cover="none"))
        return gun_roll(s, tx)
    target = s.unit(key.split(":", 1)[1])
    s = replace(s, act=replace(s.act, target=target.name))
    if target.kind == "leader":
        tx.say(does(s, firer.name, "aims", "aim") + f" at {target.name}.")
        return roll(s, "snipe", "snipe-leader", {"hero": firer.heroes > 0})
    opts = cover_options(target, firer)
    return ask(s, "fire_cover", f"{target.name}: cover?", opts, target.name)


def _after_fire_cover(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, act=replace(s.act, cover=key.split(":")[1]))
    return fire_range_stage(s, tx)


def fire_range_stage(s: GameState, tx: Tx) -> GameState:
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
        return gun_roll(s, tx)
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
    return gun_roll(s, tx)


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


def gun_roll(s: GameState, tx: Tx, bonus: int = 0) -> GameState:
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
        return gun_roll(s, tx, bonus=out.follow_up.dice_count)
    if s.act.target == "gate":
        s = damage_gate(s, Outcome(hits, "hits"), tx)
        return _finish_fire(s, tx)
    return _saves_stage(s, tx)


def _saves_stage(s: GameState, tx: Tx) -> GameState:
    firer = s.unit(s.act.firer)
    if s.act.hits and s.act.cover == "heavy" and firer.kind != "artillery":
        return roll(s, "saves", "heavy-cover-save", {"hits": min(s.act.hits, 40)})
    return casualty_stage(s, tx)


def _after_saves(s: GameState, out: Outcome, tx: Tx) -> GameState:
    casualties = counted(out.headline, "casualty", "casualties")
    tx.say(f"Heavy cover: {s.act.hits - out.headline} saved, {casualties}.")
    s = replace(s, act=replace(s.act, hits=out.headline))
    return casualty_stage(s, tx)


def casualty_stage(s: GameState, tx: Tx) -> GameState:
    target = s.unit(s.act.target)
    hits = s.act.hits
    if not hits or not target.alive:
        return _snipe_stage(s, tx)
    if target.side == "Arab":
        return arab_losses(s, target.name, hits, tx)
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
        s = lose_leader(s, unit, name, tx)
    elif "wounded" in out.effects:
        s = wound_leader(s, unit, name, tx)
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


def after_wounds(s: GameState, check: WoundCheck, dice: tuple[int, ...], tx: Tx) -> GameState:
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
    s = check_destroyed(s, target.name, tx)
    return _snipe_stage(s, tx)


def arab_losses(s: GameState, name: str, n: int, tx: Tx) -> GameState:
    u = s.unit(name)
    tx.cues.add("death")
    leader = mounted_leader(s, u)
    if leader and n > u.figures:
        # more casualties than tribesmen: the mounted leader is one of them
        s = lose_leader(s, name, leader, tx)
        s = remove_figures(s, name, u.figures, tx)
        return _snipe_stage(s, tx)
    if leader:
        s = replace(s, act=replace(s.act, hits=n))
        return roll(s, "leader_check", "leader-casualty", {})
    s = remove_figures(s, name, n, tx)
    return _snipe_stage(s, tx)


def _after_leader_check(s: GameState, out: Outcome, tx: Tx) -> GameState:
    u = s.unit(s.act.target)
    if out.headline:
        # the leader is one of the casualties, not one more
        s = lose_leader(s, u.name, mounted_leader(s, u), tx)
        s = remove_figures(s, u.name, s.act.hits - 1, tx)
    else:
        tx.say(f"{mounted_leader(s, u)} is not among the casualties.")
        s = remove_figures(s, u.name, s.act.hits, tx)
    return _snipe_stage(s, tx)


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
    s = lose_leader(s, target.name, aim, tx)
    return _finish_fire(s, tx)


def _finish_fire(s: GameState, tx: Tx) -> GameState:
    if s.act.after_fire == "melee":
        return start_melee_stage(s, tx)
    firer = s.unit(s.act.firer) if s.act.firer else None
    recovery_roll = s.act.action == "fire" and s.act.firer == s.act.unit
    if firer is not None and firer.pinned and firer.side == "Arab" and recovery_roll:
        return offer_unpin(s, tx)
    return end_activation(s, tx)


# The questions this module answers, by purpose: game.py routes each answer here.
CHOICES: dict[str, ChoiceHandler] = {
    "fire_target": _after_fire_target,
    "fire_cover": _after_fire_cover,
    "fire_range": _after_fire_range,
    "gun_range": _after_gun_range,
    "snipe_offer": _after_snipe_offer,
    "among_hit": _after_among_hit,
}

ROLLS: dict[str, RollHandler] = {
    "volley": _after_volley,
    "gun": _after_gun,
    "gun_bonus": _after_gun,
    "saves": _after_saves,
    "leader_check": _after_leader_check,
    "officer_wound": _after_officer_wound,
    "snipe": _after_snipe,
}
