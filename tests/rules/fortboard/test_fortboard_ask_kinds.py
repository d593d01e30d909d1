"""`game.py` gathers the step modules' handlers by ask kind, and the kinds are persisted:
each has one question and one handler (the modules' import order: tests/rules/
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


def test_every_ask_kind_has_one_question_and_one_handler() -> None:
    # the menu's question is built by game.py itself
    assert set(game._CHOICE_HANDLERS) == CHOICE_KINDS
    assert set(game._CHOICE_ASKS) == CHOICE_KINDS - {"menu"}
    assert set(game._ROLL_HANDLERS) == set(game._ROLL_ASKS) == ROLL_KINDS
