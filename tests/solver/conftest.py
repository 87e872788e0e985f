"""Setup of the solver tests: their folder is importable, for the helpers beside
them (solver_fixtures, brute_force, the references)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
