"""Sound effects synthesised with numpy: reveal, flag, explosion, win.

Nothing is downloaded: :func:`synthesize` makes each effect as 16-bit mono
samples, :func:`write_sounds` stores them as WAV files in the app's data
directory (once; the file names carry a version), and :class:`SoundBoard`
loads them with Kivy's SoundLoader and plays them when sound is on.  Where
no audio device exists (CI, a headless box) loading fails quietly and
playing does nothing.
"""

from __future__ import annotations

import io
import os
import random
import wave
from typing import Protocol

import numpy as np

RATE = 22050
VERSION = 2  # in the file names: 2 has its noise from the standard library
NAMES = ("reveal", "flag", "explode", "win")


class Sound(Protocol):
    """What is used of a loaded sound (Kivy's ``Sound``)."""

    def stop(self) -> object:
        """Stop playing (nothing if it is not playing)."""

    def play(self) -> object:
        """Play from the start."""


def _env(n: int, attack: float, decay: float) -> np.ndarray:
    t = np.arange(n) / RATE
    return np.minimum(1.0, t / max(attack, 1e-4)) * np.exp(-t / decay)


def _tone(freq: float | np.ndarray, dur: float, attack: float = 0.004,
          decay: float = 0.05) -> np.ndarray:
    n = int(RATE * dur)
    f = np.broadcast_to(np.asarray(freq, float), (n,))
    phase = 2 * np.pi * np.cumsum(f) / RATE
    wave_: np.ndarray = np.sin(phase) * _env(n, attack, decay)
    return wave_


def _noise(n: int, rng: random.Random) -> np.ndarray:
    """``n`` samples of white Gaussian noise.  From the standard library's
    generator: numpy.random (2 MB of extension modules) would be loaded for
    these few thousand samples only."""
    return np.fromiter((rng.gauss(0.0, 1.0) for _ in range(n)), float, count=n)


def synthesize(name: str, seed: int = 7) -> np.ndarray:
    """Float samples in [-1, 1] of one effect.

    >>> s = synthesize("reveal"); s.dtype, 0 < len(s) < RATE, float(abs(s).max()) <= 1
    (dtype('float64'), True, True)
    """
    rng = random.Random(seed)
    if name == "reveal":  # a short soft click
        s = _tone(np.linspace(900, 500, int(RATE * 0.06)), 0.06, decay=0.015)
        s += 0.3 * _noise(len(s), rng) * _env(len(s), 0.0005, 0.004)
    elif name == "flag":  # two quick rising blips
        a = _tone(660, 0.05, decay=0.02)
        b = _tone(990, 0.07, decay=0.03)
        s = np.concatenate([a, b])
    elif name == "explode":  # a low thump under a burst of filtered noise
        n = int(RATE * 0.7)
        noise = _noise(n, rng)
        kernel = np.ones(12) / 12
        noise = np.convolve(noise, kernel, mode="same") * 3
        s = noise * _env(n, 0.002, 0.18)
        s += 0.9 * _tone(np.linspace(110, 40, n), 0.7, decay=0.25)
    elif name == "win":  # a rising major arpeggio
        notes = [523.25, 659.25, 783.99, 1046.5]
        s = np.concatenate([_tone(f, 0.12 if i < 3 else 0.4, decay=0.08 if i < 3 else 0.25)
                            for i, f in enumerate(notes)])
    else:
        raise ValueError(f"unknown sound {name!r}; choose one of {NAMES}")
    return s / max(1e-9, float(np.abs(s).max())) * 0.8


def wav_bytes(samples: np.ndarray) -> bytes:
    """16-bit mono WAV file contents for float samples."""
    pcm = (np.clip(samples, -1, 1) * 32767).astype("<i2")
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())
    return buf.getvalue()


def write_sounds(folder: str) -> dict[str, str]:
    """Make the WAV files in ``folder`` unless they are there; name -> path."""
    from fastmine.files.storage import atomic_write_bytes

    os.makedirs(folder, exist_ok=True)
    paths = {}
    for name in NAMES:
        path = os.path.join(folder, f"{name}-v{VERSION}.wav")
        if not os.path.exists(path):
            atomic_write_bytes(path, wav_bytes(synthesize(name)))
        paths[name] = path
    return paths


class SoundBoard:
    """Loads the effects lazily and plays them when ``enabled``."""

    def __init__(self, folder: str, enabled: bool = True) -> None:
        self.folder = folder
        self.enabled = enabled
        self._sounds: dict[str, Sound] | None = None
        self.error = ""

    def load(self) -> None:
        """Write (first run) and load the effects; failures leave sound silent."""
        if self._sounds is not None:
            return
        self._sounds = {}
        try:
            from kivy.core.audio import SoundLoader

            for name, path in write_sounds(self.folder).items():
                snd = SoundLoader.load(path)
                if snd is not None:
                    self._sounds[name] = snd
        except Exception as exc:  # no audio device or provider: play nothing
            self.error = str(exc)

    def play(self, name: str) -> bool:
        """Play an effect; returns True if a sound was started."""
        if not self.enabled:
            return False
        self.load()
        snd = self._sounds.get(name) if self._sounds else None
        if snd is None:
            return False
        try:
            snd.stop()
            snd.play()
        except Exception:
            return False
        return True
