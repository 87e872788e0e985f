"""Ways into the replay player, for the App: the end-of-game dialog's "Watch
replay", "Why did I lose?" and the coach's line, and :meth:`ReplayMixin.watch_replay`
(the Replays screen's way in too).

The player (:mod:`.player`) and the list (:mod:`.listing`) load on
first use: at the end of a game, or when the player opens one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.logger import Logger

from ..screens.screenloader import screen_class

if TYPE_CHECKING:
    from fastmine import Game
    from fastmine.replay import Replay

    from ..dialogs.endgame import EndDialog
    from .player import Coaching, ReplayScreen


class ReplayMixin:
    """The App's ways into the player (the App has ``root``, ``show_screen`` and
    ``end_dialog``)."""

    if TYPE_CHECKING:  # the App's, declared for the type checker only
        root: Any  # Kivy's ScreenManager

        @property
        def end_dialog(self) -> EndDialog | None:
            """The end dialog of the last game."""

        def show_screen(self, name: str) -> None:
            """Show the screen ``name`` (built on first use)."""

    def replay_screen(self) -> ReplayScreen:
        """The player screen (built on first use)."""
        if not self.root.has_screen("replay"):
            self.root.add_widget(screen_class("replay")(name="replay"))
        screen: ReplayScreen = self.root.get_screen("replay")
        return screen

    def watch_replay(self, replay: Replay, coaching: Coaching | None = None, at: int = 0,
                     back: Callable[[], None] | None = None, play: bool = False) -> ReplayScreen:
        """Show ``replay`` in the player after ``at`` moves, playing or paused;
        ``back`` is where Back goes (default: the game)."""
        screen = self.replay_screen()
        self.show_screen("replay")
        screen.open(replay, coaching, at=at, back=back)
        if play:
            screen.play()
        return screen

    def offer_replay(self, dialog: EndDialog, game: Game) -> None:
        """Give the end-of-game dialog the coach's line, "Watch replay" and,
        after a loss, "Why did I lose?" (the player at the losing move, the
        board as it was before it).  A game without an exact replay (resumed
        from an old save) gets neither."""
        from fastmine.replay import Replay

        from .player import analyse

        try:
            replay = Replay.from_game(game)
        except ValueError as exc:
            Logger.info(f"fastmine: no replay for this game: {exc}")
            return
        coaching = analyse(replay)
        dialog.summary = coaching.summary if coaching.verdicts is not None else ""
        dialog.can_replay = True
        lost = replay.state.value == "lost"
        dialog.can_why = lost and len(replay) > 0
        fatal = coaching.fatal
        at_loss = fatal.index if fatal is not None else max(0, len(replay) - 1)

        def back() -> None:
            # back to the game with its dialog, unless the game moved on (undo, new game)
            self.show_screen("game")
            if self.end_dialog is dialog and dialog.parent is None:
                dialog.open()

        dialog.bind(on_watch_replay=lambda *_a: self.watch_replay(replay, coaching, 0, back, play=True),
                    on_why_lost=lambda *_a: self.watch_replay(replay, coaching, at_loss, back))
