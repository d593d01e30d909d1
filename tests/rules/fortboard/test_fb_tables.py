"""Every FortBoard chart row by row, against values typed from the source (v1.6)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.rules.fortboard import artillery, engines, melee, missiles, tables
from companion.rules.fortboard.actions import ACTIONS


@pytest.mark.parametrize(
    ("kind", "fresh", "wounded"),
    [
        ("infantry", 3, 1),  # 1.12: basic value 3; a wound drops a figure to 1
        ("pike", 3, 1),
        ("archer", 2, 1),  # archers are 2
        ("crossbow", 2, 1),  # crossbow archers are archers
        ("mounted", 4, 2),  # mounted 4, wounded 2
    ],
)
def test_melee_value_row(kind: str, fresh: int, wounded: int) -> None:
    assert melee.melee_value(kind, False) == fresh
    assert melee.melee_value(kind, True) == wounded


@pytest.mark.parametrize(
    ("barracks", "keep", "penalty"),
    [(False, False, 0), (True, False, 1), (False, True, 1), (True, True, 2)],
)
def test_fallen_buildings_penalty_row(barracks: bool, keep: bool, penalty: int) -> None:
    assert melee.fort_penalty(barracks_fallen=barracks, keep_fallen=keep) == penalty
    value = melee.melee_value(
        "infantry", False, fort_defender=True, barracks_fallen=barracks, keep_fallen=keep
    )
    assert value == 3 - penalty


def test_attackers_never_take_the_fort_penalty() -> None:
    assert melee.melee_value("infantry", False, barracks_fallen=True, keep_fallen=True) == 3


@pytest.mark.parametrize(
    ("kind", "band", "faces"),
    [
        ("archer", "far", {6}),  # 1.12.1: archers hit on 6
        ("crossbow", "far", {5, 6}),  # crossbows on 5, 6
        ("archer", "near", {4, 5, 6}),  # 2-3 spaces away: higher than 3
        ("crossbow", "near", {4, 5, 6}),
    ],
)
def test_missile_hit_row(kind: str, band: str, faces: set[int]) -> None:
    assert missiles.missile_hit_faces(kind, band) == frozenset(faces)


def test_only_missile_kinds_shoot() -> None:
    with pytest.raises(ValueError, match="do not shoot"):
        missiles.missile_hit_faces("infantry", "far")


@pytest.mark.parametrize(
    ("face", "component"),
    [
        (1, "left_artillery"),
        (2, "right_artillery"),
        (3, "keep"),
        (4, "barracks"),
        (5, "stables"),
        (6, "courtyard"),
    ],
)
def test_interior_hit_row(face: int, component: str) -> None:
    assert artillery.interior_component(face) == component


@pytest.mark.parametrize(
    ("face", "wounds"), [(1, False), (2, False), (3, True), (4, True), (5, True), (6, True)]
)
def test_hit_wounds_row(face: int, wounds: bool) -> None:
    assert artillery.hit_wounds(face) is wounds


@pytest.mark.parametrize(
    ("intact", "total", "hit"),
    [(9, 9, False), (9, 10, True), (9, 12, True), (4, 5, True), (4, 4, False), (12, 12, False)],
)
def test_structure_hit_row(intact: int, total: int, hit: bool) -> None:
    assert artillery.structure_hit(intact, total) is hit


#: Chance that 2d6 beats a tower's (or wall's) undamaged spaces, typed from the
#: 36 pairs of two dice: totals 2..12 come up 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 ways.
BEAT_INTACT = [
    (1, 36),
    (2, 35),
    (3, 33),
    (4, 30),
    (5, 26),
    (6, 21),
    (7, 15),
    (8, 10),
    (9, 6),  # the source's example: a 9-space tower needs 10, 11 or 12
    (10, 3),
    (11, 1),
    (12, 0),
    (13, 0),
]


@pytest.mark.parametrize(("intact", "ways"), BEAT_INTACT)
def test_structure_hit_chance_row(intact: int, ways: int) -> None:
    for name in ("tower-hit", "wall-hit"):
        action = ACTIONS[name]
        odds = action.odds(action.complete_params({"intact": intact}))
        assert odds.headline.get(1, 0) == Fraction(ways, 36)
    hits = sum(
        1 for a in range(1, 7) for b in range(1, 7) if artillery.structure_hit(intact, a + b)
    )
    assert hits == ways


@pytest.mark.parametrize(
    ("face", "moves"), [(1, False), (2, False), (3, False), (4, False), (5, False), (6, True)]
)
def test_replacement_row(face: int, moves: bool) -> None:
    assert engines.replacement_allowed(face) is moves


@pytest.mark.parametrize(
    ("below", "spaces", "shares"),
    [
        (1, 1, (4,)),
        (1, 2, (4,)),
        (2, 2, (2, 2)),  # the source's own example
        (3, 2, (2, 2)),
        (3, 3, (2, 1, 1)),
        (4, 4, (1, 1, 1, 1)),
        (0, 2, ()),
    ],
)
def test_wall_weapon_shares_row(below: int, spaces: int, shares: tuple[int, ...]) -> None:
    assert engines.attempts_per_target(below, spaces) == shares


@pytest.mark.parametrize(("face", "crew", "out"), [(1, 4, 1), (4, 4, 4), (6, 4, 4), (3, 8, 3)])
def test_engine_survivors_row(face: int, crew: int, out: int) -> None:
    assert engines.engine_survivors(face, crew) == out


@pytest.mark.parametrize(("hits", "gone"), [(5, False), (6, True), (7, True)])
def test_engine_destroyed_row(hits: int, gone: bool) -> None:
    assert engines.engine_destroyed(hits) is gone


@pytest.mark.parametrize(("turns", "gone"), [(3, False), (4, True)])
def test_oil_burns_four_turns_row(turns: int, gone: bool) -> None:
    assert engines.oil_burnt_out(turns) is gone


@pytest.mark.parametrize(("dice", "out"), [((1, 5), False), ((2, 6), True), ((6,), True)])
def test_douse_row(dice: tuple[int, ...], out: bool) -> None:
    assert engines.flames_put_out(dice) is out


@pytest.mark.parametrize(
    ("dice", "crew", "removed"), [((6, 6, 1), 3, 2), ((6, 6, 6), 2, 2), ((5, 4), 2, 0)]
)
def test_crew_fire_row(dice: tuple[int, ...], crew: int, removed: int) -> None:
    assert missiles.crew_removed(dice, crew) == removed


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ENGINE_HITS_TO_DESTROY", 6),
        ("ASSAULT_TOWER_DISPENSE", 4),
        ("OIL_BURN_TURNS", 4),
        ("WALL_WEAPON_ATTEMPTS", 4),
        ("TOWER_DEFENDER_LIMIT", 4),
        ("HIT_WOUNDS_ON", 3),
        ("KEEP_FIGHTS_PER_ACTION", 2),
        ("SETUP_LIMIT_NUMERATOR", 3),
        ("SETUP_LIMIT_DENOMINATOR", 4),
    ],
)
def test_fixed_number(name: str, value: int) -> None:
    assert getattr(tables, name) == value


@pytest.mark.parametrize(
    ("face", "station"),
    [(1, "s3"), (2, "s4"), (3, "s5"), (4, "s6"), (5, "s7"), (6, "s0"), (7, None)],
)
def test_target_window_row(face: int, station: str | None) -> None:
    stations = [f"s{i}" for i in range(8)]
    window = artillery.target_window(stations, 3)
    assert len(window) == 6  # 8 sites, only 6 numbered at a time
    assert artillery.targeted_station(window, face) == station


def test_few_stations_are_all_numbered() -> None:
    window = artillery.target_window(["a", "b", "c"], 1)
    assert window == ("b", "c", "a")
    assert artillery.targeted_station(window, 4) is None


@pytest.mark.parametrize(
    ("a", "d", "ad", "dd", "result"),
    [
        (3, 3, 4, 3, "attacker"),
        (3, 3, 3, 3, "tie"),
        (2, 4, 6, 3, "attacker"),
        (2, 4, 5, 3, "tie"),
        (1, 3, 6, 6, "defender"),
    ],
)
def test_fight_row(a: int, d: int, ad: int, dd: int, result: str) -> None:
    assert melee.fight(a, d, ad, dd) == result
