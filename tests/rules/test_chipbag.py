"""The chip bag: draws, removals, additions and refills, all immutable."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.chipbag import ChipBag
from companion.rules.core import RulesError


def test_a_new_bag_holds_every_chip_for_turn_one() -> None:
    bag = ChipBag.of(["L1", "A1", "CPT"])
    assert bag.in_bag == ("A1", "CPT", "L1")
    assert bag.drawn == ()
    assert bag.turn == 1
    assert not bag.empty


def test_drawing_takes_the_chip_out_and_records_the_order() -> None:
    bag = ChipBag.of(["L1", "A1", "CPT"]).draw("L1").draw("A1")
    assert bag.in_bag == ("CPT",)
    assert bag.drawn == ("L1", "A1")


def test_the_turn_ends_when_the_bag_is_empty() -> None:
    bag = ChipBag.of(["L1"]).draw("L1")
    assert bag.empty


def test_a_chip_already_drawn_is_refused_with_a_message() -> None:
    bag = ChipBag.of(["L1", "A1"]).draw("L1")
    with pytest.raises(RulesError, match="already drawn"):
        bag.draw("L1")


def test_an_unknown_chip_is_refused_naming_what_is_left() -> None:
    with pytest.raises(RulesError, match="still in it: A1, L1"):
        ChipBag.of(["L1", "A1"]).draw("ZZ")


def test_duplicate_chips_are_refused() -> None:
    with pytest.raises(RulesError, match="only once"):
        ChipBag.of(["L1", "L1"])


def test_a_destroyed_units_chip_leaves_the_bag_and_the_refill() -> None:
    bag = ChipBag.of(["L1", "A1", "A2"]).remove("A2")
    assert "A2" not in bag.in_bag
    assert "A2" not in bag.refill().in_bag


def test_a_chip_drawn_then_removed_does_not_come_back_next_turn() -> None:
    bag = ChipBag.of(["L1", "A1"]).draw("A1").remove("A1")
    assert bag.refill().in_bag == ("L1",)


def test_a_chip_added_mid_turn_can_be_drawn_now_and_stays_in_play() -> None:
    bag = ChipBag.of(["L1"]).draw("L1").add("R1")
    assert bag.in_bag == ("R1",)
    assert bag.refill().in_bag == ("L1", "R1")


def test_a_chip_added_for_next_turn_is_not_in_the_bag_now() -> None:
    bag = ChipBag.of(["L1"]).add_next_turn("MG")
    assert bag.in_bag == ("L1",)
    assert bag.refill().in_bag == ("L1", "MG")


def test_refill_starts_the_next_turn() -> None:
    bag = ChipBag.of(["L1", "A1"]).draw("A1").draw("L1").refill()
    assert bag.turn == 2
    assert bag.drawn == ()
    assert bag.in_bag == ("A1", "L1")


def test_restart_is_a_fresh_first_turn() -> None:
    bag = ChipBag.of(["L1"]).draw("L1").refill().restart(["A1"])
    assert bag.turn == 1
    assert bag.in_bag == ("A1",)


def test_bags_with_the_same_chips_compare_equal_whatever_the_order() -> None:
    assert ChipBag.of(["B", "A"]) == ChipBag.of(["A", "B"])
    assert ChipBag.of(["A"]).add("B") == ChipBag.of(["A", "B"])


@given(st.lists(st.text(min_size=1, max_size=3), min_size=1, max_size=12, unique=True), st.data())
def test_drawing_every_chip_empties_the_bag_and_drawn_is_a_permutation(
    chips: list[str], data: st.DataObject
) -> None:
    bag = ChipBag.of(chips)
    order = data.draw(st.permutations(chips))
    for chip in order:
        before = bag
        bag = bag.draw(chip)
        assert before.in_bag != bag.in_bag  # the old bag is untouched
    assert bag.empty
    assert bag.drawn == tuple(order)
    assert sorted(bag.refill().in_bag) == sorted(chips)
