"""The real videos in tests/data/videos and what each is known to hold.

The expected values come from the files themselves (their names, their text
fields) and were checked against ms-toollib, rawvf and sweeping-view; see
tests/data/videos/README.md for where each file comes from.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data" / "videos"

# name: (format, format_version, software, software_version, player, date (str),
#        level, (rows, cols, mines), cell_size, stated_time_ms, stated_bbbv,
#        stated_outcome, number of events)
EXPECTED = {
    "arbiter_beg.avf": ("avf", "52", "Minesweeper Arbiter", "0.52.3", "Tommy",
                        "2021-05-22 16:39:05", "beginner", (8, 8, 10), 16, 5410, 28, None, 1046),
    "arbiter_beg_gbk_name.avf": ("avf", "52", "Minesweeper Arbiter", "0.52.3", "王嘉宁",
                                 "2025-02-01 17:33:58", "beginner", (8, 8, 10), 16, 9200, 22,
                                 None, 678),
    "arbiter_beg_wrong_stated_time.avf": (
        "avf", "52", "Minesweeper Arbiter", "0.52.3", "Wang Jianing G15208",
        "2024-08-24 16:38:59", "beginner", (8, 8, 10), 16, 2610, 24, None, 830),
    "arbiter_custom_8x11.avf": ("avf", "52", "Minesweeper Arbiter", "0.52.3", "王嘉宁",
                                "2025-09-03 17:00:08", "custom", (11, 8, 7), 16, 5420, 8, None,
                                375),
    "arbiter_exp_lost.avf": ("avf", "52", "Minesweeper Arbiter", "0.52.3", "Flop",
                             "2021-11-28 12:52:24", "expert", (16, 30, 99), 16, 65620, 180, None,
                             7217),
    "vienna1_beg.rmv": ("rmv", "1", "Viennasweeper", "3.0C", "tkolar",
                        "2012-12-08 10:57:30+00:00", "beginner", (8, 8, 10), 16, 515, 2, "won",
                        66),
    "vienna1_exp_gbk_name.rmv": ("rmv", "1", "Viennasweeper", "3.0.2H", "王嘉宁",
                                 "2025-01-30 04:04:32+00:00", "expert", (16, 30, 99), 16, 98763,
                                 134, "won", 6603),
    "vienna1_int_off_board.rmv": ("rmv", "1", "Viennasweeper", "3.0.2C", "lj22f",
                                  "2015-10-31 14:53:26+00:00", "intermediate", (16, 16, 40), 16,
                                  9469, 32, "won", 731),
    "vienna2_beg_24px.rmv": ("rmv", "2", "Viennasweeper", "5.0.0a1", "Thomas Kolar",
                             "2025-02-17 12:27:57+00:00", "beginner", (8, 8, 10), 24, 6303, 32,
                             "won", 1889),
    "vienna2_preflags.rmv": ("rmv", "2", "Viennasweeper", "5.0.0b4", "Thomas Kolar",
                             "2026-01-03 17:09:22+00:00", "beginner", (8, 8, 10), 16, 16032, 16,
                             "won", 1312),
    "vienna2_utf8_nonascii.rmv": ("rmv", "2", "Viennasweeper", "5.0.0a2", "aaȑaa Kolar",
                                  "2025-06-19 00:27:01+00:00", "beginner", (8, 8, 10), 16, 670,
                                  3, "won", 109),
    "clone_097.mvf": ("mvf", "0.97", "Minesweeper Clone", "0.97 beta", "Yang Shanghai",
                      "2013-05-22 15:12:19", "expert", (16, 30, 99), 16, 36790, 125, "won", 2221),
    "clone_097_exp.mvf": ("mvf", "0.97", "Minesweeper Clone", "0.97 beta",
                          "Zhang Shen Jia(China)", "2008-01-26 00:40:32", "expert", (16, 30, 99),
                          16, 37820, 122, "won", 2456),
    "clone_097_counts.mvf": ("mvf", "0.97", "Minesweeper Clone", "0.97 beta", "Lin Jinfan",
                             "2011-08-02 22:48:04", "expert", (16, 30, 99), 16, 59620, 207, "won",
                             2060),
    "clone_2006.mvf": ("mvf", "2006", "Minesweeper Clone", "2006 release 2",
                       "Gabriel de Tarragon", "2006-11-08 21:58:40", "expert", (16, 30, 99), 16,
                       44869, None, None, 3252),
    "clone_2007_cp1252_name.mvf": ("mvf", "2007", "Minesweeper Clone", "2007 release 2",
                                   "Kamil Murañski", "2010-07-03 19:58:48", "expert",
                                   (16, 30, 99), 16, 31133, None, None, 2795),
    "clone_096.mvf": ("mvf", "0.96", "Minesweeper Clone", "0.96 beta (or earlier)",
                      "Oliver Scheer @ pwnage", "None", "expert", (16, 30, 99), 16, 38840, None,
                      None, 1304),
    "meta_v3_beg.evf": ("evf", "3", "Metasweeper", "3.1.9", "王嘉宁",
                        "2024-08-10 18:06:28.971031+00:00", "beginner", (8, 8, 10), 20, 3796, 3,
                        "won", 190),
    "meta_v3_exp.evf": ("evf", "3", "Metasweeper", "3.1.9", "Szymon_M",
                        "2024-08-30 20:11:41.386418+00:00", "expert", (16, 30, 99), 30, 69597,
                        167, "won", 7103),
    "meta_v4_custom_lost.evf": ("evf", "4", "Metasweeper", "3.3.1", "Pu Tian Yi(Hu Bei)",
                                "2026-06-30 16:34:01.558918+00:00", "custom", (8, 8, 40), 54,
                                39832, 24, None, 4493),
    "meta_v4_beg_pause.evf": ("evf", "4", "Metasweeper", "3.2.1", "匿",
                              "2025-02-18 17:13:38.358093+00:00", "beginner", (8, 8, 10), 30,
                              504985, 10, "won", 515),
}

BAD: dict[str, str] = {}
"""Real files that must be refused, and what the message says (none: a name
that is not valid UTF-8 no longer loses its game, see NOT_UTF8)."""

NOT_UTF8 = {"vienna2_utf8_invalid.rmv": "\ufffdhomas Kolar"}
"""Real files whose player's name is not valid UTF-8, and the name as read
(each bad byte a replacement character); the game is the one of
vienna2_utf8_nonascii.rmv."""

# name: (outcome, time_ms, left, right, double, bbbv_solved) by the recording
# client's rules (ms-toollib's; Clone counts a chord's right press).
PLAYED = {
    "arbiter_beg.avf": ("won", 5410, 3, 7, 26, 28),
    "arbiter_beg_gbk_name.avf": ("won", 9200, 10, 3, 8, 22),
    "arbiter_beg_wrong_stated_time.avf": ("won", 14520, 13, 16, 13, 24),
    "arbiter_custom_8x11.avf": ("won", 5420, 11, 4, 0, 8),
    "arbiter_exp_lost.avf": ("lost", 65620, 46, 46, 163, 11),
    "vienna1_beg.rmv": ("won", 515, 2, 0, 0, 2),
    "vienna1_exp_gbk_name.rmv": ("won", 98763, 37, 86, 117, 134),
    "vienna1_int_off_board.rmv": ("won", 9469, 34, 0, 0, 32),
    "vienna2_beg_24px.rmv": ("won", 6303, 13, 5, 13, 32),
    "vienna2_preflags.rmv": ("won", 16032, 7, 21, 13, 16),
    "vienna2_utf8_nonascii.rmv": ("won", 670, 1, 1, 2, 3),
    "clone_097.mvf": ("won", 36780, 93, 23, 66, 125),
    "clone_097_exp.mvf": ("won", 37810, 66, 80, 94, 122),
    "clone_097_counts.mvf": ("won", 59620, 100, 50, 69, 207),
    "clone_2006.mvf": ("won", 44869, 48, 66, 70, 117),
    "clone_2007_cp1252_name.mvf": ("won", 31133, 68, 35, 53, 109),
    "clone_096.mvf": ("won", 38840, 31, 63, 79, 115),
    "meta_v3_beg.evf": ("won", 3796, 4, 0, 0, 3),
    "meta_v3_exp.evf": ("won", 69597, 29, 98, 207, 167),
    "meta_v4_beg_pause.evf": ("won", 504985, 10, 0, 0, 10),
    "meta_v4_custom_lost.evf": ("lost", 39832, 20, 24, 0, 19),
}

ORACLE_READS = sorted(n for n in EXPECTED if EXPECTED[n][0] != "mvf" or EXPECTED[n][1] == "0.97")
"""The files ms-toollib reads (it aborts the process on the other Clone releases)."""

RAWVF = ("clone_2006.mvf", "clone_2007_cp1252_name.mvf", "clone_096.mvf")
"""Clone files checked against rawvf's output (tests/data/videos/rawvf)."""


def path(name: str) -> Path:
    return DATA / name
