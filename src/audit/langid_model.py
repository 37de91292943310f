"""py3langid's language-identification model, read from its file once per process.

Reading it is about a second of CPU (LZMA, numpy) and is what a cold one-page CLI audit would
otherwise wait for in its language checks. This module imports only the standard library, so
``a11y audit`` can start the read (:func:`preload`) before it imports Trio, the driver or the
engine, and the read overlaps them, the browser's start and the page's load.
The model is kept restricted to :data:`LANGUAGES` (the languages the checks of
:mod:`audit.interactive.language_id` judge, which own every use of it) and with its weights in
single precision: one read and one preparation per process, whoever starts it.
"""

from __future__ import annotations

import threading
from typing import Any

#: Languages the identifier chooses among (ISO 639-1, as the model labels them).
LANGUAGES: dict[str, str] = {
    "ar": "Arabic", "az": "Azerbaijani", "be": "Belarusian", "bg": "Bulgarian", "bn": "Bengali",
    "bs": "Bosnian", "ca": "Catalan", "cs": "Czech", "cy": "Welsh", "da": "Danish", "de": "German",
    "el": "Greek", "en": "English", "es": "Spanish", "et": "Estonian", "eu": "Basque", "fa": "Persian",
    "fi": "Finnish", "fr": "French", "ga": "Irish", "gl": "Galician", "gu": "Gujarati", "he": "Hebrew",
    "hi": "Hindi", "hr": "Croatian", "hu": "Hungarian", "hy": "Armenian", "id": "Indonesian",
    "is": "Icelandic", "it": "Italian", "ja": "Japanese", "ka": "Georgian", "kk": "Kazakh",
    "km": "Khmer", "kn": "Kannada", "ko": "Korean", "la": "Latin", "lt": "Lithuanian", "lv": "Latvian",
    "mk": "Macedonian", "ml": "Malayalam", "mn": "Mongolian", "mr": "Marathi", "ms": "Malay",
    "mt": "Maltese", "my": "Burmese", "ne": "Nepali", "nl": "Dutch", "no": "Norwegian",
    "nn": "Norwegian", "pa": "Punjabi", "pl": "Polish", "pt": "Portuguese", "ro": "Romanian",
    "ru": "Russian", "si": "Sinhala", "sk": "Slovak", "sl": "Slovenian", "sq": "Albanian",
    "sr": "Serbian", "sv": "Swedish", "sw": "Swahili", "ta": "Tamil", "te": "Telugu", "th": "Thai",
    "tl": "Tagalog", "tr": "Turkish", "uk": "Ukrainian", "ur": "Urdu", "uz": "Uzbek",
    "vi": "Vietnamese", "zh": "Chinese",
}

_lock = threading.Lock()
_starting = threading.Lock()
_identifier: Any = None
_reading: threading.Thread | None = None


def identifier() -> Any:
    """The ``LanguageIdentifier`` restricted to :data:`LANGUAGES`, read now if no thread has
    read it yet (a caller blocks until the read in progress ends)."""
    global _identifier
    with _lock:
        if _identifier is None:
            import numpy
            from py3langid.langid import MODEL_FILE, LanguageIdentifier

            model = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
            model.set_languages(sorted(LANGUAGES))
            # The model ships half-precision weights, which numpy multiplies slowly.
            model.nb_ptc = numpy.ascontiguousarray(model.nb_ptc, dtype=numpy.float32)
            _identifier = model
    return _identifier


def ready() -> bool:
    """Whether the model has been read."""
    return _identifier is not None


def preload() -> None:
    """Start reading the model on a daemon thread, unless it is read or being read."""
    global _reading
    with _starting:  # never _lock, which the reading thread holds for the whole read
        if _identifier is not None or _reading is not None:
            return
        _reading = threading.Thread(target=identifier, name="a11y-langid-read", daemon=True)
        _reading.start()
