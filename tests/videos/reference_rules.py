"""A slow, literal transcription of ms-toollib's ``MinesweeperBoard.step`` (Rust, in
``base/src/videos/minesweeper_board.rs`` of eee555/ms-toollib 1.5.16), the reference
:class:`fastmine.videos.clientrules.ClientBoard` is checked against on random event
streams.  Same structure as the Rust: one ``match`` on the game state, whose arms
either return or fall through to the "playing" ``match`` on the event; boards as
lists of lists; every flood fill re-walked from scratch.

Where the Rust returns ``Err`` or panics (an index out of range, an ``assert!``),
this raises :class:`Unsupported`: ms-toollib defines nothing there, and the
comparison stops.
"""

from __future__ import annotations

UPUP, UPDOWN, UPDOWN_NF, DOWNUP, CHORDING, CHORDING_NF, DOWNUP_AC, UNDEFINED = range(8)
READY, PLAYING, WIN, LOSS, PREFLAGING = "ready", "playing", "won", "lost", "preflagging"


class Unsupported(Exception):
    """ms-toollib returns Err or panics on this event."""


def numbers(mines: list[list[bool]]) -> list[list[int]]:
    rows, cols = len(mines), len(mines[0])
    out = [[0] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if mines[r][c]:
                out[r][c] = -1
                continue
            out[r][c] = sum(mines[i][j] for i in range(max(r - 1, 0), min(r + 2, rows))
                            for j in range(max(c - 1, 0), min(c + 2, cols)))
    return out


class ReferenceBoard:
    def __init__(self, mines: list[list[bool]]) -> None:
        self.board = numbers(mines)
        self.row, self.column = len(mines), len(mines[0])
        self.game_board = [[10] * self.column for _ in range(self.row)]
        self.flaged_list: list[tuple[int, int]] = []
        self.left = self.right = self.double = 0
        self.lce = self.rce = self.dce = 0
        self.flag = 0
        self.bbbv_solved = 0
        self.mouse_state = UPUP
        self.game_board_state = READY
        self.pre_flag_num = 0
        self.middle_hold = False

    def around(self, x: int, y: int) -> list[tuple[int, int]]:
        return [(i, j) for i in range(max(1, x) - 1, min(self.row, x + 2))
                for j in range(max(1, y) - 1, min(self.column, y + 2))]

    def refresh_board(self, clicked: list[tuple[int, int]]) -> None:
        loss = False
        while clicked:
            i, j = clicked.pop()
            if self.board[i][j] > 0:
                self.game_board[i][j] = self.board[i][j]
            elif self.board[i][j] == 0:
                self.game_board[i][j] = 0
                for m, n in self.around(i, j):
                    if (i, j) != (m, n) and self.game_board[m][n] in (10, 12):
                        clicked.append((m, n))
            else:
                self.game_board[i][j] = 15
                loss = True
        if loss:
            for i in range(self.row):
                for j in range(self.column):
                    if self.game_board[i][j] == 11 and self.board[i][j] != -1:
                        self.game_board[i][j] = 14

    def is_win(self) -> bool:
        return all(self.game_board[i][j] < 10 or self.board[i][j] == -1
                   for i in range(self.row) for j in range(self.column))

    def cell_is_bbbv(self, x: int, y: int) -> bool:
        if self.board[x][y] <= 0:
            return False
        return all(self.board[i][j] != 0 for i, j in self.around(x, y))

    def cell_is_op_completed(self, x: int, y: int, mark: list[list[bool]]) -> bool:
        poses = [(x, y)]
        while poses:
            i, j = poses.pop()
            if self.board[i][j] > 0:
                continue
            if self.board[i][j] == 0:
                if self.game_board[i][j] == 11:
                    return False
                mark[i][j] = True
                for m, n in self.around(i, j):
                    if (i != m or j != n) and not mark[m][n]:
                        poses.append((m, n))
        return True

    def op_num_around_cell(self, x: int, y: int) -> int:
        mark = [[False] * self.column for _ in range(self.row)]
        n = 0
        for i, j in self.around(x, y):
            if (self.game_board[i][j] == 10 and self.board[i][j] == 0 and not mark[i][j]
                    and self.cell_is_op_completed(i, j, mark)):
                n += 1
        return n

    def left_click(self, x: int, y: int) -> int:
        self.left += 1
        if self.game_board[x][y] not in (10, 12):
            return 0
        v = self.board[x][y]
        if v == 0:
            fresh = [[False] * self.column for _ in range(self.row)]
            if self.cell_is_op_completed(x, y, fresh):
                self.bbbv_solved += 1
            self.lce += 1
            self.refresh_board([(x, y)])
            if self.is_win():
                self.game_board_state = WIN
            return 2
        if v == -1:
            self.refresh_board([(x, y)])
            self.game_board_state = LOSS
            return 4
        self.refresh_board([(x, y)])
        if self.cell_is_bbbv(x, y):
            self.bbbv_solved += 1
        self.lce += 1
        if self.is_win():
            self.game_board_state = WIN
        return 2

    def right_click(self, x: int, y: int) -> int:
        self.right += 1
        if self.game_board[x][y] < 10:
            return 0
        if self.game_board[x][y] == 10:
            self.game_board[x][y] = 11
            self.flag += 1
            if self.board[x][y] == -1:
                if (x, y) not in self.flaged_list:
                    self.rce += 1
                self.flaged_list.append((x, y))
        elif self.game_board[x][y] == 11:
            self.game_board[x][y] = 10
            self.flag -= 1
        else:
            raise Unsupported("right click on a question mark")
        return 1

    def chording_click(self, x: int, y: int) -> int:
        self.double += 1
        if self.game_board[x][y] >= 8:
            return 0
        useful = False
        cells = []
        flagged = 0
        surround = 0
        for i, j in self.around(x, y):
            if (i, j) != (x, y):
                if self.game_board[i][j] == 11:
                    flagged += 1
                if self.game_board[i][j] == 10:
                    cells.append((i, j))
                    useful = True
                    if self.board[i][j] > 0 and self.cell_is_bbbv(i, j):
                        surround += 1
        if flagged == self.game_board[x][y] and useful:
            for i, j in cells:
                if self.board[i][j] == -1:
                    self.game_board_state = LOSS
            self.dce += 1
            self.bbbv_solved += surround + self.op_num_around_cell(x, y)
            self.refresh_board(cells)
            if self.is_win():
                self.game_board_state = WIN
            return 4 if self.game_board_state == LOSS else 3
        return 0

    def clear_click_num(self) -> None:
        self.flag = 0
        self.flaged_list.clear()
        self.double = self.left = self.right = 0

    def step(self, e: str, pos: tuple[int, int]) -> int:
        on = pos[0] < self.row and pos[1] < self.column
        ms = self.mouse_state
        st = self.game_board_state
        if st == READY:
            if e in ("mv", "mc", "mr"):
                return 0
            if e == "lc":
                if ms == UPUP:
                    self.mouse_state = DOWNUP
                    if on:
                        self.game_board_state = PREFLAGING
                elif ms == UPDOWN:
                    self.mouse_state = CHORDING
                elif ms == UPDOWN_NF:
                    self.mouse_state = CHORDING_NF
                return 0
            if e == "pf":
                if not on or self.game_board[pos[0]][pos[1]] != 10:
                    raise Unsupported("pf on a marked cell")
                self.pre_flag_num += 1
                self.game_board_state = PREFLAGING
                return self.right_click(*pos)
            if e == "rc":
                if ms == UPUP:
                    self.mouse_state = UPDOWN
                    if on:
                        self.pre_flag_num = 1
                        self.game_board_state = PREFLAGING
                        return self.right_click(*pos)
                    return 0
                if ms == DOWNUP_AC:
                    self.mouse_state = CHORDING
                    return 0
            elif e == "lr":
                if ms in (CHORDING, CHORDING_NF):
                    self.mouse_state = UPDOWN
                    return 0
                if ms == DOWNUP_AC:
                    self.mouse_state = UPUP
                    return 0
                if ms in (DOWNUP, UPUP):
                    self.mouse_state = UPUP
                    return 0
            elif e == "rr":
                if ms == UPDOWN:
                    self.mouse_state = UPUP
                    return 0
                if ms == CHORDING:
                    self.mouse_state = DOWNUP_AC
                    return 0
                if ms == UPUP:
                    return 0
            elif e == "cc":
                if ms in (DOWNUP, DOWNUP_AC, UPDOWN, UPUP):
                    self.mouse_state = CHORDING
                elif ms == UPDOWN_NF:
                    self.mouse_state = CHORDING_NF
                return 0
            else:
                raise Unsupported(f"{e} before the game")
        elif st == PREFLAGING:
            if e in ("lc", "rr", "mv"):
                pass
            elif e == "lr":
                if ms == DOWNUP:
                    if not on:
                        self.mouse_state = UPUP
                        if self.pre_flag_num == 0:
                            self.game_board_state = READY
                            self.clear_click_num()
                        else:
                            self.left += 1
                        return 0
                    if self.game_board[pos[0]][pos[1]] == 10:
                        self.game_board_state = PLAYING
                        self.mouse_state = UPUP
                        return self.left_click(*pos)
                    self.left += 1
                    return 0
            elif e == "pf":
                if not on or self.game_board[pos[0]][pos[1]] != 10:
                    raise Unsupported("pf on a marked cell")
                self.pre_flag_num += 1
                return self.right_click(*pos)
            elif e == "rc":
                if ms == UPUP:
                    if on:
                        self.mouse_state = UPDOWN
                        if self.game_board[pos[0]][pos[1]] == 10:
                            self.pre_flag_num += 1
                            self.game_board_state = PREFLAGING
                        else:
                            self.pre_flag_num -= 1
                            if self.pre_flag_num == 0:
                                self.game_board_state = READY
                                self.flag = 0
                                self.flaged_list.clear()
                                self.double = self.left = self.right = 0
                                self.game_board[pos[0]][pos[1]] = 10
                                return 0
                        return self.right_click(*pos)
                    self.mouse_state = UPDOWN_NF
                    self.right += 1
                elif ms == DOWNUP:
                    self.mouse_state = CHORDING
                    if on and self.pre_flag_num == 0:
                        self.game_board_state = READY
                elif ms == DOWNUP_AC:
                    self.mouse_state = CHORDING
                else:
                    raise Unsupported("rc with a button already down")
            elif e == "cc":
                if ms == DOWNUP:
                    if on and self.pre_flag_num == 0:
                        self.game_board_state = READY
                    self.mouse_state = CHORDING
                elif ms in (DOWNUP_AC, UPDOWN, UPUP):
                    self.mouse_state = CHORDING
                elif ms == UPDOWN_NF:
                    self.mouse_state = CHORDING_NF
                else:
                    raise Unsupported("cc while chording")
                return 0
            elif e == "mc":
                self.middle_hold = True
            elif e == "mr":
                self.middle_hold = False
            else:
                raise Unsupported(f"{e} while preflagging")
        elif st != PLAYING:
            return 0
        # The "playing" match, reached by every arm above that did not return.
        ms = self.mouse_state
        if e == "lc":
            self.mouse_state = {UPUP: DOWNUP, UPDOWN: CHORDING, UPDOWN_NF: CHORDING_NF,
                                UNDEFINED: DOWNUP}.get(ms, ms)
        elif e == "lr":
            if ms == DOWNUP:
                self.mouse_state = UPUP
                if not on:
                    self.left += 1
                    return 0
                return self.left_click(*pos)
            if ms == CHORDING:
                self.mouse_state = UPDOWN
                return self.chording_click(*pos) if on else 0
            if ms == DOWNUP_AC:
                self.mouse_state = UPUP
            elif ms == CHORDING_NF:
                self.mouse_state = UPDOWN
                self.right -= 1
                return self.chording_click(*pos) if on else 0
            elif ms in (UPUP, UNDEFINED):
                self.mouse_state = UPUP
        elif e == "rc":
            if ms == UPUP:
                if on:
                    self.mouse_state = UPDOWN_NF if self.game_board[pos[0]][pos[1]] < 10 \
                        else UPDOWN
                    return self.right_click(*pos)
                self.mouse_state = UPDOWN_NF
                self.right += 1
            elif ms in (DOWNUP, DOWNUP_AC):
                self.mouse_state = CHORDING
            elif ms == UNDEFINED:
                self.mouse_state = UPDOWN
        elif e == "rr":
            if ms in (UPDOWN, UPDOWN_NF):
                self.mouse_state = UPUP
            elif ms == CHORDING:
                self.mouse_state = DOWNUP_AC
                return self.chording_click(*pos) if on else 0
            elif ms == CHORDING_NF:
                self.mouse_state = DOWNUP_AC
                self.right -= 1
                return self.chording_click(*pos) if on else 0
            elif ms in (UPUP, UNDEFINED):
                self.mouse_state = UPUP
        elif e == "mv":
            pass
        elif e == "mc":
            self.middle_hold = True
        elif e == "mr":
            self.middle_hold = False
            if not on:
                raise Unsupported("middle release off the board (an index out of range)")
            return self.chording_click(*pos)
        elif e == "cc":
            if ms in (DOWNUP, DOWNUP_AC, UPDOWN, UPUP):
                self.mouse_state = CHORDING
            elif ms == UPDOWN_NF:
                self.mouse_state = CHORDING_NF
            else:
                raise Unsupported("cc while chording")
        else:
            raise Unsupported(f"{e} while playing")
        return 0
