"""Buttons and the rotary encoder, through gpiozero on real or mock pins.

Devices only post `Press` events to a callback (the session's queue); they
never touch game state. A press held for `long_press_seconds` is a long press
(the menu, or revealing a secret roll), decided on release from the clock so
the sim can press "long" without waiting.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gpiozero import Button, RotaryEncoder

BUTTONS = ("up", "down", "select", "back")


@dataclass(frozen=True)
class Press:
    button: str  # "up" | "down" | "select" | "back"
    long: bool = False


class Controls:
    def __init__(
        self,
        settings: Mapping[str, Any],
        pin_factory: Any,
        on_press: Callable[[Press], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.on_press = on_press
        self.clock = clock
        self.long_press = float(settings["long_press_seconds"])
        bounce = float(settings["bounce_seconds"]) or None
        self.pins: dict[str, int] = {}
        self.devices: list[Any] = []
        kind = settings["kind"]
        if kind in ("buttons", "both"):
            for name in BUTTONS:
                pin = int(settings[f"{name}_pin"])
                self._button(name, pin, bounce, pin_factory)
        if kind in ("encoder", "both"):
            a, b = int(settings["encoder_a_pin"]), int(settings["encoder_b_pin"])
            encoder = RotaryEncoder(a, b, bounce_time=bounce, pin_factory=pin_factory)
            encoder.when_rotated_clockwise = lambda: self.on_press(Press("down"))
            encoder.when_rotated_counter_clockwise = lambda: self.on_press(Press("up"))
            self.devices.append(encoder)
            self.pins["encoder_a"], self.pins["encoder_b"] = a, b
            # The encoder's push switch selects; held long it opens the menu.
            if kind == "encoder":
                self._button("select", int(settings["encoder_push_pin"]), bounce, pin_factory)

    def _button(self, name: str, pin: int, bounce: float | None, pin_factory: Any) -> None:
        button = Button(pin, pull_up=True, bounce_time=bounce, pin_factory=pin_factory)
        pressed_at: list[float] = []

        def pressed() -> None:
            pressed_at[:] = [self.clock()]

        def released() -> None:
            if not pressed_at:
                return
            held = self.clock() - pressed_at.pop()
            self.on_press(Press(name, long=held >= self.long_press))

        button.when_pressed = pressed
        button.when_released = released
        self.devices.append(button)
        self.pins[name] = pin

    def close(self) -> None:
        for device in self.devices:
            device.close()


class FakeClock:
    """A clock the sim advances by hand, so long presses cost no real time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class SimPresser:
    """Presses buttons by driving the mock pins, exactly as a finger would."""

    def __init__(self, controls: Controls, pin_factory: Any, clock: FakeClock) -> None:
        self.controls = controls
        self.factory = pin_factory
        self.clock = clock

    def press(self, button: str, long: bool = False) -> None:
        if button not in self.controls.pins:
            raise ValueError(f"no {button!r} control; have {', '.join(self.controls.pins)}")
        pin = self.factory.pin(self.controls.pins[button])
        pin.drive_low()
        self.clock.now += (self.controls.long_press + 0.1) if long else 0.05
        pin.drive_high()
        self.clock.now += 0.05

    def turn(self, clicks: int) -> None:
        """Turn the encoder: positive clockwise (down), negative (up)."""
        a = self.factory.pin(self.controls.pins["encoder_a"])
        b = self.factory.pin(self.controls.pins["encoder_b"])
        first, second = (a, b) if clicks > 0 else (b, a)
        for _ in range(abs(clicks)):
            first.drive_low()
            second.drive_low()
            first.drive_high()
            second.drive_high()


KEYS = {
    "w": "up",
    "k": "up",
    "s": "down",
    "j": "down",
    "\r": "select",
    "\n": "select",
    " ": "select",
    "\x7f": "back",
    "b": "back",
    "q": "back",
}


def key_to_press(key: str) -> Press | None:
    """Keyboard stand-in for the buttons: w/s or j/k move, enter selects,
    backspace goes back; upper case is a long press (M opens the menu)."""
    if key == "m" or key == "M":
        return Press("select", long=True)
    name = KEYS.get(key.lower())
    if name is None:
        return None
    return Press(name, long=key.isupper())
