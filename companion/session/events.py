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
class Undone:
    """Take back the last game input. The journal keeps the undone input too."""

    reason: str = "undo"


@dataclass(frozen=True)
class SecretRevealed:
    roll: int  # index of the secret roll among the game's rolls


Event = GameStarted | ChipAccepted | ChoiceMade | DiceAccepted | Undone | SecretRevealed
EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (GameStarted, ChipAccepted, ChoiceMade, DiceAccepted, Undone, SecretRevealed)
}


def encode(event: Event) -> tuple[str, str]:
    return type(event).__name__, json.dumps(asdict(event), sort_keys=True)


def decode(kind: str, payload: str) -> Event:
    cls = EVENT_TYPES.get(kind)
    if cls is None:
        raise JournalError(f"the journal holds an event of unknown type {kind!r}")
    try:
        fields = json.loads(payload)
        if cls is DiceAccepted:
            fields["dice"] = tuple(fields["dice"])
        event: Event = cls(**fields)
    except (ValueError, TypeError, KeyError) as exc:
        raise JournalError(f"a {kind} event in the journal cannot be read ({exc})") from None
    return event
