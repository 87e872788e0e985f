"""The few Kivy objects the app's own code is typed against.

Kivy ships no type information, so mypy sees every Kivy object as ``Any``.
Where the app keeps one of them and calls it later, the protocol here says
what it relies on; modules import it under ``TYPE_CHECKING`` only, so
nothing here is loaded at run time.
"""

from __future__ import annotations

from typing import Protocol


class ClockEvent(Protocol):
    """A scheduled callback (what ``Clock.schedule_once`` and
    ``Clock.schedule_interval`` return)."""

    def cancel(self) -> None:
        """Stop it from being called (again)."""
