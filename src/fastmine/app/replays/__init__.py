"""Replays in the app: the Replays list, the replay player and its board, the ways
into the player from a finished game, and videos of other clients imported.
"""
