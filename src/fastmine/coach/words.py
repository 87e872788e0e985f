"""The coach's words: its sentences on a game, on a move, after a move.

:func:`summary_lines` (the end of a game), :func:`remark` (the live coach,
after a move), :func:`describe` (one move of a replay) and :func:`tag` (a
replay's move list) speak like a friend, not a report ("You opened a cell that
was certainly a mine"), each sentence still exact.  They are English by
default; a front end that speaks another language passes :class:`Words` made
from its own catalog (the messages here are marked for extraction: every
``w.gettext`` and ``w.ngettext`` call), so the engine never depends on one.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterable
from typing import Any

from .verdicts import MARGIN, Category, Verdict, fatal

__all__ = ["ENGLISH", "MAX_LISTED", "Words", "describe", "remark", "summary", "summary_lines", "tag"]


def _short(v: float) -> str:
    """A percentage ``v`` in two significant digits at most (whole from 10 up)."""
    if v >= 10 or v == 0:
        return f"{v:.0f}"
    return f"{v:.2g}" if v < 1 else f"{v:.1f}".rstrip("0").rstrip(".")


def _hundred(p: float) -> float:
    """``p`` in percent, to 9 decimals: two counts of the same odds may differ
    in the last bits of their floats (an exact 1/8 as 0.12500000000000003),
    and a half percent must read the same either way (12%, not 13%)."""
    return round(p * 100, 9)


def _pct(p: float, other: float | None = None) -> str:
    """``p`` in percent, as short as it reads well, but never "100" for a risk
    short of certain (nor "0" above nothing), and, given ``other`` (the best
    risk a worse guess is set against), with the digits that tell them apart."""
    v = _hundred(p)
    text = _short(v)
    if text not in ("100", "0") and (other is None or text != _short(_hundred(other))):
        return text
    if abs(v - 100) <= 100 * MARGIN or v == 0:
        return text                 # certain (the counts are exact; the floats nearly)
    for digits in range(1, 7):      # 99.6, 99.96, ...; 20.4 against 20.2
        text = f"{v:.{digits}f}"
        if text != f"{100:.{digits}f}" and (other is None
                                            or text != f"{_hundred(other):.{digits}f}"):
            break
    return text.rstrip("0").rstrip(".")


def _certain(risk: float | None) -> bool:
    """A risk that is a certain mine (the counts are exact; the floats nearly)."""
    return risk is not None and risk >= 1.0 - MARGIN


_EARLY = (Category.EARLY_GUESS, Category.FORCED_EARLY)


def _best(v: Verdict) -> float:
    """The best risk a guess is set against: for one taken early, the best once
    the safe cells are open; else the best at the time."""
    if v.category in _EARLY and v.safe_play_best is not None:
        return v.safe_play_best
    return v.best_risk or 0.0


class Words:
    """How the coach's sentences are worded: English by default, or a translation.

    ``translations``: an object with ``gettext(message)`` and
    ``ngettext(singular, plural, n)`` whose catalog holds the coach's messages
    (a :class:`gettext.GNUTranslations`, as a front end loads it; the engine
    never loads a catalog itself); None: English as written here.
    ``decimal``: the decimal sign of the reader's language ("," in German).
    Every message is a whole sentence or clause with ``{name}`` placeholders,
    so a translation can order its words as its grammar wants.

    Parameters
    ----------
    translations : object, optional
        The catalog (see above); None for English.
    decimal : str
        The decimal sign.

    Examples
    --------
    >>> Words().pct(0.045)
    '4.5'
    >>> Words(decimal=",").pct(0.045)
    '4,5'
    """

    def __init__(self, translations: Any = None, decimal: str = ".") -> None:
        t = translations if translations is not None else gettext.NullTranslations()
        self.gettext: Callable[[str], str] = t.gettext
        self.ngettext: Callable[[str, str, int], str] = t.ngettext
        self.decimal = decimal

    def pct(self, p: float, other: float | None = None) -> str:
        """``p`` in percent, without the sign (see the sentences: "{risk}%").

        Parameters
        ----------
        p : float
            A probability, 0 to 1.
        other : float, optional
            A probability shown beside it: enough digits are given to tell the
            two apart.

        Returns
        -------
        str
            The percentage in the reader's digits, e.g. ``"4.5"``.
        """
        return self.num(_pct(p, other))

    def num(self, text: str) -> str:
        """A number written in English in the reader's digits.

        Parameters
        ----------
        text : str
            ``12.5``, ``50/33``, ``6-50``, ...

        Returns
        -------
        str
            The same with the reader's decimal sign.
        """
        return text.replace(".", self.decimal)


ENGLISH = Words()
"""The coach's own words (every function here defaults to them)."""


MAX_LISTED = 4
"""Risks of one kind the summary lists one by one ("50/33/25%"); more are
given as their range ("6-50%"), so a long game's line stays a line."""


def _risks(texts: list[str], values: list[float]) -> str:
    """Risks as the summary writes them: each (``texts``), or their range."""
    if len(texts) <= MAX_LISTED:
        return "/".join(texts)
    lo, hi = texts[values.index(min(values))], texts[values.index(max(values))]
    return lo if lo == hi else f"{lo}-{hi}"


def summary_lines(verdicts: Iterable[Verdict], words: Words = ENGLISH) -> list[str]:
    """The coach's sentences on a whole game, one a line: the guesses survived,
    the mistakes, the move that lost.

    Parameters
    ----------
    verdicts : iterable of Verdict
        The game's verdicts (:func:`analyze`).
    words : Words
        The reader's language (:data:`ENGLISH` by default).

    Returns
    -------
    list of str
        The sentences; one saying so for a game without a guess.

    Examples
    --------
    >>> v = [Verdict(0, "reveal", (0, 0), Category.FIRST_CLICK, 0.0, 0.0, None),
    ...      Verdict(1, "reveal", (2, 2), Category.AVOIDABLE_RISK, 0.2, 0.0, 3),
    ...      Verdict(2, "reveal", (2, 3), Category.AVOIDABLE_RISK, 0.5, 0.0, 2),
    ...      Verdict(3, "reveal", (4, 1), Category.AVOIDABLE_RISK, 1.0, 0.0, 3, False)]
    >>> for line in summary_lines(v):
    ...     print(line)
    2 guesses you did not need (20/50%): a safe cell was there each time.
    You opened a cell that was certainly a mine, while a safe cell was there.
    """
    vs = list(verdicts)
    w, lines = words, []
    for cat in (Category.FORCED_GUESS, Category.FORCED_EARLY, Category.AVOIDABLE_RISK,
                Category.EARLY_GUESS, Category.WORSE_GUESS):
        # The guesses survived (the one that lost is named apart, below); a
        # forced guess taken early counts with the forced guesses, and is
        # then said apart as no fault.
        kinds = (cat, Category.FORCED_EARLY) if cat is Category.FORCED_GUESS else (cat,)
        pairs = [(v.risk, _best(v)) for v in vs
                 if v.category in kinds and v.survived and v.risk is not None]
        if not pairs:
            continue
        n, took = len(pairs), [p for p, _ in pairs]
        risks, best = w.num(_risks([_pct(p) for p in took], took)), ""

        if cat is Category.FORCED_GUESS:
            text = w.ngettext("You survived {n} guess you had to make ({risks}%).",
                              "You survived {n} guesses you had to make ({risks}%).", n)
        elif cat is Category.FORCED_EARLY:
            text = w.ngettext("You took {n} forced guess early, as fast players do.",
                              "You took {n} forced guesses early, as fast players do.", n)
        elif cat is Category.EARLY_GUESS:
            risks = w.num(_risks([_pct(p, b) for p, b in pairs], took))
            best = w.num(_risks([_pct(b, p) for p, b in pairs], [b for _, b in pairs]))
            text = w.ngettext("{n} guess taken early ({risks}%): after the safe cells, the "
                              "safest cell would have had {best}%.",
                              "{n} guesses taken early ({risks}%): after the safe cells, the "
                              "safest cells would have had {best}%.", n)
        elif cat is Category.AVOIDABLE_RISK:
            text = w.ngettext("{n} guess you did not need ({risks}%): a safe cell was there.",
                              "{n} guesses you did not need ({risks}%): a safe cell was there "
                              "each time.", n)
        else:
            risks = w.num(_risks([_pct(p, b) for p, b in pairs], took))
            best = w.num(_risks([_pct(b, p) for p, b in pairs], [b for _, b in pairs]))
            text = w.ngettext("{n} guess riskier than it had to be ({risks}%, when the safest "
                              "cell had {best}%).",
                              "{n} guesses riskier than they had to be ({risks}%, when the safest "
                              "cells had {best}%).", n)
        lines.append(text.format(n=n, risks=risks, best=best))
    wrong = sum(v.category is Category.WRONG_FLAG for v in vs)
    if wrong:
        lines.append(w.ngettext("{n} flag on a cell with no mine.",
                                "{n} flags on cells with no mine.", wrong).format(n=wrong))
    skipped = sum(v.category is Category.NOT_ANALYSED and v.survived for v in vs)
    if skipped:
        lines.append(w.ngettext("{n} move the coach could not weigh (too much to count).",
                                "{n} moves the coach could not weigh (too much to count).",
                                skipped).format(n=skipped))
    lost = fatal(vs)
    if lost is not None:
        lines.append(_loss(lost, w))
    if not lines:
        lines.append(w.gettext("No guesses: every cell you opened was certainly safe."))
    return lines


def summary(verdicts: Iterable[Verdict], words: Words = ENGLISH) -> str:
    """The coach's word on a whole game, on one line (:func:`summary_lines` joined).

    Parameters
    ----------
    verdicts : iterable of Verdict
        The game's verdicts (:func:`analyze`).
    words : Words
        The reader's language (:data:`ENGLISH` by default).

    Returns
    -------
    str
        The sentences, joined by spaces.

    Examples
    --------
    >>> v = [Verdict(0, "reveal", (0, 0), Category.FIRST_CLICK, 0.0, 0.0, None),
    ...      Verdict(1, "reveal", (2, 2), Category.FORCED_GUESS, 0.5, 0.5, 0),
    ...      Verdict(2, "reveal", (4, 1), Category.AVOIDABLE_RISK, 0.2, 0.0, 3, False)]
    >>> summary(v)
    'You survived 1 guess you had to make (50%). You lost on a guess you did not need (20%): a safe cell was there.'
    """
    return " ".join(summary_lines(verdicts, words))


def remark(v: Verdict, words: Words = ENGLISH) -> str | None:
    """What the live coach says after a move (the app's toast, the terminal's
    message line), or None when it stays silent: a proven-safe move, a mark
    changed, a position it could not weigh.

    A flag is told its odds from what the player sees only, never from the
    hidden board: "no mine there" for a wrong guess and silence for a right
    one would let any cell be tested by flagging it.

    Parameters
    ----------
    v : Verdict
        The move's verdict.
    words : Words
        The reader's language (:data:`ENGLISH` by default).

    Returns
    -------
    str or None
        The sentence, or None.

    Examples
    --------
    >>> remark(Verdict(3, "reveal", (0, 0), Category.AVOIDABLE_RISK, 0.2, 0.0, 3))
    'That was a 20% risk you did not need: 3 safe cells were there.'
    >>> remark(Verdict(4, "mark", (1, 1), Category.WRONG_FLAG, 0.4, None, None))
    'A flag on a guess: a 40% chance of a mine there.'
    >>> remark(Verdict(4, "reveal", (1, 1), Category.SAFE, 0.0, 0.0, 5)) is None
    True
    """
    cat, risk, w = v.category, v.risk, words
    if risk is None:
        return None
    if cat is Category.AVOIDABLE_RISK:
        n = v.safe_cells_available or 0
        if _certain(risk):
            return w.ngettext("That cell was certainly a mine: {n} safe cell was there.",
                              "That cell was certainly a mine: {n} safe cells were there.",
                              n).format(n=n)
        return w.ngettext("That was a {risk}% risk you did not need: {n} safe cell was there.",
                          "That was a {risk}% risk you did not need: {n} safe cells were there.",
                          n).format(n=n, risk=w.pct(risk))
    if cat is Category.FORCED_GUESS:
        if v.survived:
            return w.gettext("You had to guess ({risk}%): no cell was safer.").format(
                risk=w.pct(risk))
        return w.gettext("You had to guess ({risk}%): no cell was safer. Bad luck.").format(
            risk=w.pct(risk))
    if cat is Category.EARLY_GUESS:
        return w.gettext("Guessed early at {risk}%: {safe_play}.").format(
            risk=_early_risk(v, w), safe_play=_safe_play(v, w))
    if cat is Category.FORCED_EARLY:
        if v.survived:
            return w.gettext("A forced guess, taken early ({risk}%): after the safe cells the "
                             "odds would have been the same, and no cell safer.").format(
                risk=w.pct(risk))
        return w.gettext("A forced guess, taken early ({risk}%): after the safe cells the odds "
                         "would have been the same, and no cell safer. Bad luck.").format(
            risk=w.pct(risk))
    if cat is Category.WORSE_GUESS:
        best = v.best_risk or 0.0
        if _certain(risk):
            return w.gettext("That cell was certainly a mine: a cell at {best}% was the safer "
                             "guess.").format(best=w.pct(best, risk))
        return w.gettext("A {risk}% guess: a cell at {best}% was the safer guess.").format(
            risk=w.pct(risk, best), best=w.pct(best, risk))
    if cat in (Category.FLAG, Category.WRONG_FLAG):
        if risk == 0.0:
            return w.gettext("Wrong flag: that cell was certainly safe.")
        if risk < 1.0:
            return w.gettext("A flag on a guess: a {risk}% chance of a mine there.").format(
                risk=w.pct(risk))
    return None


def _early_risk(v: Verdict, words: Words) -> str:
    """The risk of a guess taken early, with the digits that tell it from its risk
    after safe play when the two differ."""
    risk, after = v.risk or 0.0, v.safe_play_risk
    return words.pct(risk, after if after is not None and abs(after - risk) > MARGIN else None)


def _safe_play(v: Verdict, words: Words) -> str:
    """What safe play would have done to a guess taken early, as a clause: "after
    the 12 safe cells it would have been 20%", "... a 9% cell would have been there"."""
    w, risk = words, v.risk or 0.0
    after = v.safe_play_risk if v.safe_play_risk is not None else risk
    best = v.safe_play_best if v.safe_play_best is not None else after
    n = v.safe_play_cells or 0
    changed = abs(after - risk) > MARGIN
    safer = best < after - MARGIN
    if changed and safer:
        text = w.ngettext("after the {n} safe cell it would have been {after}%, and a {best}% "
                          "cell would have been there",
                          "after the {n} safe cells it would have been {after}%, and a {best}% "
                          "cell would have been there", n)
    elif safer:
        text = w.ngettext("after the {n} safe cell a {best}% cell would have been there",
                          "after the {n} safe cells a {best}% cell would have been there", n)
    else:
        text = w.ngettext("after the {n} safe cell it would have been {after}%",
                          "after the {n} safe cells it would have been {after}%", n)
    return text.format(n=n, after=w.pct(after, risk if changed else None),
                       best=w.pct(best, after if safer else None))


def tag(v: Verdict) -> str:
    """A short mark of a move, for a replay's move list: ``safe``, ``guess 33%``,
    ``RISK 20% (3 safe)``, ``early 33%->9% (3 safe)``, ``forced early 50% (3 safe)``,
    ``worse 40%>12%``, ``wrong flag``, ...; the move that lost ends in ``LOST``.

    Parameters
    ----------
    v : Verdict
        The move's verdict.

    Returns
    -------
    str
        The mark (in English: it is a code a reader learns, not a sentence).

    Examples
    --------
    >>> tag(Verdict(7, "reveal", (3, 5), Category.WORSE_GUESS, 0.4, 0.125, 0, False))
    'worse 40%>12% LOST'
    >>> tag(Verdict(2, "chord", (1, 1), Category.AVOIDABLE_RISK, 0.2, 0.0, 3))
    'RISK 20% (3 safe)'
    >>> tag(Verdict(4, "reveal", (0, 7), Category.EARLY_GUESS, 1 / 3, 0.0, 3, True, 12, 1 / 3, 0.09))
    'early 33%->9% (3 safe)'
    """
    risk = _pct(v.risk) if v.risk is not None else "?"
    text = {
        Category.FIRST_CLICK: "first click",
        Category.SAFE: "safe",
        Category.FORCED_GUESS: f"guess {risk}%",
        Category.AVOIDABLE_RISK: f"RISK {risk}% ({v.safe_cells_available} safe)",
        Category.EARLY_GUESS: f"early {_pct(v.risk or 0.0, _best(v))}%->{_pct(_best(v), v.risk)}% "
                              f"({v.safe_cells_available} safe)",
        Category.FORCED_EARLY: f"forced early {risk}% ({v.safe_cells_available} safe)",
        Category.WORSE_GUESS: f"worse {_pct(v.risk or 0.0, v.best_risk or 0.0)}%>{_pct(v.best_risk or 0.0, v.risk)}%",
        Category.FLAG: "flag",
        Category.WRONG_FLAG: "wrong flag",
        Category.MARK: "mark",
        Category.NO_EFFECT: "no effect",
        Category.NOT_ANALYSED: "not analysed",
    }[v.category]
    return text if v.survived else f"{text} LOST"



def _loss(v: Verdict, words: Words = ENGLISH) -> str:
    """The sentence on the move that lost, in the summary."""
    w, risk, best = words, v.risk, v.best_risk or 0.0
    if risk is not None and _certain(risk):
        if v.category is Category.AVOIDABLE_RISK:
            return w.gettext("You opened a cell that was certainly a mine, while a safe cell "
                             "was there.")
        if v.category is Category.WORSE_GUESS:
            return w.gettext("You opened a cell that was certainly a mine, when the safest "
                             "cell had {best}%.").format(best=w.pct(best, risk))
    if v.category is Category.FORCED_GUESS and risk is not None:
        return w.gettext("You lost on a guess you had to make ({risk}%): no cell was "
                         "safer.").format(risk=w.pct(risk))
    if v.category is Category.FORCED_EARLY and risk is not None:
        return w.gettext("You lost on a forced guess taken early ({risk}%): after the safe "
                         "cells the odds would have been the same, and no cell "
                         "safer.").format(risk=w.pct(risk))
    if v.category is Category.EARLY_GUESS and risk is not None:
        return w.gettext("You lost on a guess taken early at {risk}%: {safe_play}.").format(
            risk=_early_risk(v, w), safe_play=_safe_play(v, w))
    if v.category is Category.AVOIDABLE_RISK and risk is not None:
        return w.gettext("You lost on a guess you did not need ({risk}%): a safe cell was "
                         "there.").format(risk=w.pct(risk))
    if v.category is Category.WORSE_GUESS and risk is not None:
        return w.gettext("You lost on a {risk}% guess when the safest cell had {best}%.").format(
            risk=w.pct(risk, best), best=w.pct(best, risk))
    return w.gettext("You lost on a move the coach could not weigh (too much to count).")


def describe(v: Verdict, words: Words = ENGLISH, at: tuple[int, int] | None = None) -> str:
    """One sentence on a move, for a replay's move list or "Why did I lose?".

    Parameters
    ----------
    v : Verdict
        The move's verdict.
    words : Words
        The reader's language (:data:`ENGLISH` by default).
    at : (int, int), optional
        The cell as the reader sees it (row, column from 0), when the board
        is drawn otherwise than the game's (turned); ``v.cell`` by default.

    Returns
    -------
    str
        The move's number, kind and cell, and what it was.

    Examples
    --------
    >>> describe(Verdict(7, "reveal", (3, 5), Category.WORSE_GUESS, 0.4, 0.125, 0, False))
    'Move 8, open at row 4, column 6: a 40% guess when the safest cell had 12%. It hit a mine.'
    """
    w = words
    row, col = at if at is not None else v.cell
    where = {"reveal": w.gettext("Move {n}, open at row {row}, column {col}"),
             "chord": w.gettext("Move {n}, chord at row {row}, column {col}"),
             }.get(v.kind, w.gettext("Move {n}, mark at row {row}, column {col}"))
    where = where.format(n=v.index + 1, row=row + 1, col=col + 1)
    risk, best, n_safe = v.risk, v.best_risk or 0.0, v.safe_cells_available or 0
    cat = v.category
    if cat is Category.AVOIDABLE_RISK and _certain(risk):
        text = w.ngettext("a cell that was certainly a mine, while {n} safe cell was there",
                          "a cell that was certainly a mine, while {n} safe cells were there",
                          n_safe).format(n=n_safe)
    elif cat is Category.AVOIDABLE_RISK:
        text = w.ngettext("a {risk}% risk you did not need: {n} safe cell was there",
                          "a {risk}% risk you did not need: {n} safe cells were there",
                          n_safe).format(n=n_safe, risk=w.pct(risk or 0.0))
    elif cat is Category.WORSE_GUESS and _certain(risk):
        text = w.gettext("a cell that was certainly a mine, when the safest cell had "
                         "{best}%").format(best=w.pct(best, risk))
    elif cat is Category.WORSE_GUESS:
        text = w.gettext("a {risk}% guess when the safest cell had {best}%").format(
            risk=w.pct(risk or 0.0, best), best=w.pct(best, risk))
    elif cat is Category.FORCED_GUESS:
        text = w.gettext("a guess you had to make ({risk}%): no cell was safer").format(
            risk=w.pct(risk or 0.0))
    elif cat is Category.EARLY_GUESS:
        text = w.gettext("guessed early at {risk}%; {safe_play}").format(
            risk=_early_risk(v, w), safe_play=_safe_play(v, w))
    elif cat is Category.FORCED_EARLY:
        text = w.gettext("a forced guess taken early ({risk}%): after the safe cells the odds "
                         "would have been the same, and no cell safer").format(
            risk=w.pct(risk or 0.0))
    else:
        text = {
            Category.FIRST_CLICK: w.gettext("the first click, safe under the first-click rule"),
            Category.SAFE: w.gettext("certainly safe"),
            Category.FLAG: w.gettext("a flag on a mine"),
            Category.WRONG_FLAG: w.gettext("a flag on a cell with no mine"),
            Category.MARK: w.gettext("a mark changed"),
            Category.NO_EFFECT: w.gettext("it changed nothing"),
            Category.NOT_ANALYSED: w.gettext("not weighed: the position or the game is too "
                                             "large to count exactly"),
        }.get(cat, "")
    if v.survived:
        return w.gettext("{move}: {verdict}.").format(move=where, verdict=text)
    return w.gettext("{move}: {verdict}. It hit a mine.").format(move=where, verdict=text)
