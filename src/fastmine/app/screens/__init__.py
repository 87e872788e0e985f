"""The app's screens, each module beside its kv file, and the loader that brings
a screen in on first use and lets it go when the player is back at the game
(``screenloader``).  The replay player and the Replays list are in
:mod:`fastmine.app.replays`, the dialogs in :mod:`fastmine.app.dialogs`.
"""
