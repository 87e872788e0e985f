"""fastmine's Kivy app: see ``docs/app.md``; start it with ``python app/main.py``."""
