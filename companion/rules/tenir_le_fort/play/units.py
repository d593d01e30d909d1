"""What the steps ask about units: the leaders with a unit and what they give it,
command, who can still fight and whom a side can shoot, the guns' state, men a squad
can spare, and the parameters of a unit's move roll; plus `move_men` between units.

Questions about the state, with no step of play in them: shared by every part of
the sequence, so they sit below all of it.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.play.steps import other
from companion.rules.tenir_le_fort.state import GameState, UnitState


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


def spare_men(u: UnitState) -> int:
    """Men a squad can send off (a hero to a gun, men up the tower): the box keeps a squad's
    own leader (its sergeant) only while he has men, so one stays with him."""
    return max(0, u.figures - 1) if u.leader else u.figures


def move_params(s: GameState, u: UnitState, mode: str) -> dict[str, int | bool | str]:
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
