"""User-facing errors: each says what was wrong and what to do about it."""


class CompanionError(Exception):
    """An error a referee or installer can fix; the CLI prints it without a traceback."""

    exit_code = 2


class ConfigError(CompanionError):
    """The config file is missing, unreadable or has a bad value."""


class HardwareError(CompanionError):
    """A device is missing or failed; the message names it and how to check it."""

    exit_code = 3


class JournalError(CompanionError):
    """The game journal cannot be opened or replayed."""
