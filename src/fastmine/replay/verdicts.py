"""The coach's marks on a replay: what ``fastmine replay`` shows next to each move.

:func:`verdicts_of` runs :func:`fastmine.coach.analyze` over a replay (with a
time budget: :data:`BUDGET` for the players, :data:`FILE_BUDGET` for
``--verdicts``); :func:`to_json` is the ``--verdicts FILE`` document,
described in ``docs/replays.md``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..coach import Verdict, Words
    from .playback import Replay

BUDGET = 2.0
"""Seconds of solver time the players wait for the marks before a replay starts
(an Expert game needs about 5 ms; moves past the budget are "not analysed")."""

FILE_BUDGET = 30.0
"""Seconds of solver time ``fastmine replay --verdicts`` may spend on a game, as
``fastmine analyze`` may: a game too large for the exact count (a long video
of a big board took minutes, growing with the square of its moves) gets its
later moves marked "not analysed" instead of running on."""

VERDICTS_FORMAT = "fastmine-verdicts"
VERDICTS_VERSION = 1


def verdicts_of(replay: Replay, *, budget: float | None = BUDGET,
                words: Words | None = None) -> tuple[list[Verdict] | None, str]:
    """The coach's verdict on every move of ``replay``, and a note for the reader:
    the summary line, or why there are no verdicts (no solver, a replay whose
    first click breaks its rule).  ``words``: the coach's words in the reader's
    language (:class:`fastmine.coach.Words`; English by default); the summary's
    sentences are joined by spaces."""
    try:
        from .. import coach
    except ImportError:
        return None, "not available (the solver is not installed)"
    w = words if words is not None else coach.ENGLISH
    try:
        verdicts = coach.analyze(replay.board, replay.moves, rule=replay.rule,
                                 question_marks=replay.question_marks, budget=budget)
    except (ValueError, TypeError) as exc:
        return None, w.gettext("not analysed ({why})").format(why=exc)
    return verdicts, coach.summary(verdicts, w)


def to_json(replay: Replay, verdicts: list[Verdict]) -> str:
    """The verdicts as a JSON document: the board, the summary, the losing move
    and one object a move (1-based ``move``, 0-based ``row``/``col``)."""
    from .. import coach

    lost = coach.fatal(verdicts)
    doc: dict[str, Any] = {
        "format": VERDICTS_FORMAT,
        "version": VERDICTS_VERSION,
        "rows": replay.rows, "cols": replay.cols, "mines": replay.mine_count,
        "rule": replay.rule,
        "state": replay.state.value,
        "time": replay.time,
        "summary": coach.summary(verdicts),
        "fatal_move": None if lost is None else lost.index + 1,
        "moves": [{
            "move": v.index + 1,
            "kind": v.kind,
            "row": v.cell[0],
            "col": v.cell[1],
            "category": v.category.value,
            "risk": v.risk,
            "best_risk": v.best_risk,
            "safe_cells_available": v.safe_cells_available,
            "safe_play_cells": v.safe_play_cells,
            "safe_play_risk": v.safe_play_risk,
            "safe_play_best": v.safe_play_best,
            "survived": v.survived,
            "tag": coach.tag(v),
            "text": coach.describe(v),
        } for v in verdicts],
    }
    return json.dumps(doc, indent=1) + "\n"
