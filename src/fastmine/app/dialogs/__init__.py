"""The app's dialogs (their looks in ``dialogs.kv``, loaded with the first one) and
its own file chooser.
"""
