"""Verbs that agree with unit and side names in the play-by-play.

Scenarios name the units and sides, and many names are plural ("Oasis Raiders",
"Jezail Men", "Spahis", "British") while others are not ("Foot A Coy", "Tuareg
Horse", "Camel Corps", "Legion"). The referee reads the log and the screen aloud,
so "Lancers declare a charge" must not come out as "Lancers declares". Every rule
system asks here, so that one name reads the same way in all of them.
"""

from __future__ import annotations

# Names of peoples that take a plural verb without ending in -s: "the British go first".
_PLURAL_PEOPLES = frozenset(
    {"british", "english", "irish", "scottish", "welsh", "french", "dutch", "chinese",
     "japanese", "portuguese", "sudanese", "people", "police"}
)  # fmt: skip

# Endings of -s words that are singular: "Pass", "Marabout Yunus", "Marabout's", "Camel Corps".
_SINGULAR_S = ("ss", "us", "'s", "corps")


def plural_name(name: str) -> bool:
    """Whether a name reads as plural, judged by its last word: one ending in -s (but
    see `_SINGULAR_S`) or in -men, or naming a people ("British")."""
    words = name.split()
    if not words:
        return False
    last = words[-1].lower().strip(".,'()")
    if last in _PLURAL_PEOPLES or last.endswith("men"):
        return True
    return last.endswith("s") and not last.endswith(_SINGULAR_S)


def agree(name: str, singular: str, plural: str, *, one: bool = False) -> str:
    """`name` followed by whichever verb phrase agrees with it. `one` marks a name that is
    a single person whatever its spelling (a commander: "Col Rivers")."""
    return f"{name} {plural if plural_name(name) and not one else singular}"
