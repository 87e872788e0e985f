"""A game in play: the controller that owns the game, and what helps or keeps it.

``controller`` (one :class:`fastmine.Game`, its board view and its clock),
``assist`` (the app's only door to the solver: hints, odds, solver moves),
``livecoach`` (a word after a risky move), ``sharing`` (game codes) and
``leaving`` (leaving a game or the app without losing anything).
"""
