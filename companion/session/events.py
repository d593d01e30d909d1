"""What the journal records: the game-level inputs the session accepted.

Button navigation and raw tag repeats are not recorded; only events that change
the game are. Each has a stable JSON form so journals outlive code changes.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from companion.errors import JournalError


@dataclass(frozen=True)
class GameStarted:
    system: str
    scenario_toml: str  # the whole scenario, so a replay needs no other file
    scenario_name: str = ""


@dataclass(frozen=True)
class ChipAccepted:
    chip: str
    uid: str = ""  # the tag that was read; "" when the referee picked it by hand


@dataclass(frozen=True)
class ChoiceMade:
    key: str


@dataclass(frozen=True)
class DiceAccepted:
    dice: tuple[int, ...]
    source: str = "camera"  # "camera" | "manual" | "correction"


@dataclass(frozen=True)
class ThrowAccepted:
    """One throw of a roll thrown in several (more dice than the tray holds apart, or
    groups the camera cannot tell apart), read before the roll is whole: journaled so
    that a restart asks for the next throw, not the first again. The roll's
    `DiceAccepted` still holds all its dice once the last throw is in."""

    dice: tuple[int, ...]  # in the order thrown, not yet in the rules' order


@dataclass(frozen=True)
class Undone:
    """Take back the last game input, or the last throw of a roll not yet whole. The
    journal keeps the undone input too."""

    reason: str = "undo"


@dataclass(frozen=True)
class SecretRevealed:
    roll: int  # index of the secret roll among the game's rolls


# A new kind of event is added, never an old one changed: a journal written before it
# still replays.
Event = (GameStarted | ChipAccepted | ChoiceMade | DiceAccepted | ThrowAccepted | Undone
         | SecretRevealed)
EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (GameStarted, ChipAccepted, ChoiceMade, DiceAccepted, ThrowAccepted, Undone,
                SecretRevealed)
}


def encode(event: Event) -> tuple[str, str]:
    return type(event).__name__, json.dumps(asdict(event), sort_keys=True)


def decode(kind: str, payload: str) -> Event:
    cls = EVENT_TYPES.get(kind)
    if cls is None:
        raise JournalError(f"the journal holds an event of unknown type {kind!r}")
    try:
        fields = json.loads(payload)
        if cls in (DiceAccepted, ThrowAccepted):
            fields["dice"] = tuple(fields["dice"])
        event: Event = cls(**fields)
    except (ValueError, TypeError, KeyError) as exc:
        raise JournalError(f"a {kind} event in the journal cannot be read ({exc})") from None
    return event
