# One game's step in the batch kernel (_batch.pyx includes this file after the
# Batch class): a reveal, a flag or a chord, its reward, and the view of a
# lost or won game.  Functions of the batch and a game, not methods, only to
# keep _batch.pyx a readable size; the batch's arrays are its own, and the
# game and action were checked before (FMB_CHECK in the bounds-checked build).


cdef void fill_of(Batch self, Py_ssize_t i, Fill* f) noexcept nogil:
    """Point the flood fill ``f`` at game i's arrays."""
    f.st = self.st + i * self.P
    f.pc = self.pc + i * self.P
    f.view = self.view + i * self.N
    f.mrev = self.mk + i * self.n_actions
    f.mflag = f.mrev + self.N if self.flags else NULL
    f.n = self.P
    f.W = self.W
    f.cols = self.cols
    f.nv = self.N
    f.opened = 0
    f.stack = self.stack
    f.top = 0
    f.cap = 3 * self.N + 3


cdef void step_one(Batch self, Py_ssize_t i, int64_t a) noexcept nogil:
    """Play action ``a`` (checked in range) in game i, whose episode goes on:
    its view, mask, reward and ends."""
    cdef Py_ssize_t N = self.N, kind = a // N, cell = a - kind * N
    cdef Py_ssize_t r = cell // self.cols, c = cell - r * self.cols
    cdef Py_ssize_t R = r + 1, p = R * self.W + c + 1, k, nb, flagged, hidden
    cdef uint8_t* st = self.st + i * self.P
    cdef const int8_t* pc = self.pc + i * self.P
    cdef uint8_t* m = self.mk + i * self.n_actions
    cdef uint8_t s = st[p]
    cdef bint valid = False, exploded = False
    cdef int8_t number
    cdef Fill f
    FMB_CHECK(i >= 0 and i < self.B and kind >= 0 and kind * N < self.n_actions
              and p > self.W and p < self.P - self.W, "step: game and action in range")
    fill_of(self, i, &f)
    self.rew[i] = 0.0
    self.term[i] = 0
    self.trunc[i] = 0
    self.wn[i] = 0
    self.steps[i] += 1
    if kind == 0:
        if s == ST_HIDDEN:
            valid = True
            if not self.laid[i]:
                self._lay(i, r, c)
            self.ph[i] = PH_PLAYING
            if pc[p] == PC_MINE:
                st[p] = ST_REVEALED
                f.view[cell] = V_EXPLODED
                exploded = True
            else:
                open_safe(&f, p, R)
    elif kind == 1:
        if s == ST_HIDDEN:
            valid = True
            st[p] = ST_FLAG
            f.view[cell] = V_FLAG
            m[cell] = 0
            self.nflags[i] += 1
        elif s == ST_FLAG:
            valid = True
            st[p] = ST_HIDDEN
            f.view[cell] = V_HIDDEN
            m[cell] = 1
            self.nflags[i] -= 1
        self.left[i] = <int32_t>(self.mines - self.nflags[i])
    else:
        number = f.view[cell]
        # A revealed 0 chords too (fastmine.Game's rule): no flag around it,
        # and the hidden neighbour a flag kept closed opens.
        if s == ST_REVEALED and number >= 0:
            flagged = 0
            hidden = 0
            for k in range(8):
                if st[p + self.off[k]] == ST_FLAG:
                    flagged += 1
                elif st[p + self.off[k]] == ST_HIDDEN:
                    hidden += 1
            if flagged == number and hidden:
                valid = True
                # fastmine.Game.chord: every hidden neighbour, in this order,
                # even after one of them was a mine.
                for k in range(8):
                    nb = p + self.off[k]
                    if st[nb] != ST_HIDDEN:
                        continue
                    if pc[nb] == PC_MINE:
                        st[nb] = ST_REVEALED
                        f.view[vi(&f, nb, R + (k >= 5) - (k <= 2))] = V_EXPLODED
                        exploded = True
                    else:
                        open_safe(&f, nb, R + (k >= 5) - (k <= 2))
    self.revealed[i] += <int32_t>f.opened
    if not valid:
        self.rew[i] = self.r_invalid
        if self.invalid_ends:
            self.term[i] = 1
    else:
        self.rew[i] = self.r_progress * f.opened
        if exploded:
            self.ph[i] = PH_LOST
            self.rew[i] += self.r_loss
            self.term[i] = 1
            finish_loss(self, i)
        elif self.revealed[i] == self.safe:
            self.ph[i] = PH_WON
            self.rew[i] += self.r_win
            self.term[i] = 1
            self.wn[i] = 1
            finish_win(self, i)
    if not self.term[i] and self.max_steps and self.steps[i] >= self.max_steps:
        self.trunc[i] = 1
    if self.term[i] or self.trunc[i]:
        self.dn[i] = 1
        # The next action is ignored (the game starts a new episode): any is allowed.
        memset(m, 1, self.n_actions)


cdef void finish_loss(Batch self, Py_ssize_t i) noexcept nogil:
    """Game i's lost view (every mine shown, wrong flags marked)."""
    lost_view(self.view + i * self.N, self.pc + i * self.P, self.st + i * self.P,
              self.ml + i * self.mines, self.vof, self.mines, self.nflags[i] != 0,
              self.rows, self.cols)


cdef void finish_win(Batch self, Py_ssize_t i) noexcept nogil:
    """Game i's won view (every mine flagged) and its mines left."""
    self.nflags[i] += flag_mines(self.view + i * self.N, self.st + i * self.P,
                                 self.ml + i * self.mines, self.vof, self.mines)
    self.left[i] = <int32_t>(self.mines - self.nflags[i])


cdef void chord_mask_of(Batch self, Py_ssize_t i) noexcept nogil:
    """The chord part of game i's action mask."""
    chord_mask(self.mk + i * self.n_actions + 2 * self.N, self.st + i * self.P,
               self.view + i * self.N, self.off, self.rows, self.cols)
