"""Make ``src/`` importable when the project is not installed into the venv."""

import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("audit") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
