"""Run a program in a pseudo terminal and read its screen with pyte.

The child gets its own session with the pty as controlling terminal, so
resizing sends it SIGWINCH just as a real terminal window would.  Reads are
polled with a timeout (no fixed sleeps): :meth:`PtyScreen.wait_for` returns
as soon as the screen shows what the test expects.
"""

from __future__ import annotations

import os
import select
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pyte

import fastmine

try:  # POSIX only; on Windows test_curses.py skips and test_plain.py needs only SRC
    import fcntl
    import termios
except ImportError:
    fcntl = termios = None  # type: ignore[assignment]

# Children import the same fastmine as the tests: the source tree during
# development, the installed package in CI.
SRC = Path(fastmine.__file__).resolve().parents[1]


def _winsize(fd: int, rows: int, cols: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def _make_ctty() -> None:  # runs in the child after setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class PtyScreen:
    """A program on a virtual ``rows`` x ``cols`` terminal."""

    def __init__(self, args: list[str], *, rows: int = 24, cols: int = 80,
                 env: dict[str, str] | None = None) -> None:
        master, slave = os.openpty()
        _winsize(slave, rows, cols)
        # LINES and COLUMNS would override the pty's size in curses (pytest-xdist's
        # workers have them set, to 24x80)
        full_env = {k: v for k, v in os.environ.items() if k not in ("LINES", "COLUMNS")}
        full_env.update({"TERM": "xterm", "PYTHONPATH": str(SRC), "LANG": "C.UTF-8",
                         "LC_ALL": "C.UTF-8", "ESCDELAY": "25"})
        full_env.update(env or {})
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "fastmine", *args], stdin=slave, stdout=slave,
            stderr=slave, env=full_env, start_new_session=True, preexec_fn=_make_ctty,
            close_fds=True)
        os.close(slave)
        self.master = master
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()

    # ------------------------------------------------------------ reading

    def pump(self, timeout: float = 0.05) -> bool:
        """Feed whatever output is ready to the screen; False once the child closed it."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the child exited and the pty is closed
            return False
        if not data:
            return False
        self.raw += data
        self.stream.feed(data)
        return True

    @property
    def lines(self) -> list[str]:
        """The screen, one string per row."""
        return list(self.screen.display)

    @property
    def text(self) -> str:
        """The whole screen as one string."""
        return "\n".join(self.screen.display)

    @property
    def words(self) -> str:
        """The screen's words in order, one space apart: a sentence wrapped
        over several rows is found whole."""
        return " ".join(" ".join(self.screen.display).split())

    def wait_for(self, what: str | Callable[[], bool], timeout: float = 15.0) -> None:
        """Poll until ``what`` (text on screen, or a predicate) holds; fail with the screen."""
        test = (lambda: what in self.text) if isinstance(what, str) else what
        deadline = time.monotonic() + timeout
        while True:
            # curses may send one frame in several writes: once the test holds,
            # let the rest of the frame arrive, so that asserts made right after
            # this call see a whole screen, not the top half of a redraw.
            if test():
                self.settle()
                if test():
                    return
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what!r}; screen:\n{self.text}")
            if not self.pump() and not test():
                raise AssertionError(f"program ended before {what!r}; screen:\n{self.text}")

    def settle(self, quiet: float = 0.05, limit: float = 2.0) -> bool:
        """Feed output until none has come for ``quiet`` s; False if the child closed the pty."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], quiet)
            if not ready:
                return True
            if not self.pump(0):
                return False
        return True

    def wait_exit(self, timeout: float = 15.0) -> int:
        """Wait for the program to end (draining its output); returns its status."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.pump(0.05) and self.proc.poll() is not None:
                break
            if self.proc.poll() is not None:
                while self.pump(0.05):
                    if not select.select([self.master], [], [], 0)[0]:
                        break
                break
        return self.proc.wait(timeout=max(0.1, deadline - time.monotonic()))

    # ------------------------------------------------------------ writing

    def send(self, keys: str | bytes) -> None:
        """Type keys (a str is encoded as UTF-8)."""
        os.write(self.master, keys.encode() if isinstance(keys, str) else keys)

    def click(self, y: int, x: int, button: int = 0) -> None:
        """A mouse press and release at screen (y, x); button 0 left, 1 middle, 2 right.

        Sent in xterm's SGR encoding (``ESC [ < b ; x ; y M`` / ``m``), which
        is what ncurses asks an ``xterm`` terminal for.
        """
        press = f"\x1b[<{button};{x + 1};{y + 1}M"
        release = f"\x1b[<{button};{x + 1};{y + 1}m"
        self.send(press + release)

    def resize(self, rows: int, cols: int) -> None:
        """Resize the terminal (the child gets SIGWINCH)."""
        self.screen.resize(rows, cols)
        _winsize(self.master, rows, cols)

    # ------------------------------------------------------------ cleanup

    def close(self) -> None:
        """Stop the program if it still runs and release the pty."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        os.close(self.master)

    def __enter__(self) -> PtyScreen:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
