"""The readers are loaded when a format is first read: reading an Arbiter video
in a fresh process loads none of the other three, and FORMATS still names,
holds and reads all four."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from video_files import path

import fastmine
from fastmine.videos import FORMATS, read_video
from fastmine.videos.avf import read_avf
from fastmine.videos.evf import read_evf
from fastmine.videos.mvf import read_mvf
from fastmine.videos.rmv import read_rmv

_SRC = str(Path(fastmine.__file__).resolve().parents[1])


def test_formats_is_a_mapping_of_the_four_readers() -> None:
    assert sorted(FORMATS) == ["avf", "evf", "mvf", "rmv"]
    assert len(FORMATS) == 4
    assert "avf" in FORMATS and "AVF" not in FORMATS and "txt" not in FORMATS
    assert dict(FORMATS) == {"avf": read_avf, "rmv": read_rmv, "mvf": read_mvf,
                             "evf": read_evf}
    assert FORMATS.get("xyz") is None
    with pytest.raises(KeyError):
        FORMATS["xyz"]
    with pytest.raises(ValueError, match=r"unknown video format 'xyz'; choose one of "
                       r"\['avf', 'evf', 'mvf', 'rmv'\]"):
        read_video(b"", format="xyz")


# EVF's reader reads Arbiter's time stamps (of videos converted from .avf) with avf's.
@pytest.mark.parametrize(("name", "fmt", "loaded"), [
    ("arbiter_beg.avf", "avf", ["avf"]), ("vienna1_beg.rmv", "rmv", ["rmv"]),
    ("clone_097.mvf", "mvf", ["mvf"]), ("meta_v3_beg.evf", "evf", ["avf", "evf"])])
def test_a_fresh_process_loads_only_the_reader_it_needs(name: str, fmt: str,
                                                       loaded: list[str]) -> None:
    code = ("import sys\n"
            "from fastmine.videos import read_video\n"
            f"v = read_video({str(path(name))!r})\n"
            "loaded = sorted(m[16:] for m in sys.modules if m.startswith('fastmine.videos.')\n"
            "                and m[16:] in ('avf', 'rmv', 'mvf', 'evf'))\n"
            "print(v.format, *loaded)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONPATH": _SRC}).stdout.split()
    assert out == [fmt, *loaded]
