"""Video and Events write their own __init__ (it fills the instance at once);
they must stay the dataclasses they were: the fields in order with their
defaults, frozen, private read-only copies of what they are given."""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest

from fastmine.videos import Events, Video, read_video
from tests.videos.video_files import path


@pytest.mark.parametrize("cls", [Video, Events])
def test_init_takes_the_fields_in_order_with_their_defaults(cls: type) -> None:
    params = list(inspect.signature(cls).parameters.values())
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        if f.default is not dataclasses.MISSING:
            assert p.default == f.default
        elif f.default_factory is not dataclasses.MISSING:
            assert dict(p.default) == f.default_factory()
        else:
            assert p.default is inspect.Parameter.empty


def test_a_video_made_by_hand_holds_private_frozen_copies() -> None:
    v = read_video(path("arbiter_beg.avf"))
    layout = np.array(v.mine_layout)
    details = {"skin": "3.1"}
    made = Video(v.source, v.format, v.format_version, v.software, v.software_version,
                 v.player, v.date, v.level, v.rows, v.cols, v.mines, layout, v.cell_size,
                 v.question_marks, v.mode, v.events, details=details)
    layout[0, 0] = not layout[0, 0]
    details["skin"] = "changed"
    assert made.mine_layout.tolist() == v.mine_layout.tolist()
    assert dict(made.details) == {"skin": "3.1"}
    assert (made.stated_time_ms, made.stated_bbbv, made.stated_outcome) == (None, None, None)
    with pytest.raises(ValueError, match="WRITEABLE"):
        made.mine_layout.flags.writeable = True
    with pytest.raises(TypeError):
        made.details["skin"] = "x"  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.rows = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.events.x = made.events.y  # type: ignore[misc]
    assert dict(Video(*[getattr(v, f.name) for f in dataclasses.fields(Video)][:16]).details) == {}
    again = dataclasses.replace(v, player="someone")
    assert again.player == "someone" and dict(again.details) == dict(v.details)
    assert repr(again) == repr(v).replace("'Tommy'", "'someone'")
    assert repr(v.events).startswith("Events(time_ms=array([")


def test_an_array_over_bytes_is_kept_and_any_other_copied() -> None:
    v = read_video(path("arbiter_beg.avf"))
    fields = [getattr(v, f.name) for f in dataclasses.fields(Video)][:16]
    fields[11] = v.mine_layout
    assert Video(*fields).mine_layout is v.mine_layout  # its memory cannot change
    for given in (np.zeros((8, 8), bool), np.zeros((8, 8), bool)[:, ::-1],
                  np.frombuffer(bytearray(64), dtype=bool).reshape(8, 8),
                  np.frombuffer(bytes(64), dtype=bool).reshape(8, 8)):
        fields[11] = given
        made = Video(*fields).mine_layout
        assert made is not given and not np.shares_memory(made, given)
        assert not made.flags.writeable
    # The readers' layouts and columns are such arrays: read-only for good.
    for a in (v.mine_layout, v.events.time_ms, v.events.row):
        assert type(a.base) is bytes
        with pytest.raises(ValueError, match="WRITEABLE"):
            a.flags.writeable = True
