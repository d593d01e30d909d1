"""gpiozero pin factories: the real one on a Pi, a recording mock elsewhere.

Every device is given its factory explicitly (never `Device.pin_factory`),
so tests and the demo leave no global state behind.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.errors import HardwareError


@dataclass(frozen=True)
class PwmEvent:
    """A change seen on a PWM pin: what a buzzer was told to do."""

    timestamp: float
    frequency: float | None
    duty: float


class RecordingPWMPin(MockPWMPin):  # type: ignore[misc]
    """A mock PWM pin that also records frequency changes, so tunes can be checked."""

    def __init__(self, factory: Any, info: Any) -> None:
        self.pwm_events: list[PwmEvent] = []
        super().__init__(factory, info)

    def _record(self) -> None:
        self.pwm_events.append(PwmEvent(time.monotonic(), self._frequency, float(self._state)))

    def _set_frequency(self, value: Any) -> None:
        super()._set_frequency(value)
        self._record()

    def _set_state(self, value: Any) -> None:
        super()._set_state(value)
        self._record()

    def clear_states(self) -> None:
        super().clear_states()
        self.pwm_events = []


def mock_factory() -> MockFactory:
    """A fresh mock factory whose pins can do PWM (TonalBuzzer needs it)."""
    return MockFactory(pin_class=RecordingPWMPin)


def pi_factory() -> Any:
    """gpiozero's own choice on a Pi (lgpio first on Bookworm), or a clear error."""
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except Exception as lgpio_error:  # lgpio absent or no /dev/gpiochip
        try:
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            return RPiGPIOFactory()
        except Exception:
            raise HardwareError(
                f"no GPIO available ({lgpio_error}); on a Raspberry Pi install the "
                "'pi' extra and add the user to the gpio group, elsewhere run with "
                "COMPANION_HW=sim"
            ) from None
