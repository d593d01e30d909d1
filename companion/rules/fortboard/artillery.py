"""Artillery: the defender's numbered targets, the attacker's shots at walls,
towers and the interior, and what a landing shot does. (1.4, 1.4.1, 1.4.2)"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.fortboard import tables


def structure_hit(intact_spaces: int, two_dice_total: int) -> bool:
    """A tower (and, by the default reading, a wall) is hit when 2d6 beats
    the number of its spaces still undamaged."""
    return two_dice_total > intact_spaces


def interior_component(face: int) -> str:
    """Which part of the fort's interior an attacker's shot lands on."""
    return tables.INTERIOR_HIT_TABLE[face]


def target_window(stations: Sequence[str], start: int) -> tuple[str, ...]:
    """The stations carrying a weapon's numbers 1-6, counting from `start`
    around the fort. With six stations or fewer every station is numbered."""
    if not stations:
        return ()
    count = min(len(tables.TARGET_NUMBERS), len(stations))
    return tuple(stations[(start + i) % len(stations)] for i in range(count))


def targeted_station(window: Sequence[str], face: int) -> str | None:
    """The station a defender weapon's d6 picks, or None for an unused number."""
    if 1 <= face <= len(window):
        return window[face - 1]
    return None


def hit_wounds(face: int) -> bool:
    """A figure where the shot lands is wounded on 3 or better."""
    return face >= tables.HIT_WOUNDS_ON
