"""The example in fastmine.videos' docstring does what it says."""

from __future__ import annotations

import re

from video_files import path

import fastmine.videos
from fastmine.videos import play_video, read_video


def test_package_example() -> None:
    doc = fastmine.videos.__doc__ or ""
    shown = re.findall(r"^    # (.+)$", doc, re.M)
    video = read_video(path("arbiter_beg_gbk_name.avf"))
    play = play_video(video)
    got = [
        (video.software, video.software_version, video.player, video.level),
        (video.rows, video.cols, video.mines, len(video.events)),
        (play.outcome, play.time_ms, play.left, play.right, play.double, play.bbbv_solved),
        play.moves[0],
    ]
    assert shown == [repr(g) for g in got]
