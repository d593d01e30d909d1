"""Which unit and side names take a plural verb (companion/rules/grammar.py), row by row,
with the names the five example scenarios and their variants use."""

from __future__ import annotations

import pytest

from companion.rules.grammar import agree, plural_name


@pytest.mark.parametrize(("name", "plural"), [
    ("Oasis Raiders", True),
    ("Spahis", True),
    ("Camel Men", True),
    ("Ouled Riflemen", True),
    ("Hill Clansmen", True),
    ("Jezail Men", True),
    ("Lancers", True),
    ("Ghazis", True),
    ("Arabs", True),
    ("Tirailleurs", True),
    ("British", True),
    ("Besiegers", True),
    ("Raiders'", True),
    ("Tuareg Band", False),
    ("Legion 2", False),
    ("Desert Horse", False),
    ("Relief 3", False),
    ("Maxim", False),
    ("Col Ross", False),
    ("Marabout Yunus", False),
    ("1st Section", False),
    ("Hotchkiss MG", False),
    ("Marabout's Warband", False),
    ("Camel Corps", False),
    ("Legion", False),
    ("Foot A Coy", False),
    ("Mountain Gun", False),
    ("Fortress", False),
    ("Garrison", False),
    ("", False),
])
def test_a_name_is_plural_by_its_last_word(name: str, plural: bool) -> None:
    assert plural_name(name) is plural
    assert agree(name, "shoots", "shoot") == f"{name} {'shoot' if plural else 'shoots'}"


def test_a_single_person_takes_a_singular_verb_whatever_his_name() -> None:
    assert agree("Col Rivers", "joins", "join", one=True) == "Col Rivers joins"
    assert agree("Camel Men", "joins", "join", one=True) == "Camel Men joins"
