"""The Kivy App: screens, settings, theme, records, saving, sound, keyboard.

Game play lives in :class:`.controller.GameController`; this module wires
it to everything around a game: the end-of-game dialogs and the records
store, save on pause or stop and the resume offer at start, the settings
panel, the light and dark themes, sound, the keyboard and auto-pause when
the window loses focus.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.factory import Factory
from kivy.logger import Logger
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import NoTransition, ScreenManager
from kivy.uix.settings import SettingsWithSpinner

from fastmine import DIFFICULTIES, Difficulty, difficulty_name

from . import assist
from . import settings as S
from .dialogs import EndDialog, MessageDialog, ResumeDialog, end_lines, fmt_time
from .screens import AboutScreen, GameScreen, NewGameScreen, RecordsScreen
from .sounds import SoundBoard
from .store import Store, StoreError
from .theme import LIGHT, get_theme
from .tiles import Atlas

END_DIALOG_DELAY = 0.6  # seconds to see the board before the dialog covers it


class FastmineApp(App):
    """fastmine's touch and desktop Minesweeper.

    ``data_dir`` (or the ``FASTMINE_APP_DATA`` environment variable) puts
    the settings, sounds, records and saved game in one folder (tests, the
    benchmark); by default settings live in ``App.user_data_dir`` and
    records in the shared records store.  ``clock`` times the games.
    """

    title = "fastmine"
    theme = ObjectProperty(LIGHT)
    atlas = ObjectProperty(None, allownone=True)
    solver_ok = BooleanProperty(False)
    use_kivy_settings = False
    settings_cls = SettingsWithSpinner
    kv_file = os.path.join(os.path.dirname(__file__), "fastmine.kv")

    def __init__(self, data_dir: str | None = None, clock: Callable[[], float] = time.monotonic,
                 **kwargs) -> None:
        self._data_dir = data_dir or os.environ.get("FASTMINE_APP_DATA") or None
        self.clock = clock
        self.store: Store | None = None
        self.sounds: SoundBoard | None = None
        self.game_screen: GameScreen | None = None
        self.end_dialog: EndDialog | None = None
        self.resume_dialog: ResumeDialog | None = None
        self.first_frame_at: float | None = None
        self._pending_record = None
        self._events: list = []  # scheduled callbacks to cancel when the app stops
        super().__init__(**kwargs)

    # ------------------------------------------------------------ setup

    @property
    def user_data_dir(self) -> str:
        if self._data_dir:
            os.makedirs(self._data_dir, exist_ok=True)
            return self._data_dir
        return App.user_data_dir.fget(self)

    def get_application_config(self, defaultpath=None) -> str:
        return os.path.join(self.user_data_dir, "fastmine.ini")

    def load_kv(self, filename=None):
        # A second app in the same process (tests, the benchmark) must not
        # load the rules twice: every widget would get its children twice.
        from kivy.lang import Builder
        if os.path.abspath(self.kv_file) in map(os.path.abspath, Builder.files):
            return True
        return super().load_kv(filename)

    def load_config(self):
        # Kivy keeps one config named "app" per process and hands it to every
        # App; a second app (tests, the benchmark) must not inherit the first
        # one's settings, so the old one gives up the name.
        from kivy.config import ConfigParser
        try:
            old = ConfigParser.get_configparser("app")
        except KeyError:
            old = None
        if old is not None:
            old.name = ""
        return super().load_config()

    def build_config(self, config) -> None:
        for section, values in S.DEFAULTS.items():
            config.setdefaults(section, values)

    def build_settings(self, settings) -> None:
        settings.add_json_panel("fastmine", self.config, data=S.panel_json())

    @property
    def ctrl(self):
        """The game controller."""
        return self.game_screen.ctrl

    def build(self):
        cfg = self.config
        self.store = Store(self._data_dir)
        self.sounds = SoundBoard(os.path.join(self.user_data_dir, "sounds"), S.flag(cfg, "sound"))
        self.apply_theme(cfg.get(S.SECTION, "theme"))
        sm = ScreenManager(transition=NoTransition())
        self.game_screen = GameScreen(clock=self.clock, name="game")
        sm.add_widget(self.game_screen)
        ctrl = self.ctrl
        board = self.game_screen.board
        board.atlas = self.atlas
        board.cursor_color = self.theme.cursor
        board.long_press_delay = S.long_press_delay(cfg)
        ctrl.question_marks = S.flag(cfg, "question_marks")
        ctrl.rule = S.first_click(cfg)
        ctrl.bind(on_game_over=self._on_game_over, on_sound=lambda _c, name: self.sounds.play(name))
        self.new_game()
        return sm

    def on_start(self) -> None:
        Window.softinput_mode = "below_target"  # the on-screen keyboard must not hide the name field
        Window.bind(on_key_down=self._on_key_down, focus=self._on_focus, on_flip=self._on_first_flip)
        self._offer_resume()
        self._events.append(Clock.schedule_once(self._after_first_frame, 0))

    def _on_first_flip(self, *_args) -> None:
        Window.unbind(on_flip=self._on_first_flip)
        self.first_frame_at = time.perf_counter()

    def _after_first_frame(self, _dt) -> None:
        self.solver_ok = assist.available()
        if self.sounds.enabled:
            self._events.append(Clock.schedule_once(lambda _dt: self.sounds.load(), 0.5))

    def apply_theme(self, name: str) -> None:
        """Switch to the light or dark theme (new atlas, widgets rebind)."""
        theme = get_theme(name)
        self.theme = theme
        self.atlas = Atlas.for_theme(theme, cache_dir=os.path.join(self.user_data_dir, "cache"))
        Window.clearcolor = theme.bg
        if self.game_screen is not None:
            board = self.game_screen.board
            board.atlas = self.atlas
            board.cursor_color = theme.cursor

    def on_config_change(self, config, section, key, value) -> None:
        if section != S.SECTION:
            return
        if key == "question_marks":
            self.ctrl.set_question_marks(S.flag(config, key))
        elif key == "long_press_delay":
            self.game_screen.board.long_press_delay = S.long_press_delay(config)
        elif key == "first_click":
            self.ctrl.rule = S.first_click(config)
        elif key == "theme":
            self.apply_theme(value)
        elif key == "sound":
            self.sounds.enabled = S.flag(config, key)

    # ------------------------------------------------------------ navigation

    SCREENS = {"new_game": NewGameScreen, "records": RecordsScreen, "about": AboutScreen}

    def show_screen(self, name: str) -> None:
        """Go to a screen (built on first use: a faster start); leaving the game pauses it."""
        if name != "game" and self.ctrl.state == "playing":
            self.ctrl.pause()
        if not self.root.has_screen(name):
            self.root.add_widget(self.SCREENS[name](name=name))
        self.root.current = name

    def open_menu(self, button) -> None:
        """The Menu button's drop-down."""
        Factory.MainMenu().open(button)

    def open_settings(self, *largs):
        if self.ctrl.state == "playing":
            self.ctrl.pause()
        return super().open_settings(*largs)

    def _on_key_down(self, _window, key, _scancode, codepoint, _modifiers) -> bool:
        modals = [w for w in Window.children if isinstance(w, ModalView)]
        if modals:
            if key in (27, 1001):  # escape / back closes a dialog instead of the app
                if not isinstance(modals[0], ResumeDialog):
                    modals[0].dismiss()
                return True
            return False
        if self._app_settings is not None and self._app_settings.parent:
            return False
        if self.root.current != "game":
            if key in (27, 1001):  # escape / Android back: return to the game
                self.show_screen("game")
                return True
            return False
        return self.game_screen.on_key(key, codepoint)

    def _on_focus(self, _window, focus: bool) -> None:
        if not focus and self.ctrl.state == "playing":
            self.ctrl.pause()

    # ------------------------------------------------------------ games

    def current_difficulty(self) -> tuple[str, Difficulty]:
        """The difficulty the settings say new games use."""
        cfg = self.config
        name = cfg.get(S.SECTION, "difficulty")
        if name in DIFFICULTIES:
            return name, DIFFICULTIES[name]
        try:
            d = Difficulty(cfg.getint(S.SECTION, "custom_rows"), cfg.getint(S.SECTION, "custom_cols"),
                           cfg.getint(S.SECTION, "custom_mines"))
            return "custom", d
        except ValueError:
            return "beginner", DIFFICULTIES["beginner"]

    def new_game(self) -> None:
        """A new game like the last one (the face button, the n key)."""
        _name, d = self.current_difficulty()
        self.start_game(d, rule=S.first_click(self.config))

    def start_game(self, d: Difficulty, name: str | None = None, rule: str | None = None) -> None:
        """Start a game of size ``d``; ``name`` (a preset or "custom") is remembered."""
        self._flush_pending_record()
        if name is not None:
            self.config.set(S.SECTION, "difficulty", name)
        if rule is not None:
            self.ctrl.rule = rule
        self._write_config()
        try:
            self.ctrl.new_game(d.rows, d.cols, d.mines)
        except (ValueError, TypeError) as exc:
            self.show_message("Cannot start that game", str(exc))
            return
        if self.root is not None:
            self.root.current = "game"

    def _remember_size(self, rows: int, cols: int, mines: int) -> None:
        """Make new games (the face button) use this size."""
        name = difficulty_name(rows, cols, mines)
        self.config.set(S.SECTION, "difficulty", name)
        if name == "custom":
            for key, v in (("custom_rows", rows), ("custom_cols", cols), ("custom_mines", mines)):
                self.config.set(S.SECTION, key, v)
        self._write_config()

    def _write_config(self) -> None:
        try:
            self.config.write()
        except OSError as exc:
            Logger.warning(f"fastmine: cannot write settings: {exc}")

    def show_message(self, title: str, text: str) -> MessageDialog:
        """A simple message dialog."""
        d = MessageDialog(title=title, text=text)
        d.open()
        return d

    # ------------------------------------------------------------ end of game

    def _on_game_over(self, ctrl, state: str) -> None:
        g = ctrl.game
        try:
            self.store.clear_saved()
        except StoreError as exc:
            Logger.warning(f"fastmine: cannot clear the saved game: {exc}")
        st = g.stats()
        diff = difficulty_name(g.rows, g.cols, g.mine_count)
        board = diff if diff != "custom" else (g.rows, g.cols, g.mine_count)
        won = state == "won"
        note, ask = "", False
        best = None
        if won and g.assisted:
            note = "Assisted game: it counts as assisted in the records, not for best times."
        elif won:
            try:
                best = self.store.best_time(board)
                ask = self.store.is_best_time(g)
            except StoreError as exc:
                note = f"Records unavailable: {exc}"
            if ask:
                prev = f" (was {fmt_time(best.time)} by {best.name or 'someone'})" if best else ""
                note = f"New best time{prev}! Enter your name:"
            elif best is not None:
                note = f"Best time: {fmt_time(best.time)} by {best.name or 'someone'}. So close, try again!"
        # The game is stored at once (an app killed at the prompt loses nothing);
        # the name typed at the best-time prompt is set on it afterwards.
        self._pending_record = self._record(g) if ask else None
        if not ask:
            self._record(g)
        dialog = EndDialog()
        dialog.won = won
        dialog.title = "You won!" if won else "Boom! You hit a mine."
        dialog.lines = end_lines(st, won, (g.revealed_count, g.rows * g.cols - g.mine_count))
        dialog.note = note
        dialog.name = self.config.get(S.SECTION, "player_name") or self._last_name()
        dialog.ask_name = ask and self._pending_record is not None
        dialog.bind(on_name_entered=self._on_record_name, on_new_game=lambda *_a: self.new_game())
        self.end_dialog = dialog
        self._events.append(Clock.schedule_once(
            lambda _dt: dialog.open() if self.end_dialog is dialog else None, END_DIALOG_DELAY))

    def _last_name(self) -> str:
        try:
            return self.store.last_name()
        except StoreError:
            return ""

    def _record(self, game, name: str | None = None) -> int | None:
        """Store a finished game; returns its record id, or None on failure (reported)."""
        if name is None:
            name = self.config.get(S.SECTION, "player_name")
        try:
            return self.store.record_game(game, name)
        except StoreError as exc:
            why = str(exc)
            Logger.warning(f"fastmine: cannot store the game: {why}")
            self._events.append(Clock.schedule_once(
                lambda _dt: self.show_message("Records", f"The game was not recorded: {why}"), 0))
            return None

    def _on_record_name(self, dialog, name: str) -> None:
        record_id, self._pending_record = self._pending_record, None
        if record_id is None:
            return
        if name:
            self.config.set(S.SECTION, "player_name", name)
            self._write_config()
        try:
            self.store.set_name(record_id, name)
        except StoreError as exc:
            dialog.note = f"The name was not saved: {exc}"
            return
        dialog.note = f"Saved: {name or 'anonymous'}, {fmt_time(self.ctrl.game.stats().time)}."

    def _flush_pending_record(self) -> None:
        """A best-time prompt left unanswered keeps the default name already stored."""
        self._pending_record = None
        self.end_dialog = None

    # ------------------------------------------------------------ save / resume

    def save_now(self) -> None:
        """Save the unfinished game (or forget the save of a finished one)."""
        if self.resume_dialog is not None or self.game_screen is None or self.ctrl.game is None:
            return  # the old save is still on offer
        self._flush_pending_record()
        try:
            self.store.save_game(self.ctrl.game)
        except StoreError as exc:
            Logger.warning(f"fastmine: cannot save the game: {exc}")

    def _offer_resume(self) -> None:
        try:
            game = self.store.load_game(self.clock)
        except StoreError as exc:
            try:
                kept = self.store.move_saved_aside()
                where = f" It was kept as {kept}."
            except StoreError:
                where = ""
            self.show_message("Saved game not loaded", f"{exc}.{where}")
            return
        if game is None or game.state.is_over:
            return
        game.pause()  # no time passes while the offer is on screen
        name = difficulty_name(game.rows, game.cols, game.mine_count)
        d = ResumeDialog(text=f"{name.capitalize()} {game.rows} x {game.cols}, {game.mine_count} mines, "
                              f"{int(game.elapsed)} s played, {game.mines_left} mines left.")

        def resume(*_a):
            self.resume_dialog = None
            self._remember_size(game.rows, game.cols, game.mine_count)
            self.ctrl.attach(game)
            self.ctrl.pause()  # resumes hidden: the player taps to go on

        def discard(*_a):
            self.resume_dialog = None
            try:
                self.store.clear_saved()
            except StoreError as exc:
                Logger.warning(f"fastmine: cannot clear the saved game: {exc}")

        d.bind(on_resume_game=resume, on_discard=discard)
        self.resume_dialog = d
        d.open()

    def on_pause(self) -> bool:
        if self.ctrl.state == "playing":
            self.ctrl.pause()
        self.save_now()
        return True

    def on_resume(self) -> None:
        """Back from the background: the game stays paused until tapped."""

    def on_stop(self) -> None:
        for ev in self._events:
            ev.cancel()
        self.end_dialog = None
        self.save_now()
        Window.unbind(on_key_down=self._on_key_down, focus=self._on_focus, on_flip=self._on_first_flip)
        if self.game_screen is not None:
            self.ctrl.close()
