"""Tunes as the buzzer's mock PWM pin saw them."""

from __future__ import annotations

import pytest
from uirig import tones, written

from companion.ports.pins import mock_factory
from companion.ports.sounder import Sounder, make_buzzer
from companion.ui.tunes import PRIORITY, TUNES, notes_of, pick_tune, pick_tunes, tunes_for

PIN = 18
NAMED = ("chip", "dice", "pin", "jam", "berserk", "death", "resolve_failed", "error")


def played(name: str, mute: bool = False) -> list[float]:
    """Frequencies the pin was driven at (duty > 0), in order, for one tune."""
    factory = mock_factory()
    sounder = Sounder(make_buzzer(PIN, factory), mute=mute, sleep=lambda s: None,
                      background=False)
    pin = factory.pin(PIN)
    pin.clear_states()
    sounder.play(name, TUNES[name])
    events = list(pin.pwm_events)
    sounder.close()
    return tones(events)


@pytest.mark.parametrize("name", sorted(TUNES))
def test_tune_plays_its_notes(name: str) -> None:
    # Adjacent equal notes are one entry; notes separated by a rest stay separate.
    assert [round(f) for f in played(name)] == [round(f) for f in written(name)]
    assert sum(seconds for _, seconds in TUNES[name]) <= 1.0  # never delays the next draw


def test_the_issue_tunes_exist_and_differ() -> None:
    for name in NAMED:
        assert name in TUNES
    heard = {name: tuple(round(f) for f in played(name)) for name in TUNES}
    assert len(set(heard.values())) == len(heard), heard
    assert len({TUNES[n] for n in TUNES}) == len(TUNES)


def test_mute_drives_no_pwm() -> None:
    for name in NAMED:
        assert played(name, mute=True) == []


@pytest.mark.parametrize(("cues", "heard"), [
    ({"dice", "turn_end"}, "dice+turn_end"),
    ({"dice", "killed", "pinned", "turn_end"}, "death+turn_end"),  # a death on the last roll
    ({"turn_end"}, "turn_end"),  # a choice that ends the turn
    ({"game_over", "turn_end", "killed"}, "game_over"),  # the last turn's end says it all
    ({"dice", "killed"}, "death"),
    ({"hit_cancelled"}, None),
])
def test_one_input_plays_what_matters_most_then_the_turn_s_end(
        cues: set[str], heard: str | None) -> None:
    assert pick_tunes(tunes_for(cues)) == heard


def test_tunes_named_together_play_one_after_the_other_on_the_pin() -> None:
    factory = mock_factory()
    sounder = Sounder(make_buzzer(PIN, factory), sleep=lambda s: None, background=False)
    factory.pin(PIN).clear_states()
    sounder.play("death+turn_end", notes_of("death+turn_end"))
    heard = [round(f) for f in tones(list(factory.pin(PIN).pwm_events))]
    sounder.close()
    assert heard == [round(f) for f in written("death") + written("turn_end")]
    assert sum(seconds for _, seconds in notes_of("death+turn_end")) <= 1.2


def test_effect_names_map_to_tunes() -> None:
    assert pick_tune(tunes_for({"dice", "pinned"})) == "pin"
    assert pick_tune(tunes_for({"dice", "jammed", "killed"})) == "death"
    assert pick_tune(tunes_for({"routed"})) == "resolve_failed"
    assert pick_tune(tunes_for({"hit_cancelled"})) is None
    assert set(PRIORITY) == set(TUNES)
