"""The app's one data folder, the move of old settings into it, and a settings file
that survives a full disk and is never overwritten when it cannot be read."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def _appfiles():
    from fastmine.app.services import appfiles

    return appfiles


def _clear_android_cache():
    # platformdirs remembers the Android folder it found; the tests change sys.path
    import platformdirs._android as a

    a.android_folder.cache_clear()


# ------------------------------------------------------------------ where


def test_data_folder_order(tmp_path, monkeypatch):
    af = _appfiles()
    from fastmine.files import storage

    monkeypatch.delenv("FASTMINE_APP_DATA", raising=False)
    monkeypatch.delenv("FASTMINE_DATA_DIR", raising=False)
    assert af.data_folder(platform="linux") == storage.data_dir()
    monkeypatch.setenv("FASTMINE_DATA_DIR", str(tmp_path / "shared"))
    assert af.data_folder(platform="linux") == tmp_path / "shared"
    # the shared folder is the terminal game's too: records are the same
    assert af.data_folder(platform="linux") == storage.data_dir()
    monkeypatch.setenv("FASTMINE_APP_DATA", str(tmp_path / "app"))
    assert af.data_folder(platform="linux") == tmp_path / "app"
    assert af.data_folder(tmp_path / "given", platform="linux") == tmp_path / "given"
    assert not (tmp_path / "given").exists()  # asking does not create it


def test_on_android_everything_is_in_the_apps_private_storage(monkeypatch):
    af = _appfiles()
    monkeypatch.delenv("FASTMINE_APP_DATA", raising=False)
    monkeypatch.delenv("FASTMINE_DATA_DIR", raising=False)
    monkeypatch.setenv("SHELL", "/bin/sh")  # platformdirs' own guess would pick the Unix rules
    # python-for-android runs the app from <files dir>/app
    monkeypatch.setattr(sys, "path", ["/data/user/0/org.fastmine.fastmine/files/app", *sys.path])
    _clear_android_cache()
    try:
        folder = af.data_folder(platform="android")
        old = af.kivy_settings_folder("android")
    finally:
        _clear_android_cache()
    assert folder == Path("/data/user/0/org.fastmine.fastmine/files/fastmine")
    assert old == Path("/data/user/0/org.fastmine.fastmine/files")  # Kivy: getFilesDir()


def test_old_settings_folder_is_kivys(tmp_path, monkeypatch):
    from kivy.app import App

    af = _appfiles()
    from fastmine.app.application import FastmineApp

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    (tmp_path / "xdg").mkdir()
    app = FastmineApp(data_dir=str(tmp_path / "data"))
    assert Path(App._get_user_data_dir(app)) == af.kivy_settings_folder("linux")
    assert af.kivy_settings_folder("linux") == tmp_path / "xdg" / "fastmine"


def test_config_and_cache_folders_are_the_platforms(tmp_path, monkeypatch):
    """Settings in the user configuration folder, tiles in the user cache folder
    (XDG_CONFIG_HOME and XDG_CACHE_HOME honoured); all in one folder when a data
    folder is given or set, as before."""
    af = _appfiles()
    from fastmine.files import storage

    for name in ("FASTMINE_APP_DATA", "FASTMINE_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    if sys.platform.startswith("linux"):
        assert af.config_folder(platform="linux") == tmp_path / "xdg-config" / "fastmine"
        assert af.cache_folder(platform="linux") == tmp_path / "xdg-cache" / "fastmine"
    assert af.config_folder(platform="linux") == storage.config_dir()
    assert af.cache_folder(platform="linux") == storage.cache_dir()
    assert af.config_folder(platform="linux") != af.data_folder(platform="linux")
    monkeypatch.setenv("FASTMINE_DATA_DIR", str(tmp_path / "shared"))
    assert af.config_folder(platform="linux") == tmp_path / "shared"
    assert af.cache_folder(platform="linux") == tmp_path / "shared" / "cache"
    monkeypatch.setenv("FASTMINE_APP_DATA", str(tmp_path / "app"))
    assert af.config_folder(platform="linux") == tmp_path / "app"
    assert af.cache_folder(tmp_path / "given", platform="linux") == tmp_path / "given" / "cache"
    assert not (tmp_path / "xdg-config").exists() and not (tmp_path / "given").exists()
    # The output guard's one list of owned paths holds both platform folders.
    monkeypatch.delenv("FASTMINE_APP_DATA")
    monkeypatch.delenv("FASTMINE_DATA_DIR")
    owned = [path for path, _words in storage.owned_paths()]
    assert storage.config_dir() in owned and storage.cache_dir() in owned


def _old_layout(data: Path) -> dict[str, bytes]:
    """An earlier version's data folder: settings, board views and a tile cache in it."""
    files = {"fastmine.ini": b"[game]\ntheme = dark\n", "board_views.json": b'{"9x9": [1.5, 0, 0]}',
             "cache/atlas-light-0123456789abcdef.npy": bytes(range(256)) * 64}
    for name, data_bytes in files.items():
        (data / name).parent.mkdir(parents=True, exist_ok=True)
        (data / name).write_bytes(data_bytes)
    return files


def test_old_files_move_over_once_without_loss(tmp_path):
    af = _appfiles()
    data, config, cache = tmp_path / "data", tmp_path / "config", tmp_path / "cache"
    data.mkdir()
    files = _old_layout(data)
    (data / "records.sqlite3").write_bytes(b"records stay")
    moved = af.move_old_files(data, config, cache)
    assert sorted(p.name for p in moved) == sorted(Path(n).name for n in files)
    assert (config / "fastmine.ini").read_bytes() == files["fastmine.ini"]
    assert (config / "board_views.json").read_bytes() == files["board_views.json"]
    assert (cache / "atlas-light-0123456789abcdef.npy").read_bytes() == \
        files["cache/atlas-light-0123456789abcdef.npy"]
    assert sorted(p.name for p in data.iterdir()) == ["records.sqlite3"]   # the old cache folder too
    # Idempotent: a second start moves nothing and changes nothing.
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert af.move_old_files(data, config, cache) == []
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_a_move_cut_short_loses_nothing_and_finishes_later(tmp_path, monkeypatch):
    """A crash at any point of a move: while the copy is written (nothing at the new
    place, the old file whole), or between the copy and the removal (both there,
    the same): the next start finishes the move, and no byte is lost."""
    af = _appfiles()
    from fastmine.files import storage

    data, config, cache = tmp_path / "data", tmp_path / "config", tmp_path / "cache"
    data.mkdir()
    files = _old_layout(data)

    def crash(*args, **kwargs):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as m:             # the copy fails on its way (os.replace)
        m.setattr(storage.os, "replace", crash)
        assert af.move_old_files(data, config, cache) == []
    for name, data_bytes in files.items():
        assert (data / name).read_bytes() == data_bytes
    assert not (config / "fastmine.ini").exists()
    assert [p for p in config.rglob("*.tmp")] == []
    with monkeypatch.context() as m:             # copied, then stopped before removing the old
        m.setattr(Path, "unlink", crash)
        assert af.move_old_files(data, config, cache) == []
    assert (config / "fastmine.ini").read_bytes() == (data / "fastmine.ini").read_bytes()
    assert len(af.move_old_files(data, config, cache)) == 3   # the next start finishes
    assert not (data / "fastmine.ini").exists() and not (data / "cache").exists()
    assert (config / "fastmine.ini").read_bytes() == files["fastmine.ini"]


def test_a_newer_file_in_the_new_place_wins_and_the_old_one_is_kept(tmp_path):
    af = _appfiles()
    data, config = tmp_path / "data", tmp_path / "config"
    data.mkdir()
    config.mkdir()
    (data / "fastmine.ini").write_text("[game]\ntheme = dark\n")
    (config / "fastmine.ini").write_text("[game]\ntheme = light\n")
    assert af.move_old_files(data, config, tmp_path / "cache") == []
    assert (config / "fastmine.ini").read_text() == "[game]\ntheme = light\n"
    assert (data / "fastmine.ini").read_text() == "[game]\ntheme = dark\n"   # never deleted


def test_settings_of_the_oldest_versions_move_from_kivys_folder(tmp_path):
    af = _appfiles()
    data, config, kivy = tmp_path / "data", tmp_path / "config", tmp_path / "kivy"
    data.mkdir()
    kivy.mkdir()
    (kivy / "fastmine.ini").write_text("[game]\ntheme = dark\n")
    assert af.move_old_files(data, config, tmp_path / "cache", kivy) == [kivy / "fastmine.ini"]
    assert (config / "fastmine.ini").read_text() == "[game]\ntheme = dark\n"
    assert not (kivy / "fastmine.ini").exists()
    assert af.move_old_files(data, config, tmp_path / "cache", None) == []


def test_app_moves_an_old_layout_to_the_platforms_folders(kivy_window, tmp_path, monkeypatch):
    """No folder given or set: the settings and board views of an earlier version
    move to the configuration folder, its tiles to the cache folder; the records
    stay in the data folder; the settings are the player's (dark theme)."""
    from kivydriver import Driver

    from fastmine import records

    for name in ("FASTMINE_APP_DATA", "FASTMINE_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(var, str(tmp_path / var.lower()))
    af = _appfiles()
    data, config, cache = af.data_folder(), af.config_folder(), af.cache_folder()
    if not sys.platform.startswith("linux"):
        pytest.skip("the XDG variables place the folders on Linux")
    assert data == tmp_path / "xdg_data_home" / "fastmine"
    data.mkdir(parents=True)
    files = _old_layout(data)
    window, clock = kivy_window
    drv = Driver.start(window, clock, None)
    try:
        assert (Path(drv.app.user_data_dir), Path(drv.app.config_dir), Path(drv.app.cache_dir)) == \
            (data, config, cache)
        assert drv.app.theme.name == "dark"
        assert (config / "fastmine.ini").is_file() and (config / "board_views.json").is_file()
        assert (cache / "atlas-light-0123456789abcdef.npy").read_bytes() == \
            files["cache/atlas-light-0123456789abcdef.npy"]
        drv.app.store.stats("beginner")
        assert (data / records.RECORDS_FILE).is_file()
        assert not any((data / name).exists() for name in ("fastmine.ini", "board_views.json", "cache"))
    finally:
        drv.stop()


def test_app_keeps_settings_records_and_save_in_one_folder(kivy_window, tmp_path, monkeypatch):
    """No folder given: settings (moved from Kivy's old place), records and the
    saved game all land in fastmine's shared data folder."""
    from kivydriver import Driver

    from fastmine import records
    from fastmine.files import savedgame

    shared, xdg = tmp_path / "shared", tmp_path / "xdg"
    (xdg / "fastmine").mkdir(parents=True)
    (xdg / "fastmine" / "fastmine.ini").write_text("[game]\ntheme = dark\nsound = 0\n")
    monkeypatch.delenv("FASTMINE_APP_DATA", raising=False)
    monkeypatch.setenv("FASTMINE_DATA_DIR", str(shared))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    window, clock = kivy_window
    drv = Driver.start(window, clock, None)
    try:
        assert Path(drv.app.user_data_dir) == shared
        assert drv.app.theme.name == "dark"  # the old settings were carried over
        assert (shared / "fastmine.ini").is_file()
        assert not (xdg / "fastmine" / "fastmine.ini").exists()
        drv.tap_cell(4, 4)
        drv.app.save_now()
        assert (shared / savedgame.SAVE_FILE).is_file()
        drv.app.store.stats("beginner")
        assert (shared / records.RECORDS_FILE).is_file()
        assert {"fastmine.ini", savedgame.SAVE_FILE, records.RECORDS_FILE} <= {
            p.name for p in shared.iterdir()}
        assert [p.name for p in (xdg / "fastmine").iterdir()] == []  # nothing left in the old place
    finally:
        drv.stop()


# ------------------------------------------------------------------ written safely

_FULL_DISK = """
import json, os, resource, signal, sys
os.environ["KIVY_NO_CONSOLELOG"] = "1"
from kivy.config import ConfigParser
from fastmine.app.services.appfiles import SettingsConfig, read_settings

path = {path!r}
cls = SettingsConfig if sys.argv[1] == "atomic" else ConfigParser
config = cls()
config.setdefaults("game", {{"theme": "light", "player_name": ""}})
read_settings(config, path) if cls is SettingsConfig else config.read(path)
config.set("game", "player_name", "P" * 4000)  # the new file is far bigger than the limit
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a write past the limit fails with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (1000, resource.RLIM_INFINITY))  # the disk is full
ok = config.write()
resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
print(json.dumps({{"ok": ok, "error": str(getattr(config, "write_error", ""))}}))
"""


@pytest.mark.parametrize("writer", ["atomic", "kivy"])
def test_full_disk_leaves_the_old_settings_whole(tmp_path, writer):
    """A disk that fills mid-write (RLIMIT_FSIZE: writes past 1000 bytes fail, as on a
    full disk): the app's write keeps the old file whole; Kivy's own in-place write,
    run the same way, cuts it (the failure this guards against)."""
    pytest.importorskip("resource", reason="needs RLIMIT_FSIZE (POSIX) to fill the disk")
    path = tmp_path / "fastmine.ini"
    old = "[game]\ntheme = dark\nplayer_name = Ada\n"
    path.write_text(old)
    script = _FULL_DISK.format(path=str(path))
    env = {**os.environ, "KIVY_NO_ARGS": "1", "KIVY_NO_FILELOG": "1", "KIVY_NO_CONFIG": "1"}
    res = subprocess.run([sys.executable, "-c", script, writer], capture_output=True,
                         text=True, timeout=120, env=env)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["ok"] is False
    if writer == "atomic":
        assert path.read_text() == old
        assert "27" in out["error"] or "too large" in out["error"].lower()  # EFBIG
        assert [p.name for p in tmp_path.iterdir()] == ["fastmine.ini"]  # no temp file left
    else:
        cut = path.read_text()
        assert cut != old and len(cut) == 1000 and cut.startswith("[game]")


def test_failed_settings_write_is_told_once_and_keeps_the_file(drv, data_dir, monkeypatch):
    from fastmine.app.dialogs.messages import MessageDialog
    from fastmine.app.services import appfiles

    path = data_dir / "fastmine.ini"
    before = path.read_text()

    def full(*_a, **_k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(appfiles.storage, "atomic_write_text", full)
    drv.app.config.set("game", "player_name", "Grace")
    drv.app._write_config()
    drv.app._write_config()
    drv.frames(2)
    msgs = [w for w in drv.window.children if isinstance(w, MessageDialog)]
    assert len(msgs) == 1 and "No space left on device" in msgs[0].text
    assert path.read_text() == before


def test_a_later_start_leaves_the_settings_file_alone(make_app, data_dir):
    # every start wrote the file again (an atomic replace) though no setting changed
    make_app(data_dir).stop()  # which keeps the window's size in the file
    path = data_dir / "fastmine.ini"
    first = path.stat()
    drv = make_app(data_dir)
    drv.app.new_game()  # the face button: a game like the last one
    again = path.stat()
    assert (again.st_ino, again.st_mtime_ns) == (first.st_ino, first.st_mtime_ns)
    # a board chosen on the New game screen is remembered
    drv.app.show_screen("new_game")
    drv.frames(1)
    screen = drv.app.root.get_screen("new_game")
    screen.choice = "expert"
    assert screen.start()
    drv.frames(1)
    assert "difficulty = expert" in path.read_text()


# ------------------------------------------------------------------ unreadable


@pytest.mark.parametrize("content", [
    b"theme = dark\n",                      # no [section] header
    b"[game]\ntheme = dark\ntheme = light\n",  # the same key twice
    b"[game]\nplayer_name = \xff\xfe\x00\n",  # not UTF-8
])
def test_unreadable_settings_are_kept_aside_and_the_player_told(make_app, data_dir, content):
    from fastmine.app.dialogs.messages import MessageDialog

    (data_dir / "fastmine.ini").write_bytes(content)
    drv = make_app(data_dir)
    kept = list(data_dir.glob("fastmine.ini.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == content
    msgs = [w for w in drv.window.children if isinstance(w, MessageDialog)]
    assert msgs and kept[0].name in msgs[0].text and "default settings" in msgs[0].text
    # a fresh file with the defaults takes its place, and settings are saved again
    assert drv.app.config.get("game", "theme") == "light"
    drv.app.config.set("game", "player_name", "Lin")
    drv.app._write_config()
    assert "player_name = Lin" in (data_dir / "fastmine.ini").read_text()


def test_unreadable_settings_that_cannot_be_moved_are_never_overwritten(make_app, data_dir,
                                                                      monkeypatch):
    from fastmine.app.dialogs.messages import MessageDialog
    from fastmine.app.services import appfiles

    content = b"\x00\x01 not settings"
    (data_dir / "fastmine.ini").write_bytes(content)

    def stuck(path, reason="corrupt"):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(appfiles.storage, "move_aside", stuck)
    drv = make_app(data_dir)
    msgs = [w for w in drv.window.children if isinstance(w, MessageDialog)]
    assert msgs and "left as it is" in msgs[0].text
    drv.app.config.set("game", "player_name", "Kim")
    drv.app._write_config()
    assert (data_dir / "fastmine.ini").read_bytes() == content


def test_settings_file_text_is_what_kivy_reads(tmp_path):
    """The atomic writer writes exactly what Kivy's ConfigParser reads back."""
    af = _appfiles()
    path = tmp_path / "fastmine.ini"
    c = af.SettingsConfig()
    c.setdefaults("game", {"theme": "light", "custom_rows": 20})
    assert af.read_settings(c, path) is None and path.is_file()
    c.set("game", "player_name", "Zoë = ; # [x]")
    assert c.write() is True
    from kivy.config import ConfigParser

    back = ConfigParser()
    back.read(str(path))
    assert back.get("game", "player_name") == "Zoë = ; # [x]"
    assert back.getint("game", "custom_rows") == 20
    assert path.read_text().startswith("[game]")


@pytest.mark.parametrize("kind", ["directory", "too big", "fifo"])
def test_settings_that_are_no_file_are_kept_aside_with_why(tmp_path, kind):
    """A folder, a file far too big, or a FIFO where the settings file should be:
    moved aside (never read without bound, never waited on) and the note says what
    it is; the defaults take its place."""
    af = _appfiles()
    path = tmp_path / "fastmine.ini"
    if kind == "directory":
        path.mkdir()
    elif kind == "too big":
        path.write_bytes(b"[game]\n" + b"#" * (af.MAX_SETTINGS_BYTES + 1))
    else:
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    c = af.SettingsConfig()
    c.setdefaults("game", {"theme": "light"})
    note = af.read_settings(c, path)
    assert note is not None and {"fifo": "pipe", "directory": "folder"}.get(kind, kind) in note, note
    assert len(list(tmp_path.glob("fastmine.ini.corrupt-*"))) == 1
    assert path.is_file() and "theme = light" in path.read_text()


@pytest.mark.parametrize("name", ["fastmine.ini", "board_views.json"])
@pytest.mark.parametrize("link", ["file", "folder", "hard"])
def test_a_move_through_a_link_never_removes_the_only_copy(tmp_path, name, link):
    """The new place is the old file by another name (a link to the file, a link
    to its folder, a hard link): its "same bytes" are the old file's own, so the
    old file stays (removing it left a dangling link and the defaults)."""
    af = _appfiles()
    data, config = tmp_path / "data", tmp_path / "config"
    data.mkdir()
    content = b"[game]\ntheme = dark\n" if name.endswith(".ini") else b'{"9x9": [1.5, 0, 0]}'
    (data / name).write_bytes(content)
    if link == "folder":
        real = tmp_path / "elsewhere"
        real.mkdir()
        (real / name).symlink_to(data / name)
        config.symlink_to(real, target_is_directory=True)
    else:
        config.mkdir()
        if link == "file":
            (config / name).symlink_to(data / name)
        else:
            os.link(data / name, config / name)
    assert af.move_old_files(data, config, tmp_path / "cache") == []
    assert (data / name).read_bytes() == content
    assert (config / name).read_bytes() == content


@pytest.mark.parametrize("lang", ["ru", "zh_CN"])
@pytest.mark.parametrize("content", [b"[game]\nplayer_name = \xff\xfe\x00\n", b"theme = dark\n"])
def test_a_damaged_settings_file_is_told_in_the_players_language(tmp_path, lang, content):
    """The note on a damaged settings file was the player's language around the
    reader's English ("it is not text (UTF-8)", configparser's "File contains no
    section headers"): now all of it is in the player's language (the file's name
    and a line number are the only detail kept)."""
    from fastmine.app.text import i18n

    af = _appfiles()
    path = tmp_path / "fastmine.ini"
    path.write_bytes(content)
    c = af.SettingsConfig()
    c.setdefaults("game", {"theme": "light"})
    i18n.set_language(lang)
    try:
        note = af.read_settings(c, path)
        why = i18n._("it is not text (UTF-8)") if b"\xff" in content else \
            i18n._("it is not a settings file (line {line})").format(line=1)
    finally:
        i18n.set_language("en")
    kept = next(tmp_path.glob("fastmine.ini.corrupt-*")).name
    assert note is not None and why in note and kept in note, note
    english = note.replace(kept, "").replace("UTF-8", "")
    assert not any(word in english for word in ("text", "settings", "section", "File")), note
