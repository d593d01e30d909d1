"""Melee: figure values, one fight between two figures, and wounds. (1.12)"""

from __future__ import annotations

from fractions import Fraction

from companion.rules.fortboard import tables

ATTACKER_WINS = "attacker"
DEFENDER_WINS = "defender"
TIE = "tie"


def melee_value(
    kind: str,
    wounded: bool,
    *,
    fort_defender: bool = False,
    barracks_fallen: bool = False,
    keep_fallen: bool = False,
) -> int:
    """A figure's melee value: 3 (archers 2, mounted 4), wounded 1 (mounted 2).

    A defender of the fort loses a point once the barracks has fallen and
    another once the keep has fallen or been destroyed.
    """
    table = tables.WOUNDED_MELEE_VALUE if wounded else tables.MELEE_VALUE
    value = table[kind]
    if fort_defender:
        value -= fort_penalty(barracks_fallen=barracks_fallen, keep_fallen=keep_fallen)
    return value


def fort_penalty(*, barracks_fallen: bool, keep_fallen: bool) -> int:
    """Points every fort defender and wall weapon loses to fallen buildings."""
    penalty = 0
    if barracks_fallen:
        penalty += tables.BARRACKS_FALLEN_PENALTY
    if keep_fallen:
        penalty += tables.KEEP_FALLEN_PENALTY
    return penalty


def fight(attacker_value: int, defender_value: int, attacker_die: int, defender_die: int) -> str:
    """Each side adds its die to its value; the higher wounds the lower; a tie does nothing."""
    attacker_total = attacker_value + attacker_die
    defender_total = defender_value + defender_die
    if attacker_total > defender_total:
        return ATTACKER_WINS
    if defender_total > attacker_total:
        return DEFENDER_WINS
    return TIE


def fight_chances(attacker_value: int, defender_value: int) -> dict[str, Fraction]:
    """Exact chances of each result of one fight (36 equally likely pairs)."""
    counts = {ATTACKER_WINS: 0, DEFENDER_WINS: 0, TIE: 0}
    for a in range(1, 7):
        for d in range(1, 7):
            counts[fight(attacker_value, defender_value, a, d)] += 1
    return {k: Fraction(v, 36) for k, v in counts.items()}


def wound_result(already_wounded: bool) -> str:
    """A wound marks a fresh figure; a second wound kills it."""
    return "killed" if already_wounded else "wounded"
