"""`game.py` gathers the step modules' handlers by ask kind, and the kinds are persisted:
each is one stage, its question and its handler (the modules' import order: tests/rules/
test_play_layers.py)."""

from __future__ import annotations

from companion.rules.fortboard import game

# An ask's kind is persisted: a journaled game's state holds a stack of asks, rebuilt
# by replaying its inputs through the handlers these kinds name.
CHOICE_KINDS = {
    "menu", "from", "dest", "target", "range", "reaction", "cat_target", "space_hit", "aim",
    "weapon_target", "survivor_place",
}
ROLL_KINDS = {
    "replace_roll", "missile_roll", "structure_roll", "wound_roll", "interior_roll", "gun_roll",
    "weapon_roll", "survivors_roll", "douse_roll", "melee_roll",
}


def test_every_ask_kind_is_a_stage_of_the_game() -> None:
    assert set(game._CHOICES) == CHOICE_KINDS
    assert set(game._ROLLS) == ROLL_KINDS
