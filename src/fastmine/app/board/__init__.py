"""The board on screen: its drawing, its touches, its place on the screen.

``boardview`` (the one widget that draws every cell), ``tiles`` and ``raster``
(the tile atlas and the painter that draws it), ``theme`` (the colours),
``effects`` (short animations), ``overview`` (scroll indicators and the fit
button of a zoomed board), ``viewport`` (where a board opens: cell size, turn,
saved views), ``gestures`` (taps, holds, pans, pinches, the wheel) and
``controls`` (which move each gesture plays).
"""
