"""The replay player: a recorded game played back on the app's own board, with
the coach's verdict on every move, and "Why did I lose?".

The player shows the board after ``k`` moves (``k`` from 0 to the number of
moves) and names the move about to be made there, move ``k`` (0-based): the
board is what the player saw when choosing it, so the coach's odds (see
:mod:`fastmine.coach`) are the odds on screen; its cell is outlined, in red
for the move that lost.  At the end the last move is named.  Playback waits
between moves as the player did, scaled by the speed, a long think shortened
to :data:`MAX_PAUSE`; it runs on the Kivy Clock.  The board is read-only: it
pans and zooms, and a tap does nothing; on a touch screen it opens zoomed
around the move shown and follows the moves (:mod:`.replayboard`).

The list of recorded games with a replay (newest first) is in
:mod:`.listing`; the layouts of both are in ``replays.kv``, loaded once
from here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, InstructionGroup, Rectangle
from kivy.logger import Logger
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.slider import Slider

from .. import kvfiles
from ..board import tiles as T
from ..text.i18n import N_, _, board_name, coach_words, ngettext
from .replayboard import ReplayBoard

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from fastmine.coach import Verdict
    from fastmine.replay import Replay, Seeker

    from ..kivytypes import ClockEvent

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)
"""The speed button's steps (1 is the pace the game was played at)."""
MAX_PAUSE = 3.0
"""Seconds of game time: a longer think before a move plays as this long (then scaled)."""
MAX_FRAME_BYTES = 32 * 2**20
"""Boards of every position are kept while they fit in this (a long game on a big
board is replayed from the start instead when stepping back)."""

KEY_SPACE, KEY_RIGHT, KEY_LEFT, KEY_HOME, KEY_END = 32, 275, 276, 278, 279
KEY_ESCAPE, KEY_BACK = 27, 1001

FATAL = (N_("The losing move"), (0.86, 0.16, 0.14, 1.0))
MARKS: dict[str, tuple[str, tuple[float, float, float, float]]] = {
    "forced_guess": (N_("A guess you had to make"), (0.95, 0.66, 0.05, 1.0)),
    # early but fair: counted with the forced guesses, in a lighter shade of theirs
    "forced_early": (N_("A forced guess taken early"), (0.98, 0.80, 0.35, 1.0)),
    "worse_guess": (N_("A riskier guess than needed"), (0.96, 0.42, 0.05, 1.0)),
    "early_guess": (N_("A guess taken early"), (0.93, 0.36, 0.40, 1.0)),
    "avoidable_risk": (N_("A risk you did not need"), (0.85, 0.20, 0.60, 1.0)),
    "wrong_flag": (N_("Wrong flag"), (0.52, 0.32, 0.88, 1.0)),
}
"""Coach categories marked on the timeline: (name shown, in English; colour)."""


def load_kv() -> None:
    """Load ``replays.kv`` once per process (a second app must not apply its rules twice).

    Called when a replay screen is first built, after the app loaded
    the files of ``application.KV_FILES``: rules loaded later win, and these refine its widgets."""
    kvfiles.load_kv("replays/replays.kv")


def playback_delays(times_ms: ArrayLike, speed: float, max_pause: float = MAX_PAUSE) -> NDArray[np.float64]:
    """Seconds to wait before each move at ``speed``: the time the player took
    since the move before (the first move comes at once), at most
    ``max_pause`` seconds of game time, divided by ``speed``.

    >>> playback_delays([0, 500, 60_500, 61_000], 2.0).tolist()
    [0.0, 0.25, 1.5, 0.25]
    """
    t = np.asarray(times_ms, np.float64) / 1000.0
    return np.minimum(np.diff(t, prepend=0.0), max_pause) / speed


def mark_of(verdict: Verdict | None) -> tuple[str, tuple[float, float, float, float]] | None:
    """The timeline mark of a coach verdict (name, colour), or None for a plain move.

    >>> from fastmine.coach import Category, Verdict
    >>> [mark_of(Verdict(4, "reveal", (3, 1), c, 0.3, 0.0, 2))[0]
    ...  for c in (Category.EARLY_GUESS, Category.FORCED_EARLY, Category.AVOIDABLE_RISK)]
    ['A guess taken early', 'A forced guess taken early', 'A risk you did not need']
    >>> mark_of(Verdict(5, "reveal", (0, 0), Category.SAFE, 0.0, 0.0, 7)) is None
    True
    """
    if verdict is None:
        return None
    if not verdict.survived:
        return FATAL
    return MARKS.get(verdict.category.value)


def fmt_clock(seconds: float) -> str:
    """The game clock as the player shows it.

    >>> fmt_clock(0), fmt_clock(75.25)
    ('0:00.00', '1:15.25')
    """
    m, s = divmod(max(0.0, float(seconds)), 60.0)
    return f"{int(m)}:{s:05.2f}"


@dataclass(frozen=True)
class Coaching:
    """The coach's analysis of one replay: a verdict per move and the summary
    line; ``verdicts`` None (and ``summary`` saying why) when it cannot run."""

    verdicts: list[Verdict] | None
    summary: str

    @property
    def fatal(self) -> Verdict | None:
        """The verdict on the move that lost, or None."""
        if not self.verdicts:
            return None
        return next((v for v in self.verdicts if not v.survived), None)


def analyse(replay: Replay) -> Coaching:
    """Run the coach once on a :class:`fastmine.replay.Replay`, as ``fastmine
    replay`` does (:func:`fastmine.replay.verdicts.verdicts_of`: milliseconds for an
    Expert game, a time budget for huge ones); never raises: a game it cannot
    judge says why instead."""
    try:
        from fastmine import coach
        from fastmine.replay.verdicts import verdicts_of

        words = coach_words()
        verdicts, note = verdicts_of(replay, words=words)
        if verdicts is not None:  # its sentences, one a line
            note = "\n".join(coach.summary_lines(verdicts, words))
    except Exception as exc:  # the solver is another part: the game's end must not crash on it
        Logger.exception("fastmine: the coach failed")
        return Coaching(None, _("The coach failed on this game: {why}.").format(why=exc))
    if verdicts is None:
        return Coaching(None, _("Coach: {note}.").format(note=note))
    return Coaching(verdicts, note)


def describe(verdict: Verdict, transposed: bool = False) -> str:
    """The coach's sentence on one move (see :func:`fastmine.coach.describe`), in the
    player's language, naming its cell where the player sees it: on a board drawn
    turned (see :mod:`.viewport`), game row r is the drawn column r."""
    from fastmine import coach

    r, c = verdict.cell
    return coach.describe(verdict, coach_words(), at=(c, r) if transposed else (r, c))


def move_text(index: int, kind: int, row: int, col: int, transposed: bool = False) -> str:
    """A move without the coach's verdict (the solver is missing): what and where.

    >>> move_text(2, 0, 3, 5), move_text(2, 0, 3, 5, transposed=True)
    ('Move 3: open at row 4, column 6.', 'Move 3: open at row 6, column 4.')
    """
    from fastmine.movelog import KIND_BITS, KIND_NAMES

    r, c = (col, row) if transposed else (row, col)
    what = {"reveal": N_("Move {n}: open at row {row}, column {col}."),
            "chord": N_("Move {n}: chord at row {row}, column {col}.")}.get(
        KIND_NAMES[kind & KIND_BITS], N_("Move {n}: mark at row {row}, column {col}."))
    return _(what).format(n=index + 1, row=r + 1, col=c + 1)


class ReplayFrames:
    """The board view after any number of moves of a replay, for a player that
    jumps about: every position is worked out once when it fits in
    :data:`MAX_FRAME_BYTES`; otherwise forward steps play one move and a step
    back plays again from the start."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        n = len(replay)
        self._all: np.ndarray | None = None
        self._seek: Seeker | None = None
        if (n + 1) * replay.rows * replay.cols <= MAX_FRAME_BYTES:
            views = np.empty((n + 1, replay.rows, replay.cols), np.int8)
            for k, game in enumerate(replay.frames()):
                views[k] = game.view
            self._all = views

    def view(self, k: int) -> np.ndarray:
        """The board (a view array) after the first ``k`` moves."""
        if self._all is not None:
            board: np.ndarray = self._all[k]
            return board
        if self._seek is None:
            from fastmine.replay import Seeker

            self._seek = Seeker(self.replay)
        return self._seek.goto(k).view


class Timeline(Slider):  # type: ignore[misc]  # Kivy has no type information
    """A slider over the moves (value = moves made) with a tick per risky move,
    coloured as :data:`MARKS`; the fatal move's tick is taller.  The ticks are
    drawn under the thumb and stand out above and below it, so the move the
    thumb is on still shows its colour."""

    marks = ListProperty([])
    """(move index, rgba, tall) of each tick."""
    dragging = BooleanProperty(False)
    """A finger (or the mouse) holds the thumb: playback waits for it to let go."""

    def __init__(self, **kwargs: Any) -> None:
        self._ticks = InstructionGroup()
        super().__init__(**kwargs)
        self.canvas.before.add(self._ticks)
        self.bind(pos=self._draw, size=self._draw, marks=self._draw, max=self._draw,
                  padding=self._draw, cursor_size=self._draw)

    def on_touch_down(self, touch: Any) -> bool:
        handled = super().on_touch_down(touch)
        if handled and not touch.is_mouse_scrolling and touch.grab_current is None:
            self.dragging = self.dragging or any(ref() is self for ref in touch.grab_list)
        return bool(handled)

    def on_touch_up(self, touch: Any) -> bool:
        mine = touch.grab_current is self
        handled = super().on_touch_up(touch)
        if mine:
            self.dragging = False
        return bool(handled)

    def tick_x(self, index: float) -> float:
        """Window x of the slider position ``index`` (where its thumb sits)."""
        span = (self.max - self.min) or 1
        x = self.x + self.padding + (index - self.min) / span * (self.width - 2 * self.padding)
        window_x: float = self.to_window(x, self.y)[0]
        return window_x

    def _draw(self, *_args: object) -> None:
        self._ticks.clear()
        span = (self.max - self.min) or 1
        w = dp(3)
        for index, rgba, tall in self.marks:
            x = self.x + self.padding + (index - self.min) / span * (self.width - 2 * self.padding)
            h = self.cursor_height + (dp(14) if tall else dp(8))
            self._ticks.add(Color(*rgba))
            self._ticks.add(Rectangle(pos=(x - w / 2, self.center_y - h / 2), size=(w, h)))


class ReplayScreen(Screen):  # type: ignore[misc]  # Kivy has no type information
    """The replay player (layout in ``replays.kv``): board, timeline, clock, the
    coach's word on the move shown, play/pause, speed, steps, start and end."""

    k = NumericProperty(0)
    """Moves made on the board shown (0 to :attr:`n`)."""
    n = NumericProperty(0)
    """Moves in the replay."""
    playing = BooleanProperty(False)
    speed = NumericProperty(1.0)
    landscape = BooleanProperty(False)
    title = StringProperty("Replay")
    clock_text = StringProperty(fmt_clock(0))
    move_text = StringProperty("")
    verdict_text = StringProperty("")
    summary = StringProperty("")
    """The coach's line on the whole game."""

    def __init__(self, **kwargs: Any) -> None:
        self.board = ReplayBoard(pos_hint={"x": 0, "y": 0})
        self.replay: Replay | None = None
        self.frames: ReplayFrames | None = None
        self.coaching: Coaching | None = None
        self._delays = np.zeros(0)
        self._cum = np.zeros(0)
        self._from = 0
        self._played = 0.0
        self._event: ClockEvent | None = None
        self._syncing = False
        self._back: Callable[[], None] | None = None
        load_kv()
        super().__init__(**kwargs)
        area = self.ids.board_area
        area.add_widget(self.board, index=len(area.children))
        # the phone turned: the cells are named where they are now drawn
        self.board.bind(transposed=lambda *_a: self._describe() if self.replay is not None else None)
        app = App.get_running_app()
        if app is not None:  # the app's tiles, and its new ones when the theme changes
            self.board.atlas = app.atlas
            app.fbind("atlas", lambda _app, atlas: setattr(self.board, "atlas", atlas))
            app.fbind("on_stop", lambda *_a: self.pause())  # no playback outlives the app
            # nor runs on in the background: the first frame back would make every
            # move due while the app was away, and the player would find the end
            app.fbind("on_pause", lambda *_a: self.pause())
        self.bind(size=self._check_orientation)
        ids = self.ids
        for w in (ids.verdict, ids.summary_scroll):
            w.bind(height=self._text_room)
        self.bind(landscape=self._text_room)

    def _text_room(self, *_args: object) -> None:
        # What the words under the board take beyond their fixed share (the
        # verdict's three lines, the summary's one): upright, the board gives
        # that height up, and the player's opening view must not depend on it
        # (a longer explanation in Chinese opened the board zoomed in).
        if self.landscape:  # the words in a column beside the board: its height is its own
            self.board.text_room = 0.0
            return
        verdict, summary = self.ids.verdict, self.ids.summary
        fixed = verdict.line_height * verdict.font_size * 3.6 + dp(4)
        one_line = summary.line_height * summary.font_size * 1.4 + dp(4)
        self.board.text_room = (max(0.0, verdict.height - fixed)
                                + max(0.0, self.ids.summary_scroll.height - one_line))

    def _check_orientation(self, *_args: object) -> None:
        self.landscape = self.width > self.height * 1.05

    def on_landscape(self, _inst: object, landscape: bool) -> None:
        if not landscape and "spacer" in self.ids:
            # The landscape column was stretched to the screen's height by its
            # layout; kv sets the heights again only when what they follow
            # changes, so upright they are set here (else the board lost that
            # height to an empty band under the controls).
            self.ids.spacer.height = 0
            panel = self.ids.panel
            panel.height = panel.minimum_height

    # ------------------------------------------------------------ opening

    def open(self, replay: Replay, coaching: Coaching | None = None, at: int = 0,
             title: str = "", back: Callable[[], None] | None = None) -> None:
        """Show ``replay`` after ``at`` moves, paused.  ``coaching`` is its
        analysis if already made (else it is made now, once); ``back`` is what
        the Back button, Escape and Android back do (default: the game)."""
        self.pause()
        self.replay = replay
        self.frames = ReplayFrames(replay)
        self.coaching = coaching if coaching is not None else analyse(replay)
        # one paragraph under the controls (the end dialog has a sentence a line)
        self.summary = self.coaching.summary.replace("\n", " ")
        self.title = title or replay_title(replay)
        self._back = back
        self.n = len(replay)
        self._delays = playback_delays(replay.moves[:, 3], self.speed)
        marks: list[tuple[int, tuple[float, float, float, float], bool]] = []
        for v in self.coaching.verdicts or ():
            m = mark_of(v)
            if m is not None:
                marks.append((v.index, m[1], m is FATAL))
        tl = self.ids.timeline
        self._syncing = True
        tl.max = max(1, self.n)
        tl.value = 0
        self._syncing = False
        tl.marks = marks
        self.k = -1
        # a touch screen opens zoomed around the move shown ("Why did I lose?":
        # the fatal cell), as a game opens around its play area
        self.board.hands_off = False
        self.board.set_board(self._tiles(0), focus=self._cell(at))
        self.goto(at)

    # ------------------------------------------------------------ moving

    def _tiles(self, k: int) -> np.ndarray:
        if self.frames is None:  # called once a replay is open (open, _show)
            raise RuntimeError("the replay player has no replay open")
        return T.VIEW_TILE[np.ascontiguousarray(self.frames.view(k)).view(np.uint8)]

    def _cell(self, k: int) -> tuple[int, int] | None:
        """The cell of the move named after ``k`` moves (the last one at the end)."""
        if self.replay is None or not self.n:
            return None
        _kind, r, c, _ms = (int(v) for v in self.replay.moves[min(max(int(k), 0), int(self.n) - 1)])
        return (r, c)

    def _refollow(self) -> None:
        # the player asked for a move (play, a step, a jump): the view goes
        # back to following the moves, even after a pan by hand
        self.board.hands_off = False
        cell = self._cell(int(self.k))
        if cell is not None:
            self.board.follow(cell)

    def goto(self, k: int) -> None:
        """Show the board after ``k`` moves (clamped); playing goes on from there,
        and the view follows the moves again."""
        self._show(k)
        self._refollow()
        if self.playing:
            self._anchor()

    def _show(self, k: int) -> None:
        if self.replay is None:
            return
        k = int(min(max(k, 0), self.n))
        if k == self.k:
            return
        new = self._tiles(k)
        board = self.board
        if board.tiles.shape == new.shape:
            diff = np.argwhere(new != board.tiles)
            if len(diff):
                board.set_tiles(diff, new[diff[:, 0], diff[:, 1]])
        self.k = k
        self._show_mouse()
        tl = self.ids.timeline
        if int(round(tl.value)) != k:
            self._syncing = True
            tl.value = k
            self._syncing = False
        self._describe()

    def _describe(self) -> None:
        replay, k, n = self.replay, int(self.k), int(self.n)
        if replay is None:  # nothing open: nothing to say (its callers check first)
            return
        times = replay.moves[:, 3]
        self.clock_text = fmt_clock(times[k - 1] / 1000.0 if k else 0.0)
        if n == 0:
            self.move_text, self.verdict_text = _("No moves"), ""
            self.board.cursor = None
            return
        focus = k if k < n else n - 1
        kind, r, c, _ms = (int(v) for v in replay.moves[focus])
        if k < n:
            self.move_text = _("Next: move {k} of {n}").format(k=k + 1, n=n)
        elif replay.state.value == "won":
            self.move_text = ngettext("End: won after {n} move", "End: won after {n} moves",
                                      n).format(n=n)
        else:
            self.move_text = ngettext("End: lost after {n} move", "End: lost after {n} moves",
                                      n).format(n=n)
        verdicts = self.coaching.verdicts if self.coaching else None
        v = verdicts[focus] if verdicts and focus < len(verdicts) else None
        mark = mark_of(v)
        board = self.board
        app = App.get_running_app()
        theme = getattr(app, "theme", None)
        board.cursor_color = mark[1] if mark else (theme.cursor if theme else (0.2, 0.4, 0.9, 1))
        board.cursor = (r, c)
        board.follow((r, c))
        if v is None:
            self.verdict_text = move_text(focus, kind, r, c, board.transposed)
            return
        text = describe(v, board.transposed)
        if mark:
            hexc = "".join(f"{int(round(ch * 255)):02x}" for ch in mark[1][:3])
            text = f"[b][color={hexc}]{_(mark[0])}[/color][/b]  {text}"
        self.verdict_text = text

    def on_timeline(self, value: float) -> None:
        """The timeline moved (a finger drags it, or a click on it)."""
        if not self._syncing:
            self.goto(int(round(value)))

    def step(self, delta: int) -> None:
        """One move forward or back; stepping pauses the playback, and the
        view follows the moves again."""
        self.pause()
        self._show(int(self.k) + delta)
        self._refollow()

    def to_start(self) -> None:
        """Jump to the board before the first move."""
        self.goto(0)

    def to_end(self) -> None:
        """Jump to the final board."""
        self.goto(int(self.n))

    # ------------------------------------------------------------ playing

    def toggle_play(self) -> None:
        """The play/pause button and the space bar."""
        if self.playing:
            self.pause()
        else:
            self.play()

    def play(self) -> None:
        """Play from the board shown (from the start when at the end)."""
        if self.replay is None or self.playing or not self.n:
            return
        if self.k >= self.n:
            self._show(0)
        self._refollow()
        self.playing = True
        self._anchor()
        self._event = Clock.schedule_interval(self._tick, 0)

    def pause(self) -> None:
        """Stop the playback where it is."""
        if self._event is not None:
            self._event.cancel()
            self._event = None
        self.playing = False

    def cycle_speed(self) -> None:
        """The speed button: the next of :data:`SPEEDS`, then round again."""
        i = SPEEDS.index(self.speed) if self.speed in SPEEDS else 0
        self.set_speed(SPEEDS[(i + 1) % len(SPEEDS)])

    def set_speed(self, speed: float) -> None:
        """Play at ``speed`` times the game's own pace."""
        if not speed > 0:
            raise ValueError(f"the speed must be more than 0, got {speed!r}")
        old = self.speed
        self.speed = float(speed)
        if self.replay is not None:
            self._delays = playback_delays(self.replay.moves[:, 3], self.speed)
        if self.playing:
            # the wait for the next move goes on at the new speed from where it
            # was: switching to 8x in a long think plays the move at once
            k = int(self.k)
            waited = self._played - (float(self._cum[k - self._from - 1]) if k > self._from else 0.0)
            self._anchor()
            self._played = max(0.0, waited) * old / self.speed

    def _anchor(self) -> None:
        # The moves to come are timed from here: time played so far, then the
        # cumulative waits; a frame makes every move that is due (none drift).
        self._from = int(self.k)
        self._played = 0.0
        self._cum = np.cumsum(self._delays[self._from:])

    def _tick(self, dt: float) -> None:
        if self.ids.timeline.dragging:
            # the player holds the thumb: the board stays where the finger is, and
            # playing goes on from there when it lets go (else the thumb ran away
            # under the finger, then jumped back to it on release)
            self._anchor()
            return
        self._played += dt
        due = self._from + int(np.searchsorted(self._cum, self._played, side="right"))
        if due > self.k:
            self._show(due)
        self._show_mouse()
        if self.k >= self.n:
            self.pause()

    def _show_mouse(self) -> None:
        # A replay with a mouse path (imported from a video): the pointer at the
        # game time the playback is at, the last move's plus the time waited
        # toward the next at the playing speed (at most the next move's time).
        replay = self.replay
        if replay is None or getattr(replay, "mouse", None) is None:
            self.board.show_mouse(None, None)       # nothing drawn
            return
        k, times = int(self.k), replay.moves[:, 3]
        ms = float(times[k - 1]) if k else 0.0
        if k >= self.n:
            ms = max(ms, replay.time * 1000.0)
        elif self.playing and k >= self._from:
            waited = self._played - (float(self._cum[k - self._from - 1]) if k > self._from else 0.0)
            ms = min(float(times[k]), ms + max(0.0, waited) * 1000.0 * self.speed)
        self.board.show_mouse(replay, ms)

    # ------------------------------------------------------------ leaving

    def on_leave(self, *_args: object) -> None:
        self.pause()

    def back(self) -> None:
        """Back to where the player came from (the game, the end dialog, the list)."""
        self.pause()
        go, self._back = self._back, None
        if go is not None:
            go()
        else:
            App.get_running_app().show_screen("game")

    def on_key(self, key: int, text: str | None) -> bool:
        """Space plays or pauses, the arrows step, Home and End jump, Escape goes back."""
        if key == KEY_SPACE or text == " ":
            self.toggle_play()
        elif key == KEY_RIGHT:
            self.step(1)
        elif key == KEY_LEFT:
            self.step(-1)
        elif key == KEY_HOME:
            self.to_start()
        elif key == KEY_END:
            self.to_end()
        elif key in (KEY_ESCAPE, KEY_BACK):
            self.back()
        else:
            return False
        return True


def replay_title(replay: Replay) -> str:
    """The player's title: board, and how and when the game ended.

    >>> import fastmine
    >>> from fastmine.replay import Replay
    >>> g = fastmine.Game(9, 9, 10, seed=5, clock=lambda: 0.0)
    >>> _ = g.reveal(0, 0)
    >>> replay_title(Replay.from_game(g))
    'Beginner, playing at 0:00.00'
    """
    from fastmine import difficulty_name

    name = difficulty_name(replay.rows, replay.cols, replay.mine_count)
    board = board_name(name) if name != "custom" else (
        f"{replay.rows} x {replay.cols}, "
        + ngettext("{n} mine", "{n} mines", replay.mine_count).format(n=replay.mine_count))
    end = {"won": N_("{board}, won in {time}"), "lost": N_("{board}, lost at {time}")}.get(
        replay.state.value, N_("{board}, playing at {time}"))
    return _(end).format(board=board, time=fmt_clock(replay.time))

