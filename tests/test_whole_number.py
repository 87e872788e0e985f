"""``whole_number``: the one argparse type of every count or index a command takes
(``fastmine solve -n``, ``fastmine records --top``, the baselines' game counts), with
one wording everywhere.  (The training example keeps to the public API: it has its own
check, with the same words, tested in tests/env/test_env_example.py.)"""

from __future__ import annotations

import argparse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastmine._validate import whole_number
from fastmine.cli import main as fastmine_main


def reference(text: str, lo: int, hi: int | None) -> int | None:
    """The number ``text`` writes, or None: ASCII digits, an optional sign, and
    either Python's single underscores between digits or commas between groups
    of three; surrounding blanks allowed.  Slow and plain on purpose."""
    t = text.strip()
    sign = 1
    if t[:1] in ("+", "-"):
        sign, t = (-1 if t[0] == "-" else 1), t[1:]

    def digits(s: str) -> bool:
        return s != "" and all(ch in "0123456789" for ch in s)

    if "," in t:
        groups = t.split(",")
        if not (1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])
                and all(digits(g) for g in groups)):
            return None
        plain = "".join(groups)
    else:
        parts = t.split("_")
        if not all(digits(p) for p in parts):
            return None
        plain = "".join(parts)
    if len(plain) > 40:
        return None
    n = sign * int(plain)
    if n < lo or (hi is not None and n > hi):
        return None
    return n


@pytest.mark.parametrize("text", ["x", "", " ", "1.5", "1e3", "0", "-3", "True", "False",
                                  "0x10", "1,0", "1,0000", "_1", "1__0", "1_", "12 3", "٣",
                                  "１２", "nan", "inf", "9" * 41, "9" * 5000, "-" + "9" * 5000])
def test_bad_strings_are_refused_in_the_one_wording(text):
    with pytest.raises(argparse.ArgumentTypeError) as exc:
        whole_number(1)(text)
    message = str(exc.value)
    assert message.startswith("expected a whole number of at least 1, got ")
    assert len(message) < 100           # a 5000-digit number is not echoed back whole


def test_a_huge_number_is_named_by_its_length_not_printed():
    with pytest.raises(argparse.ArgumentTypeError,
                       match=r"^expected a whole number of at least 1, got a 5,000-digit number$"):
        whole_number(1)("9" * 5000)


@pytest.mark.parametrize("text, n", [("1", 1), ("+7", 7), (" 25 ", 25), ("007", 7),
                                     ("1,000", 1000), ("100,000", 100_000), ("1_000", 1000),
                                     (str(2**64 - 1), 2**64 - 1)])
def test_good_strings_give_their_number(text, n):
    assert whole_number(1)(text) == n


def test_the_bounds_are_in_the_message_and_inclusive():
    counts = whole_number(1, 10**6)
    assert counts("1") == 1 and counts("1,000,000") == 10**6
    for text in ("0", "1000001", str(2**64)):
        with pytest.raises(argparse.ArgumentTypeError) as exc:
            counts(text)
        assert str(exc.value) == f"expected a whole number from 1 to 1,000,000, got {text!r}"
    assert whole_number(0)("0") == 0
    with pytest.raises(argparse.ArgumentTypeError, match=r"^expected a whole number of at least 0, got '-1'$"):
        whole_number(0)("-1")


@given(st.text(alphabet=st.sampled_from("0123456789+-_, .e٣x"), max_size=50),
       st.integers(-5, 5), st.one_of(st.none(), st.integers(5, 10**30)))
def test_it_agrees_with_a_plain_reading(text, lo, hi):
    expected = reference(text, lo, hi)
    parse = whole_number(lo, hi)
    if expected is None:
        with pytest.raises(argparse.ArgumentTypeError):
            parse(text)
    else:
        assert parse(text) == expected


@given(st.integers(0, 10**39))
def test_every_number_reads_back_however_it_is_grouped(n):
    parse = whole_number(0)
    assert parse(str(n)) == parse(f"{n:,}") == parse(f"{n:_}") == n


def _usage_error(run, argv, capsys) -> str:
    with pytest.raises(SystemExit) as exit_:
        run(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def _solve(argv: list[str]) -> object:
    return fastmine_main(["solve", *argv])


def _baselines(argv: list[str]) -> object:
    pytest.importorskip("gymnasium")
    from fastmine.env.baselines import main

    return main(argv)


@pytest.mark.parametrize("run, option", [(_solve, "-n"), (_solve, "--chunk"),
                                         (_baselines, "--auto-games")])
@pytest.mark.parametrize("value", ["x", "1.5", "0", "-3", "True", "9" * 5000])
def test_the_commands_say_the_same_words(run, option, value, capsys):
    with pytest.raises(argparse.ArgumentTypeError) as exc:
        whole_number(1)(value)
    err = _usage_error(run, [option, value], capsys)
    assert f": {exc.value}\n" in err and option in err
