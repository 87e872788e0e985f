"""Shared pytest configuration for the fastmine test suite."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# No deadlines: the bounds-checked debug build (FASTMINE_DEBUG=1, -O0) is several
# times slower, and timing is never what these tests check.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "thorough", deadline=None, max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


class FakeClock:
    """A clock for Game(clock=...): time moves only when a test says so."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass."""
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    """A fresh fake clock."""
    return FakeClock()
