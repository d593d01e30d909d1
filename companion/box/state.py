"""The box's UI state: menu position, dice half entered by hand, the screens waiting
to be read, the devices that are down. None of it is journaled: it is lost, harmlessly,
when the box restarts."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.rules.core import DieKind
from companion.session.scenario_files import Picked, ScenarioChoice
from companion.session.session import GameSession, SecretRoll
from companion.ui.screens import Screen


@dataclass
class Entry:
    """Dice being entered by hand, one die at a time."""

    kinds: tuple[DieKind, ...]
    values: list[int]
    at: int = 0
    correction: bool = False
    labels: tuple[str, ...] = ()  # the group label of each die


@dataclass
class UiState:
    cursor: int = 0
    # normal | menu | entry | pick_chip | status | reveal | games (the list of games to
    # start) | confirm_new (asks before the game so far is archived)
    mode: str = "normal"
    menu: tuple[tuple[str, str], ...] = ()  # (key, label)
    message: Screen | None = None  # error or warning shown until a button is pressed
    offer: str | None = None  # what SELECT on the message does: "enter" opens dice entry
    results: list[Screen] = field(default_factory=list)  # outcomes waiting to be read
    entry: Entry | None = None
    # The dice of the throws read so far of a roll thrown in several, in the order thrown:
    # the journal's (`GameRecord.throws`), copied after each event for the screens.
    partial: list[int] = field(default_factory=list)
    faults: dict[str, str] = field(default_factory=dict)
    scroll: int = 0  # first body line shown of `scrolled`
    scrolled: Screen | None = None  # the page being scrolled; any other page starts at the top
    secret: int | None = None  # the secret roll the reveal screen asks about
    refused: int = 0  # tries refused at the throw waiting now
    # The journal's length and the dice read so far when they were counted: a new
    # step, or the next throw of a roll, starts the count again.
    refused_at: tuple[int, int] = (-1, -1)
    games: tuple[ScenarioChoice, ...] = ()  # the list of games to start, as shown
    picked: Picked | None = None  # the game the confirmation asks about

    @property
    def result(self) -> Screen | None:
        """The screen waiting to be read (dismissed by any button), if any."""
        return self.results[0] if self.results else None

    @result.setter
    def result(self, screen: Screen | None) -> None:
        self.results = [] if screen is None else [screen]


def hidden_secret(session: GameSession, ui: UiState) -> SecretRoll | None:
    """The secret roll the reveal screen asks about, while it is still hidden."""
    return next((s for s in session.record.secrets
                 if s.index == ui.secret and not s.revealed), None)
