"""ClickLog and VideoPlay write out their __init__ and __repr__ (dataclass compiling
them cost 0.6 ms at every start): they must be what dataclass itself would make."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import numpy as np
import pytest
from video_files import path

from fastmine.videos import play_video, read_video
from fastmine.videos.moves import ClickLog, VideoPlay


def _reference(cls: type) -> Any:
    """The class as plain @dataclass(frozen=True, eq=False) makes it from its fields."""
    return dataclasses.make_dataclass(
        cls.__name__, [(f.name, f.type, dataclasses.field(repr=f.repr))
                       for f in dataclasses.fields(cls)], frozen=True, eq=False)


def _args(cls: type) -> list[object]:
    return [np.arange(3) if i % 3 == 0 else (None if i == 1 else i)
            for i, _f in enumerate(dataclasses.fields(cls))]


@pytest.mark.parametrize("cls", [ClickLog, VideoPlay])
def test_written_out_methods_are_dataclasses_own(cls: type) -> None:
    ref = _reference(cls)
    assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert list(inspect.signature(cls).parameters.values()) == list(
        inspect.signature(ref).parameters.values())
    args = _args(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    for ours, theirs in ((cls(*args), ref(*args)),
                         (cls(**dict(zip(names, args, strict=True))),
                          ref(**dict(zip(names, args, strict=True))))):
        assert repr(ours) == repr(theirs)
        assert vars(ours) == vars(theirs)
        for name in names:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(ours, name, 0)
            with pytest.raises(dataclasses.FrozenInstanceError):
                delattr(ours, name)
    with pytest.raises(TypeError):
        cls(*args[:-1])
    with pytest.raises(TypeError):
        cls(*args, 0)


def test_a_video_play_reads_and_replaces_as_before() -> None:
    play = play_video(read_video(path("arbiter_beg.avf")))
    assert repr(play).startswith("VideoPlay(outcome='won', start_ms=") and "log=" not in repr(play)
    again = dataclasses.replace(play, flags=play.flags + 1)
    assert again.flags == play.flags + 1 and again.log is play.log
    assert dataclasses.replace(play.log, cols=5).cols == 5
