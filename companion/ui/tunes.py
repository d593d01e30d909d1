"""Short, distinct buzzer tunes, one per thing the table must notice.

Each is under a second so it never delays the next draw; rising phrases are
good news, falling ones bad, and the error is a low double buzz nobody mistakes.
"""

from __future__ import annotations

from companion.ports.sounder import Note

TUNES: dict[str, tuple[Note, ...]] = {
    "chip": (("E5", 0.08), ("A5", 0.12)),
    "dice": (("C5", 0.06), ("E5", 0.06), ("G5", 0.1)),
    "pin": (("G4", 0.15), ("D4", 0.2)),
    "jam": (("A4", 0.05), (None, 0.05), ("A4", 0.05), (None, 0.05), ("A4", 0.05)),
    "berserk": (("A5", 0.05), ("E5", 0.05), ("A5", 0.05), ("E5", 0.05), ("A5", 0.2)),
    "death": (("E4", 0.2), ("C4", 0.2), ("A3", 0.35)),
    "resolve_failed": (("G4", 0.12), ("F4", 0.12), ("E4", 0.12), ("D4", 0.3)),
    "turn_end": (("C5", 0.1), ("G4", 0.15)),
    "game_over": (("C5", 0.15), ("E5", 0.15), ("G5", 0.15), ("C6", 0.4)),
    "warning": (("A4", 0.1), (None, 0.06), ("A4", 0.1)),
    "error": (("A3", 0.18), (None, 0.06), ("A3", 0.3)),
    "secret": (("D5", 0.05),),
    "new_game": (("G4", 0.1), ("C5", 0.1), ("E5", 0.1), ("G5", 0.25)),
}

# Which tune wins when one input has several cues: the most important first.
# The end of the turn is heard after whichever wins: see `pick_tunes`.
PRIORITY = (
    "error", "game_over", "resolve_failed", "death", "berserk", "jam", "pin",
    "turn_end", "warning", "chip", "dice", "secret", "new_game",
)


# Rules' effect and cue names -> the tune that announces them.
ALIASES: dict[str, str] = {
    "pinned": "pin",
    "jammed": "jam",
    "killed": "death",
    "dead": "death",
    "died": "death",
    "routed": "resolve_failed",
    "broken": "resolve_failed",
    "morale_failed": "resolve_failed",
}


def tunes_for(cues: frozenset[str] | set[str]) -> set[str]:
    """The tune names that a transition's cues and outcome effects call for."""
    return {ALIASES.get(cue, cue) for cue in cues} & TUNES.keys()


def pick_tune(cues: frozenset[str] | set[str]) -> str | None:
    for name in PRIORITY:
        if name in cues:
            return name
    return None


# Tunes played one after the other are named together: "death+turn_end".
THEN = "+"
_BETWEEN: Note = (None, 0.1)


def pick_tunes(cues: frozenset[str] | set[str]) -> str | None:
    """What one input plays: the tune of the most important thing that happened
    (PRIORITY), then, when the input also ended the turn, the end-of-turn notes,
    so a death on the last roll of a turn does not silence the turn's end. Game
    over is the end of the last turn and plays alone."""
    first = pick_tune(set(cues) - {"turn_end"})
    if "turn_end" in cues and first != "game_over":
        return THEN.join(filter(None, (first, "turn_end")))
    return first


def notes_of(name: str) -> tuple[Note, ...]:
    """The notes of a tune, or of tunes named together, with a short rest between."""
    out: list[Note] = []
    for part in name.split(THEN):
        out += [_BETWEEN] if out else []
        out += TUNES[part]
    return tuple(out)
