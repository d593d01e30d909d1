"""The activation chip bag, as pure immutable data.

A turn starts with every active chip in the bag. Players draw chips one at a
time; the turn ends when the bag is empty. Chips of destroyed units are taken
out (from the bag and from the refill), chips can be added mid-turn (units
arriving) and the bag is refilled for the next turn from the chips still in
play. Drawing a chip that is not in the bag is a RulesError: the session turns
it into an "already drawn this turn" warning.

Order inside the bag does not matter (the draw is the players' hand in the
bag); chips are kept sorted so that two bags holding the same chips compare
equal however they got there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.rules.core import RulesError


def _sorted(chips: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(chips))


@dataclass(frozen=True)
class ChipBag:
    """Chips still to draw this turn, chips drawn (in order), and the chips in play."""

    in_bag: tuple[str, ...] = ()
    drawn: tuple[str, ...] = ()
    in_play: tuple[str, ...] = ()  # what `refill` puts back next turn
    turn: int = 0  # 0 before the first fill

    @staticmethod
    def of(chips: Iterable[str]) -> ChipBag:
        """A bag for the first turn holding `chips` (duplicates refused)."""
        listed = list(chips)
        if len(set(listed)) != len(listed):
            doubled = sorted({c for c in listed if listed.count(c) > 1})
            raise RulesError(f"a chip can be in the bag only once: {', '.join(doubled)}")
        return ChipBag(in_bag=_sorted(listed), drawn=(), in_play=_sorted(listed), turn=1)

    @property
    def empty(self) -> bool:
        """The turn is over when nothing is left to draw."""
        return not self.in_bag

    def draw(self, chip: str) -> ChipBag:
        if chip not in self.in_bag:
            if chip in self.drawn:
                raise RulesError(f"chip {chip!r} was already drawn this turn")
            raise RulesError(
                f"chip {chip!r} is not in the bag; still in it: {', '.join(self.in_bag) or 'none'}"
            )
        left = list(self.in_bag)
        left.remove(chip)
        return ChipBag(tuple(left), (*self.drawn, chip), self.in_play, self.turn)

    def remove(self, chip: str) -> ChipBag:
        """Take a chip out of play (its unit is destroyed): out of the bag and the refill."""
        return ChipBag(
            tuple(c for c in self.in_bag if c != chip),
            self.drawn,
            tuple(c for c in self.in_play if c != chip),
            self.turn,
        )

    def add(self, chip: str) -> ChipBag:
        """Put a new chip in play and in the bag now (a unit arriving mid-turn)."""
        in_bag = self.in_bag if chip in self.in_bag else _sorted((*self.in_bag, chip))
        in_play = self.in_play if chip in self.in_play else _sorted((*self.in_play, chip))
        return ChipBag(in_bag, self.drawn, in_play, self.turn)

    def add_next_turn(self, chip: str) -> ChipBag:
        """Put a chip in play from the next refill on, not in the bag this turn."""
        in_play = self.in_play if chip in self.in_play else _sorted((*self.in_play, chip))
        return ChipBag(self.in_bag, self.drawn, in_play, self.turn)

    def refill(self) -> ChipBag:
        """The bag for the next turn: every chip still in play, nothing drawn."""
        return ChipBag(self.in_play, (), self.in_play, self.turn + 1)

    def restart(self, chips: Iterable[str]) -> ChipBag:
        """A fresh bag (a new attack) with turn 1 and the given chips in play."""
        return ChipBag.of(chips)
