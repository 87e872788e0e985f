"""Videos of the competitive community's clients (placeholder docstring)."""

from .errors import VideoFormatError
from .model import EventKind, Events, Video
from .moves import Move, VideoPlay, play_video
from .reading import read_video

__all__ = ["EventKind", "Events", "Move", "Video", "VideoFormatError", "VideoPlay",
           "play_video", "read_video"]
