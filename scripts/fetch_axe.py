#!/usr/bin/env python3
"""Fetch the pinned axe-core bundle into vendor/axe/ and verify it.

This is scripts/fetch_npm.py with vendor/axe/axe.lock.json as the lock; it
takes the same options (--check, --relock). See fetch_npm.py for the details.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fetch_npm import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(prog="fetch_axe"))
