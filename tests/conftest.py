"""Shared pytest configuration for the fastmine test suite."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from engine_strategies import FakeClock
from hypothesis import HealthCheck, settings
from mounts import tmpfs

# No deadlines: the bounds-checked debug build (FASTMINE_DEBUG=1, -O0) is several
# times slower, and timing is never what these tests check.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "thorough", deadline=None, max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def clock() -> FakeClock:
    """A fresh fake clock."""
    return FakeClock()


@pytest.fixture
def disk(tmp_path) -> Iterator[Path]:
    """A fresh tmpfs (it needs root: skipped otherwise), unmounted afterwards;
    ``mounts.remount_ro`` makes it read-only.  For the read-only records tests
    here and in tests/app."""
    with tmpfs(tmp_path / "disk", "16m") as mnt:
        yield mnt


def pytest_collection_modifyitems(config, items):
    """The long tests (marked ``slow``) first.  pytest-xdist hands the tests to its
    workers in this order, so a long test collected late (the sdist's, minutes)
    started when the other worker had little left, and the run waited for it alone."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable


def pytest_configure(config):
    # Also registered in pyproject.toml; repeated here for runs outside the
    # source tree (cibuildwheel's test-sources copies only tests/).
    config.addinivalue_line("markers", "slow: long-running tests (large boards, many games)")
