"""py3langid's language-identification model, read from its file once per process.

Reading it is about a second of CPU (LZMA, numpy) and is what a cold one-page CLI audit would
otherwise wait for in its language checks. This module imports only the standard library, so
``a11y audit`` can start the read (:func:`preload`) before it imports Trio, the driver or the
engine, and the read overlaps them, the browser's start and the page's load.
:mod:`audit.interactive.language_id` restricts the model to the languages it judges and owns
every use of it.
"""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()
_starting = threading.Lock()
_identifier: Any = None
_reading: threading.Thread | None = None


def identifier() -> Any:
    """The unrestricted ``LanguageIdentifier``, read now if no thread has read it yet (a
    caller blocks until the read in progress ends)."""
    global _identifier
    with _lock:
        if _identifier is None:
            from py3langid.langid import MODEL_FILE, LanguageIdentifier

            _identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    return _identifier


def preload() -> None:
    """Start reading the model on a daemon thread, unless it is read or being read."""
    global _reading
    with _starting:  # never _lock, which the reading thread holds for the whole read
        if _identifier is not None or _reading is not None:
            return
        _reading = threading.Thread(target=identifier, name="a11y-langid-read", daemon=True)
        _reading.start()
