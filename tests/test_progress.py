"""fastmine.records.progress: the series of the records plots, checked against plain references."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastmine.records import GameRecord
from fastmine.records.progress import last_won_by_board, progress, running_median, series

values = st.lists(st.floats(0.1, 1000.0, allow_nan=False), max_size=40)


@settings(max_examples=60, deadline=None)
@given(values, st.integers(1, 12))
def test_running_median_is_the_median_of_each_window(vals, window):
    expected = [statistics.median(vals[max(0, i - window + 1):i + 1]) for i in range(len(vals))]
    assert running_median(vals, window) == pytest.approx(expected)


@pytest.mark.parametrize("window", [0, -1, 2.5, True, None])
def test_running_median_refuses_a_window_that_is_not_a_count(window):
    with pytest.raises(ValueError, match="whole number"):
        running_median([1.0], window)


games_st = st.lists(st.tuples(st.booleans(), st.floats(0.0, 500.0), st.one_of(st.none(), st.integers(1, 300)),
                              st.booleans()), max_size=30)


def _records(spec):
    return [GameRecord.make(9, 9, 10, won=w, time=t, bbbv=b, assisted=a) for w, t, b, a in spec]


@settings(max_examples=60, deadline=None)
@given(games_st, st.one_of(st.none(), st.integers(1, 40)), st.integers(1, 10))
def test_progress_matches_a_plain_count(spec, last, window):
    recs = _records(spec)
    p = progress(recs, last, window)
    kept = recs if last is None else recs[len(recs) - min(last, len(recs)):]
    won = [r for r in kept if r.won]
    assert (p.played, p.won) == (len(kept), len(won))
    for s, attr in ((p.time, "time"), (p.rate, "bbbv_per_second")):
        pts = [(i + 1, getattr(r, attr)) for i, r in enumerate(won)
               if getattr(r, attr) is not None and math.isfinite(getattr(r, attr))]
        assert list(zip(s.x, s.values, strict=True)) == pts
        assert s.median == pytest.approx(
            [statistics.median(s.values[max(0, i - window + 1):i + 1]) for i in range(len(s))])
        assert [getattr(r, attr) for r in s.records] == s.values
    times = [r.time for r in won]
    rates = [r.bbbv_per_second for r in won  # a win in no time has no finite rate
             if r.bbbv_per_second is not None and math.isfinite(r.bbbv_per_second)]
    assert p.best_time == (min(times) if times else None)
    assert p.median_time == (pytest.approx(statistics.median(times)) if times else None)
    assert p.best_rate == (max(rates) if rates else None)
    assert p.median_rate == (pytest.approx(statistics.median(rates)) if rates else None)
    assert p.win_percent == (100.0 * len(won) / len(kept) if kept else None)


def test_a_win_in_no_time_has_a_time_but_no_rate():
    p = progress(_records([(True, 0.0, 5, False), (True, 4.0, 8, False)]))
    assert p.time.x == [1, 2] and p.rate.x == [2] and p.rate.values == [2.0]


@pytest.mark.parametrize("last", [0, -3, 1.5, True])
def test_progress_refuses_a_count_of_games_that_is_not_one(last):
    with pytest.raises(ValueError, match="whole number"):
        progress([], last)


def test_series_names_what_it_can_follow():
    with pytest.raises(ValueError, match="time"):
        series([], "clicks")


def test_last_won_by_board_keeps_each_boards_last_wins_in_order():
    recs = [GameRecord.make(9, 9, 10, won=i % 3 != 0, time=float(i)) for i in range(12)]
    recs.insert(4, GameRecord.make(16, 16, 40, won=True, time=50.0))
    recs.append(GameRecord.make(16, 16, 40, won=True, time=60.0, assisted=True))
    out = last_won_by_board(recs, 3)
    assert list(out) == ["beginner", "intermediate"]
    assert [r.time for r in out["beginner"]] == [8.0, 10.0, 11.0]
    assert [r.time for r in out["intermediate"]] == [50.0]
    assert [r.time for r in last_won_by_board(recs, 3, include_assisted=True)["intermediate"]] == [50.0, 60.0]
