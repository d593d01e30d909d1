"""The box: turns raw inputs (buttons, chip reads, settled dice, faults) into
journaled session events, and session results into screens and tunes.

- `inputs`: what the box's queue carries (ButtonPressed, TagSeen, DiceSeen, ...) and
  how it starts a new game (NewGames)
- `state`: its UI state (UiState, Entry), which is not journaled
- `throw_plan`: how a roll request is thrown (per_throw, throws, dice_order, ...)
- `controller`: the `Box` itself: handles each input, journals, sounds
- `views`: what each screen says, built from the box's state (laid out and drawn by
  `companion.ui.screens`)

The screens, in the order a referee meets them (docs/referee-guide.md):

- idle: draw a chip (chips in the bag, devices that are down)
- chip: the chip just drawn: unit, side, its state
- menu: the rules' choices (an action for the unit) or the box's own menu
- roll / check: dice to roll, why, headline odds; a check is an end-of-turn
  or end-of-attack roll (resolve, ammunition, morale, rally)
- reading: a throw read, waiting for the next throw of the same request
- result: the outcome (hits, pins, jams, casualties) and the next step
- check (end of turn): the turn's end and where the game stands
- secret: a roll recorded without showing it; the menu's "Reveal secret" asks
  before it shows the dice (UP reveals)
- entry: dice entered or corrected by hand
- status, summary, error, warning
- games: the list of games to start (the menu's "New game", SELECT on the summary, or
  a box started with no game); picking one asks before the game so far is archived
  (UP starts the new one), and the new game's first screen says what was started

Every name below is importable from `companion.box` itself.
"""

from companion.box.controller import FALLBACKS, REFUSALS_BEFORE_OFFER, Box
from companion.box.inputs import (
    BoxInput,
    ButtonPressed,
    DeviceBack,
    DeviceFault,
    DiceSeen,
    NewGames,
    SeenDie,
    TagSeen,
)
from companion.box.state import Entry, UiState
from companion.box.throw_plan import (
    PER_THROW,
    Part,
    Throw,
    dice_order,
    per_throw,
    throw_groups,
    throws,
)
from companion.box.views import (
    dice_by_group,
    dice_lines,
    first_fitting_item,
)

__all__ = [
    "FALLBACKS",
    "PER_THROW",
    "REFUSALS_BEFORE_OFFER",
    "Box",
    "BoxInput",
    "ButtonPressed",
    "DeviceBack",
    "DeviceFault",
    "DiceSeen",
    "Entry",
    "NewGames",
    "Part",
    "SeenDie",
    "TagSeen",
    "Throw",
    "UiState",
    "dice_by_group",
    "dice_lines",
    "dice_order",
    "first_fitting_item",
    "per_throw",
    "throw_groups",
    "throws",
]
