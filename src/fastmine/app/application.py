"""The Kivy App: it builds the game screen and wires the app's parts together.

Game play lives in :class:`.play.controller.GameController` and the game
screen (:class:`.screens.game.GameScreen`, which also applies the settings of
its board and controller); the end of a game (records, the end dialog, a best
time's name, Undo) in :class:`.play.ending.Ending`.  This module wires them to
everything around a game: the records store, save on pause or stop and the
resume offer at start, the settings file and panel, the themes, sound, the
keyboard and auto-pause when the window loses focus.  Its mixins are the other
parts' ways in: the Language setting (:mod:`.text.languages`), leaving a game
or the app (:mod:`.play.leaving`), game codes (:mod:`.play.sharing`), the
tutorial (:mod:`.screens.tutorial`) and the replay player
(:mod:`.replays.watching`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.logger import Logger
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.modalview import ModalView

from fastmine import DIFFICULTIES, Difficulty, difficulty_name

from . import settings as S
from .board.theme import LIGHT, get_theme
from .board.tiles import Atlas
from .dialogs.messages import ConfirmDialog, MessageDialog, ResumeDialog
from .kvfiles import load_kv
from .play import assist
from .play.ending import Ending
from .play.leaving import LeavingMixin
from .play.sharing import SharingMixin
from .playerdata import PlayerData, PlayerDataError
from .replays.watching import ReplayMixin
from .screens.game import GameScreen
from .screens.screenloader import SCREENS as SCREEN_MODULES
from .screens.screenloader import Screens, screen_class
from .screens.tutorial import TutorialMixin
from .services import appfiles, haptics
from .services.sounds import SoundBoard
from .text.i18n import _, board_name, ngettext, sentence
from .text.languages import LanguageMixin

if TYPE_CHECKING:
    from .dialogs.endgame import EndDialog
    from .kivytypes import ClockEvent
    from .play.controller import GameController
    from .screens.screenloader import Screens
    from .screens.settings import SettingsScreen
    from .services.appfiles import SettingsConfig

KV_FILES = ("widgets.kv", "screens/game.kv")
"""The layouts loaded at start (beside this module), in this order: a rule
loaded later refines an earlier one for the same class.  The game screen's and
its menus' only: each other screen's load with it, on first use
(:mod:`.screenloader`), and the dialogs' with the first dialog."""


class FastmineApp(TutorialMixin, LanguageMixin, LeavingMixin, SharingMixin, ReplayMixin, App):  # type: ignore[misc]  # Kivy has no type information
    """fastmine's touch and desktop Minesweeper.

    The records, saved game and sounds live in the data folder, the settings
    and board views in the configuration folder, the drawn tiles in the cache
    folder (:mod:`.appfiles`): all three in ``data_dir`` if given (tests, the
    benchmark) or ``FASTMINE_APP_DATA`` is set; else the data folder is
    fastmine's shared one and the others are the platform's (the app's private
    storage on Android).  ``clock`` times the games.
    """

    title = "fastmine"
    # rebind: kv rules read app.theme.<colour>; without it they never see a new theme
    theme = ObjectProperty(LIGHT, rebind=True)
    atlas = ObjectProperty(None, allownone=True)
    solver_ok = BooleanProperty(True)
    """The solver can be used (the Odds and Solver buttons): checked after the first
    frame, which never waits for the solver to import; True until then, as almost
    always after."""
    use_kivy_settings = False

    def __init__(self, data_dir: str | None = None, clock: Callable[[], float] = time.monotonic,
                 **kwargs: Any) -> None:
        self._data_dir = data_dir or os.environ.get("FASTMINE_APP_DATA") or None
        self._folders: tuple[str, str, str] | None = None  # data, config, cache (see _resolve)
        self.settings_note: str | None = None  # why the settings file was not used, for the player
        self._told_settings_unsaved = False
        self._settings_changed = False  # a setting changed in memory (migrated), not yet written
        self.clock = clock
        self.store: PlayerData | None = None
        self.sounds: SoundBoard | None = None
        self.game_screen: GameScreen | None = None
        self.ending = Ending(self)  # records each finished game, its end dialog
        self.resume_dialog: ResumeDialog | None = None
        self.first_frame_at: float | None = None
        self.quit_dialog: ConfirmDialog | None = None
        self._events: list[ClockEvent] = []  # scheduled callbacks to cancel when the app stops
        super().__init__(**kwargs)

    # ------------------------------------------------------------ setup

    def _resolve(self) -> tuple[str, str, str]:
        """The data, configuration and cache folders, made on first use, with what
        earlier versions kept elsewhere moved in once (never in a folder given by
        the caller)."""
        if self._folders is None:
            data = appfiles.data_folder(self._data_dir)
            config = appfiles.config_folder(self._data_dir)
            cache = appfiles.cache_folder(self._data_dir)
            for folder in (data, config):
                folder.mkdir(parents=True, exist_ok=True)
            if not self._data_dir:
                appfiles.move_old_files(data, config, cache, appfiles.kivy_settings_folder())
            self._folders = (str(data), str(config), str(cache))
        return self._folders

    @property
    def user_data_dir(self) -> str:
        """The folder of the records, the saved game and the sounds (created)."""
        return self._resolve()[0]

    @property
    def config_dir(self) -> str:
        """The folder of the settings and the board views (created)."""
        return self._resolve()[1]

    @property
    def cache_dir(self) -> str:
        """The folder of the drawn tiles (made when a tile image is first kept)."""
        return self._resolve()[2]

    def get_application_config(self, defaultpath: str | None = None) -> str:
        return os.path.join(self.config_dir, appfiles.SETTINGS_FILE)

    def load_kv(self, filename: str | None = None) -> bool:
        # The app's rules are KV_FILES, in that order, not the one <name>.kv
        # Kivy looks for.  A second app in the same process (tests, the
        # benchmark) must not load them twice: every widget would get its
        # children twice.
        load_kv(*KV_FILES)
        return True

    def load_config(self) -> SettingsConfig:
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
        # Kivy's own loading writes in place and, on a file it cannot read,
        # silently stops saving: the settings file is read and written here.
        config = appfiles.SettingsConfig(name="app")
        config.on_write_error = self._settings_not_saved
        self.config = config
        self.build_config(config)
        self.settings_note = appfiles.read_settings(config, self.get_application_config())
        self.set_language(config.get(S.SECTION, "language"))  # before any widget is built
        self._settings_changed = S.migrate(config)  # written when the first game starts
        return config

    def build_config(self, config: SettingsConfig) -> None:
        from .board.viewport import touch_first

        for section, values in (S.touch_defaults(S.DEFAULTS) if touch_first() else S.DEFAULTS).items():
            config.setdefaults(section, values)
        config.setdefaults("window", {"width": 0, "height": 0})

    @property
    def ctrl(self) -> GameController:
        """The game controller."""
        ctrl: GameController = self._built_screen().ctrl
        return ctrl

    def _built_screen(self) -> GameScreen:
        # The game screen, which build() makes: what asks for it (the controller,
        # the board) runs after that.  Before, an AttributeError as ever.
        if self.game_screen is None:
            raise AttributeError("the app has no game screen before it is built")
        return self.game_screen

    def _records(self) -> PlayerData:
        # The records, which build() opens: every caller runs after that.
        if self.store is None:
            raise AttributeError("the app has no records before it is built")
        return self.store

    def build(self) -> Screens:
        cfg = self.config
        self.store = PlayerData(self.user_data_dir)
        self.sounds = SoundBoard(os.path.join(self.user_data_dir, "sounds"), S.flag(cfg, "sound"))
        self.apply_theme(cfg.get(S.SECTION, "theme"))
        sm = Screens()  # switches at once; releases the screens left (screenloader)
        self.game_screen = GameScreen(clock=self.clock, name="game")
        sm.add_widget(self.game_screen)
        ctrl = self.ctrl
        board = self.game_screen.board
        board.atlas = self.atlas
        board.cursor_color = self.theme.cursor
        self.game_screen.apply_settings(cfg)  # the board's and the controller's
        ctrl.bind(on_game_over=self.ending.game_over, on_sound=self._on_sound)
        self.new_game()
        return sm

    def on_start(self) -> None:
        Window.softinput_mode = "below_target"  # the on-screen keyboard must not hide the name field
        self._restore_window_size()
        Window.bind(on_key_down=self._on_key_down, focus=self._on_focus, on_flip=self._on_first_flip,
                    on_request_close=self._on_request_close)
        from .replays import videoimport

        videoimport.install(self)  # a video dropped on the window is imported
        if self.settings_note:
            self.show_message(_("Settings not loaded"), self.settings_note)
        self._offer_resume()
        if self.offer_tutorial and self.resume_dialog is None and not self.tutorial_done():
            self.start_tutorial()  # the first start: the tutorial, skippable

    def _on_first_flip(self, *_args: object) -> None:
        Window.unbind(on_flip=self._on_first_flip)
        self.first_frame_at = time.perf_counter()
        # in the next frame, not this one: a callback scheduled before the first
        # frame runs in the same tick, before it is drawn
        self._events.append(Clock.schedule_once(self._after_first_frame, 0))

    def _after_first_frame(self, _dt: float) -> None:
        """What the first frame need not wait for: the solver check (its import),
        writing the tiles drawn at a first start, the sounds."""
        Atlas.save_drawn()
        self.solver_ok = assist.available()
        if self.sounds is not None and self.sounds.enabled:
            self._events.append(Clock.schedule_once(self._load_sounds, 0.5))

    def _load_sounds(self, _dt: float) -> None:
        # the sound board of the moment (a new language builds the app again)
        if self.sounds is not None:
            self.sounds.load()

    def _on_sound(self, _ctrl: object, name: str) -> None:
        if self.sounds is not None:
            self.sounds.play(name)
        if name in ("explode", "win"):
            haptics.buzz(name, S.vibration(self.config))

    def apply_theme(self, name: str) -> None:
        """Switch to the theme ``name`` (light, dark, black) with the numbers'
        palette of the settings (new atlas, widgets rebind)."""
        theme = get_theme(name, S.number_palette(self.config))
        self.theme = theme
        # the first frame does not wait for a drawn atlas to be written
        self.atlas = Atlas.for_theme(theme, cache_dir=self.cache_dir,
                                     save_later=self.first_frame_at is None)
        Window.clearcolor = theme.bg
        if self.game_screen is not None:
            board = self.game_screen.board
            board.atlas = self.atlas
            board.cursor_color = theme.cursor

    def on_config_change(self, config: SettingsConfig, section: str, key: str, value: str) -> None:
        if section != S.SECTION or self._built_screen().apply_settings(config, key):
            return  # the game screen's settings: its board's and controller's
        if key in ("theme", "numbers"):
            self.apply_theme(config.get(S.SECTION, "theme"))
        elif key == "sound" and self.sounds is not None:
            self.sounds.enabled = S.flag(config, key)
        elif key == "language":
            self.apply_language(value)
        # vibration and animations are read where they are used

    def write_settings(self) -> None:
        """Write the settings file now (the settings screen calls it on every change)."""
        self._write_config()

    # ------------------------------------------------------------ navigation

    SCREENS = frozenset(SCREEN_MODULES)
    """The screens besides the game's, by name (each loaded on first use)."""

    def show_screen(self, name: str) -> None:
        """Go to a screen (its module, kv and widgets loaded and built on first
        use: a faster start); leaving the game pauses it."""
        if name != "game" and self.ctrl.state == "playing":
            self.ctrl.pause()
        if not self.root.has_screen(name):
            self.root.add_widget(screen_class(name)(name=name))
        self.root.current = name

    def open_settings(self, *largs: object) -> bool:
        """The settings screen (the menu, F1), in the app's theme and words;
        False if it is already open (Kivy's F1 then closes it)."""
        if self.root.current == "settings":
            return False
        self.show_screen("settings")
        return True

    def close_settings(self, *largs: object) -> bool:
        """Back to the game from the settings screen."""
        if self.root is not None and self.root.current == "settings":
            self.show_screen("game")
            return True
        return False

    def settings_screen(self) -> SettingsScreen:
        """The settings screen (built on first use)."""
        if not self.root.has_screen("settings"):
            self.root.add_widget(screen_class("settings")(name="settings"))
        screen: SettingsScreen = self.root.get_screen("settings")
        return screen

    def _on_key_down(self, _window: object, key: int, _scancode: int, codepoint: str | None,
                     _modifiers: list[str]) -> bool:
        # a dialog fading out after it was closed takes no more keys (nor touches)
        modals = [w for w in Window.children
                  if isinstance(w, ModalView) and not getattr(w, "_closing", False)]
        if modals:
            if (codepoint or "").lower() == "u" and modals[0] is self.ending.dialog:
                return self.undo_loss()  # u on the loss dialog takes the move back
            if key in (27, 1001):  # escape / back closes a dialog instead of the app
                if not isinstance(modals[0], ResumeDialog):
                    modals[0].dismiss()
                return True
            return False
        if self.root.current != "game":
            on_key = getattr(self.root.current_screen, "on_key", None)
            if on_key is not None and on_key(key, codepoint):
                return True  # the screen's own keys (the replay player's)
            if key in (27, 1001):  # escape / Android back: return to the game
                self.show_screen("game")
                return True
            return False
        if key in (27, 1001):  # escape / back on the game: pause and ask, never quit at once
            self.ask_quit()
            return True
        return self._built_screen().on_key(key, codepoint)

    def _on_focus(self, _window: object, focus: bool) -> None:
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
        """A new game like the last one (the face button, the n key); asks first
        when a game is in progress."""
        if self.tutorial_on:  # the face button in the tutorial: it ends, the game before comes back
            self.end_tutorial()

        def start() -> None:
            _name, d = self.current_difficulty()
            self.start_game(d, rule=S.first_click(self.config))

        if self.game_screen is not None and self.ctrl.game is not None:
            self.confirm_abandon(start)
        else:
            start()

    def start_game(self, d: Difficulty, name: str | None = None, rule: str | None = None) -> None:
        """Start a game of size ``d``; ``name`` (a preset or "custom") is remembered."""
        self.ending.forget()
        if name is not None:
            self.config.set(S.SECTION, "difficulty", name)
        if rule is not None:
            self.ctrl.rule = rule
        if name is not None or self._settings_changed or not os.path.exists(
                self.get_application_config()):
            # a chosen board is remembered; a game like the last one (every start)
            # changes no setting, and the file is not written again for it
            self._write_config()
        try:
            self.ctrl.new_game(d.rows, d.cols, d.mines)
        except (ValueError, TypeError) as exc:
            self.show_message(_("Cannot start that game"), str(exc))
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
        # SettingsConfig.write replaces the file atomically and reports a
        # failure through _settings_not_saved (Kivy's settings panel writes too).
        self.config.write()
        self._settings_changed = False

    def _settings_not_saved(self, exc: OSError) -> None:
        """Tell the player once per run that settings could not be saved (the old file stays)."""
        if self._told_settings_unsaved:
            return
        self._told_settings_unsaved = True
        why = exc.strerror or str(exc)
        self._events.append(Clock.schedule_once(lambda _dt: self.show_message(
            _("Settings not saved"), _("Your settings could not be saved: {why}. The settings "
                                       "file was left as it was.").format(why=why)), 0))

    def show_message(self, title: str, text: str) -> MessageDialog:
        """A simple message dialog."""
        d = MessageDialog(title=title, text=text)
        d.open()
        return d

    # ------------------------------------------------------------ end of game

    @property
    def end_dialog(self) -> EndDialog | None:
        """The end dialog of the last game, until a new game starts (:mod:`.play.ending`)."""
        return self.ending.dialog

    def undo_loss(self) -> bool:
        """Take back the move that just lost (the loss dialog's Undo, the u key):
        see :meth:`.play.ending.Ending.undo_loss`."""
        return self.ending.undo_loss()

    # ------------------------------------------------------------ save / resume

    def save_now(self) -> None:
        """Save the unfinished game (or forget the save of a finished one)."""
        game = None if self.game_screen is None else self.game_to_keep()
        if self.resume_dialog is not None or game is None:
            return  # the old save is still on offer
        self.ending.forget()
        try:
            self._records().save_game(game)
        except PlayerDataError as exc:
            Logger.warning(f"fastmine: cannot save the game: {exc}")

    def _offer_resume(self) -> None:
        try:
            game = self._records().load_game(self.clock)
        except PlayerDataError as exc:
            try:
                kept = self._records().move_saved_aside()
                where = " " + _("It was kept as {file}.").format(file=kept)
            except PlayerDataError:
                where = ""
            self.show_message(_("Saved game not loaded"), f"{exc}.{where}")
            return
        if game is None or game.state.is_over:
            return
        game.pause()  # no time passes while the offer is on screen
        name = difficulty_name(game.rows, game.cols, game.mine_count)
        nb = "\u00a0"  # no line break between a number and its unit ("0" over "s played")
        d = ResumeDialog(text=sentence([part.replace(" ", nb) for part in (
            f"{board_name(name)} {game.rows} x {game.cols}",
            ngettext("{n} mine", "{n} mines", game.mine_count).format(n=game.mine_count),
            _("{seconds} s played").format(seconds=int(game.elapsed)),
            ngettext("{n} mine left", "{n} mines left", game.mines_left).format(
                n=game.mines_left))]))

        def resume(*_a: object) -> None:
            self.resume_dialog = None
            self._remember_size(game.rows, game.cols, game.mine_count)
            self.ctrl.attach(game)
            self.ctrl.pause()  # resumes hidden: the player taps to go on

        def discard(*_a: object) -> None:
            self.resume_dialog = None
            self._count_abandoned(game)  # a game in progress, given up for a new one
            try:
                self._records().clear_saved()
            except PlayerDataError as exc:
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
        Atlas.save_drawn()  # stopped before its first frame was done with
        self.ending.stop()
        self.save_now()
        self._remember_window_size()
        Window.unbind(on_key_down=self._on_key_down, focus=self._on_focus, on_flip=self._on_first_flip,
                      on_request_close=self._on_request_close)
        if self.game_screen is not None:
            self.ctrl.close()
