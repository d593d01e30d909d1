"""A small scenario and a scripted game through it, shared by the game and session tests."""

from __future__ import annotations

from companion.rules.core import Chosen, GameInput, Rolled

SCENARIO_TOML = """
system = "fighting_swashbucklers"
title = "Skirmish at the well"
sides = ["Legion", "Tribes"]

[setup]
turn_limit = 1
first_side = "Tribes"
objectives = [{ name = "Well", points = 20 }]

[[units]]
name = "Capt"
side = "Legion"
kind = "commander"
figures = 1

[[units]]
name = "L1"
side = "Legion"
kind = "infantry"
figures = 4
leader = "Sgt"
[units.traits]
pose = "prone"

[[units]]
name = "MG"
side = "Legion"
kind = "machine_gun"
figures = 4
[units.traits]
pose = "kneeling"

[[units]]
name = "Sheikh"
side = "Tribes"
kind = "commander"
figures = 1

[[units]]
name = "R1"
side = "Tribes"
kind = "cavalry"
figures = 4
leader = "Ali"
[units.traits]
leader_type = "martinet"

[[units]]
name = "T1"
side = "Tribes"
kind = "infantry"
figures = 3
[units.traits]
pose = "running"
"""


def c(key: str) -> Chosen:
    return Chosen(key)


def r(*dice: int) -> Rolled:
    return Rolled(tuple(dice))


# (input, a text the play-by-play of that input must contain, or "")
SCRIPT: tuple[tuple[GameInput, str], ...] = (
    (r(5, 0), "50 is in the band for 4 CP"),
    (r(9, 9), "commands the Tribes"),
    (r(1, 0), "Sgt is a good leader"),
    (r(2, 0), "Tribes: a second action each"),
    (c("unit:R1"), ""),
    (c("charge"), ""),
    (c("rough:no"), ""),
    (c("target:L1"), ""),
    (c("face:flank"), "L1 is charged in the flank: stress test"),
    (c("unit:T1"), ""),
    (c("fire"), ""),
    (c("target:MG"), "T1 fires at MG"),
    (r(8, 0), "MG: no impact"),
    (c("fire"), ""),
    (c("target:MG"), ""),
    (r(0, 5), "MG takes 1 marker (1 in all)"),
    (c("end"), "Tribes end orders"),
    (r(5), "4 CP x 5 = 20 points: 2 units react"),
    (c("unit:MG"), ""),
    (c("target:T1"), ""),
    (r(7, 5), "T1 takes 7 markers"),
    (c("unit:L1"), ""),
    (c("target:R1"), "R1 takes 4 markers"),
    (c("band:1"), ""),  # lend 10-19
    (c("help:13"), ""),  # any number, not only fives
    (r(2, 0), "ML = 60 + 10 x 4 = 100, halved for stress = 50, plus 13 leader points: 63"),
    (r(5, 5), "L1 turns to face R1 and fires"),  # Sgt survives: 55 over his 26% risk
    (r(9, 0), "MG holds (ML 95)"),
    (r(6, 1), "R1 fails (ML 60): 1 man routs, 3 left"),
    (r(8, 8), "T1 fails (ML 55): 2 men rout, 1 left"),
    (c("adv:none"), "melee: R1 (3 fighting) v L1 (4 fighting), no advantage"),
    (r(5, 1, 1, 2, 9, 6), "after round 1: 1 man of R1 still fighting, 3 of L1"),
    (r(9, 1), "L1: 1 man beaten threefold routs from the field"),
    (r(1, 5), 'R1 withdraws 12" in good order'),
    (r(3, 3), "Ali's men clobber him"),
    (r(7), "5 CP x 7 / 10 = 3.5 men"),
    (r(4, 9), "Tribes rally 4 men"),
    (c("rally:R1"), "1 man rallies to R1"),
    (c("rally:R1"), ""),
    (c("rally:T1"), ""),
    (c("rally:T1"), "--- turn 1: Legion is phasing"),
    (r(0, 0), "Legion: one action each"),
    (c("unit:L1"), ""),
    (c("vanish"), "L1 dematerialises"),
    (c("unit:MG"), ""),
    (c("move"), ""),
    (c("rough:yes"), ""),
    (r(7, 1), "MG stands in the rough for the rest of the turn"),
    (c("unit:Capt"), ""),
    (c("move"), 'Capt moves up to 6"'),
    (r(1), "5 CP x 1 = 5 points: 0 units react"),
    (c("hold:Tribes"), "Well: Tribes (20 VP)"),
)
