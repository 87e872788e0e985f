"""The app's words and the glyphs that draw them: the translation catalogs
(``locale/``), the Language setting at work, the fonts (``fonts/`` and the
device's own), Chinese and Japanese line breaking.
"""
