"""The buzzer: gpiozero TonalBuzzer, on real pins or on a recording mock pin."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from gpiozero import TonalBuzzer
from gpiozero.tones import Tone

log = logging.getLogger(__name__)

Note = tuple[str | None, float]  # (note name like "A4" or None for a rest, seconds)


class Sounder:
    """Plays short tunes without blocking the session.

    On the Pi a tune plays in a background thread; a new tune cuts the old one
    short. In sim the sleep is injected so the demo and tests run instantly
    while the mock pin still records every note.
    """

    def __init__(
        self,
        buzzer: TonalBuzzer,
        *,
        mute: bool = False,
        octave_shift: int = 0,
        sleep: Callable[[float], None] = time.sleep,
        background: bool = True,
    ) -> None:
        self.buzzer = buzzer
        self.mute = mute
        self.octave_shift = octave_shift
        self.sleep = sleep
        self.background = background
        self.played: list[str] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def play(self, name: str, notes: Sequence[Note]) -> None:
        self.played.append(name)
        if self.mute:
            return
        self._cancel()
        if self.background:
            self._stop = threading.Event()
            self._thread = threading.Thread(
                target=self._play, args=(notes, self._stop), name=f"tune-{name}", daemon=True
            )
            self._thread.start()
        else:
            self._play(notes, threading.Event())

    def _play(self, notes: Sequence[Note], stop: threading.Event) -> None:
        try:
            for note, seconds in notes:
                if stop.is_set():
                    break
                if note is None:
                    self.buzzer.stop()
                else:
                    self.buzzer.play(self._shift(note))
                if self.sleep is time.sleep:
                    # real time: a new tune wakes this one at once instead of joining
                    # it for up to a note's length on the thread that reads the buttons
                    stop.wait(seconds)
                else:
                    self.sleep(seconds)
        except Exception:  # a failing buzzer must never stop the game
            log.warning("buzzer failed while playing", exc_info=True)
        finally:
            try:
                self.buzzer.stop()
            except Exception:
                log.debug("buzzer stop failed", exc_info=True)

    def _shift(self, note: str) -> Tone:
        tone = Tone(note)
        if self.octave_shift:
            tone = Tone.from_frequency(tone.frequency * 2.0**self.octave_shift)
        return tone

    def wait(self, timeout: float = 5.0) -> None:
        """Let the current tune finish (tests; shutting down politely)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _cancel(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            self._stop.set()
            self._thread.join(timeout=1.0)

    def close(self) -> None:
        self._cancel()
        try:
            self.buzzer.close()
        except Exception:
            log.debug("buzzer close failed", exc_info=True)


#: How far the buzzer's range reaches either side of A4: the tunes (A3..C6) moved by
#: any allowed `[sounder] octave_shift` (-2..2) stay inside A0..A8. A note outside the
#: range raises, and a tune would fall silent.
BUZZER_OCTAVES = 4


def make_buzzer(pin: int, pin_factory: Any) -> TonalBuzzer:
    return TonalBuzzer(pin, mid_tone=Tone("A4"), octaves=BUZZER_OCTAVES,
                       pin_factory=pin_factory)
