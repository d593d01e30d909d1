"""The session: the one owner of game state.

State is a pure fold of the journal's events (`replay`). `GameSession.submit`
checks an event against the rules first, then appends it to the journal, and
only then updates the state it returns: whatever the box shows or sounds has
already been made durable.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, is_dataclass, replace
from enum import Enum
from fractions import Fraction

from companion.errors import JournalError
from companion.rules.core import (
    AwaitRoll,
    ChipDrawn,
    Chosen,
    GameInput,
    Rolled,
    RulesError,
    Ruleset,
    Scenario,
    Step,
    Transition,
)
from companion.session.events import (
    ChipAccepted,
    ChoiceMade,
    DiceAccepted,
    Event,
    GameStarted,
    SecretRevealed,
    ThrowAccepted,
    Undone,
)
from companion.session.journal import Journal
from companion.session.scenario_files import parse_scenario


@dataclass(frozen=True)
class SecretRoll:
    index: int  # counts the game's rolls, from 0
    reason: str
    dice: tuple[int, ...]
    log: tuple[str, ...]
    revealed: bool = False


@dataclass(frozen=True)
class Played:
    """One applied game input and what it did, kept so undo can step back."""

    given: GameInput
    before: object
    transition: Transition
    secret: bool


@dataclass(frozen=True)
class GameRecord:
    system: str
    scenario: Scenario
    state: object
    played: tuple[Played, ...] = ()
    secrets: tuple[SecretRoll, ...] = ()
    events: int = 0  # journal events folded in, undo and reveals included
    rolls: int = 0
    # The throws read so far of the roll waiting now, when it is thrown in several;
    # each in the order its dice were thrown.
    throws: tuple[tuple[int, ...], ...] = ()
    log: tuple[str, ...] = field(default=(), compare=False)
    # The scenario as the game was started with it, so that the box can start the same
    # game again with no file at hand.
    scenario_toml: str = ""
    scenario_name: str = ""

    def fingerprint(self) -> str:
        """A digest of the game state, to compare a rebuilt game with a replay.

        Built from a canonical form, not from repr(): a set's repr follows the
        process's string hash seed, so two processes holding the same state
        would otherwise disagree.
        """
        form = canonical((self.system, self.state, self.secrets, self.throws))
        return hashlib.sha256(repr(form).encode()).hexdigest()


def canonical(value: object) -> object:
    """The value as nested tuples of plain scalars, independent of hash order."""
    if value is None or isinstance(value, bool | int | float | str | Fraction):
        return value
    if isinstance(value, Enum):
        return (type(value).__name__, value.name)
    if is_dataclass(value) and not isinstance(value, type):
        return (
            type(value).__name__,
            tuple((f.name, canonical(getattr(value, f.name))) for f in fields(value)),
        )
    if isinstance(value, tuple | list):
        return tuple(canonical(item) for item in value)
    if isinstance(value, set | frozenset):
        return ("set", tuple(sorted((canonical(item) for item in value), key=repr)))
    if isinstance(value, dict):
        pairs = ((canonical(k), canonical(v)) for k, v in value.items())
        return ("dict", tuple(sorted(pairs, key=repr)))
    raise TypeError(f"game state holds a {type(value).__name__}, which has no canonical form")


def to_game_input(event: Event) -> GameInput | None:
    if isinstance(event, ChipAccepted):
        return ChipDrawn(event.chip)
    if isinstance(event, ChoiceMade):
        return Chosen(event.key)
    if isinstance(event, DiceAccepted):
        return Rolled(event.dice)
    return None


def apply(
    record: GameRecord | None, event: Event, ruleset: Ruleset | None = None
) -> tuple[GameRecord, Transition | None]:
    """Fold one event into the record. RulesError if it does not fit (nothing changes)."""
    if isinstance(event, GameStarted):
        if record is not None:
            raise RulesError("a game is already under way in this journal")
        found, scenario = parse_scenario(event.scenario_toml, event.scenario_name or "scenario")
        return GameRecord(found.name, scenario, found.start(scenario), events=1,
                          scenario_toml=event.scenario_toml,
                          scenario_name=event.scenario_name), None
    if record is None:
        raise RulesError("no game has been started; run 'companion new'")
    if ruleset is None:
        from companion.rules import get_ruleset

        ruleset = get_ruleset(record.system)
    if isinstance(event, Undone):
        if record.throws:
            return replace(record, throws=record.throws[:-1], events=record.events + 1), None
        if not record.played:
            raise RulesError("nothing to undo")
        last = record.played[-1]
        secrets = record.secrets
        rolls = record.rolls
        if isinstance(last.given, Rolled):
            rolls -= 1
            secrets = tuple(s for s in secrets if s.index != rolls)
        return replace(
            record,
            state=last.before,
            played=record.played[:-1],
            secrets=secrets,
            rolls=rolls,
            events=record.events + 1,
        ), None
    if isinstance(event, SecretRevealed):
        if not any(s.index == event.roll for s in record.secrets):
            raise RulesError(f"no secret roll number {event.roll}")
        secrets = tuple(
            replace(s, revealed=True) if s.index == event.roll else s for s in record.secrets
        )
        return replace(record, secrets=secrets, events=record.events + 1), None
    step = ruleset.next_step(record.state)
    if isinstance(event, ThrowAccepted):
        if not isinstance(step, AwaitRoll):
            raise RulesError("a throw of dice read while no roll is waiting")
        thrown = sum(map(len, record.throws)) + len(event.dice)
        if not event.dice or thrown >= step.request.dice_count:
            raise RulesError(f"a throw of {len(event.dice)} dice does not leave part of "
                             f"the roll ({step.request.summary()}) still to throw")
        return replace(record, throws=(*record.throws, event.dice),
                       events=record.events + 1), None
    given = to_game_input(event)
    assert given is not None
    transition = ruleset.advance(record.state, given)
    secret = isinstance(step, AwaitRoll) and step.request.secret
    secrets = record.secrets
    rolls = record.rolls
    if isinstance(given, Rolled):
        if secret:
            assert isinstance(step, AwaitRoll)
            secrets = (*secrets, SecretRoll(rolls, step.request.reason, given.dice, transition.log))
        rolls += 1
    played = Played(given, record.state, transition, secret)
    return replace(
        record,
        state=transition.state,
        played=(*record.played, played),
        secrets=secrets,
        rolls=rolls,
        events=record.events + 1,
        throws=(),
    ), transition


def replay(events: Iterable[Event]) -> GameRecord:
    """The game as the events leave it; JournalError if they do not fit the rules."""
    record: GameRecord | None = None
    for number, event in enumerate(events, start=1):
        try:
            record, _ = apply(record, event)
        except RulesError as exc:
            raise JournalError(
                f"journal event {number} ({type(event).__name__}) does not fit the game: {exc}"
            ) from None
    if record is None:
        raise JournalError("the journal holds no game; start one with 'companion new'")
    return record


def replay_journal(journal: Journal) -> GameRecord:
    """`replay` of every event in the journal, its errors naming the file."""
    try:
        return replay(entry.event for entry in journal.entries())
    except JournalError as exc:
        if str(journal.path) in str(exc):
            raise
        raise JournalError(f"{journal.path}: {exc}") from None


class GameSession:
    """The running game, journaled. Single-threaded: only the session loop calls it."""

    def __init__(self, journal: Journal, record: GameRecord) -> None:
        self.journal = journal
        self.record = record

    @classmethod
    def resume(cls, journal: Journal) -> GameSession:
        return cls(journal, replay_journal(journal))

    @classmethod
    def new(cls, journal: Journal, scenario_toml: str, scenario_name: str = "") -> GameSession:
        if not journal.is_empty():
            raise JournalError(
                f"{journal.path} already holds a game; use 'companion run' to resume it or "
                "'companion new --force' to archive it and start again"
            )
        event = GameStarted("", scenario_toml, scenario_name)
        record, _ = apply(None, event)
        journal.append(replace(event, system=record.system))
        return cls(journal, record)

    @property
    def ruleset(self) -> Ruleset:
        from companion.rules import get_ruleset

        return get_ruleset(self.record.system)

    @property
    def step(self) -> Step:
        return self.ruleset.next_step(self.record.state)

    def submit(self, event: Event) -> Transition | None:
        """Check, journal, then apply. RulesError leaves journal and state untouched."""
        record, transition = apply(self.record, event, self.ruleset)
        self.journal.append(event)
        self.record = record
        return transition

    def describe(self) -> tuple[str, ...]:
        return self.ruleset.describe(self.record.state)
