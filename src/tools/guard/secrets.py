"""``--secrets FILE``: values an agent must never see, redacted from results and log lines.

A hosted agent may drive pages logged in with credentials it was never given: a password
typed by ``workflow_login`` from the operator's configuration, an API key in a page. Any of
them can come back to the agent (a page that echoes its form, an error that quotes a URL)
or land in a log. The server replaces each value, as written and percent-encoded (both
``%20`` and ``+`` spaces, upper- and lower-case hex), by ``[REDACTED:NAME]`` in every tool
result (text and structured content, keys included), every error message, every
confirmation question and every log record of the process while the server runs.

The file: one secret a line, ``NAME=value`` (NAME a letter or ``_`` then letters, digits,
``_``; the value is the rest of the line, one pair of surrounding quotes removed) or a bare
value (shown as ``[REDACTED]``); blank lines and lines starting with ``#`` are skipped.
Values shorter than ``MIN_LENGTH`` are refused: they would redact ordinary text. Errors name
the line, never its content; nothing here logs a value. Images (screenshots) and files the
server writes (HAR, traces, downloads) are not redacted.
"""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

MIN_LENGTH = 4
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEX = re.compile(r"%[0-9A-F]{2}")


def read_secrets(path: str | Path) -> tuple[tuple[str, str], ...]:
    """The ``(name, value)`` pairs of a secrets file; ``ValueError`` naming the bad line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"--secrets: cannot read {path}: {type(exc).__name__}") from None
    pairs: list[tuple[str, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        name, sep, value = stripped.partition("=")
        if sep and _NAME.fullmatch(name.strip()):
            name, value = name.strip(), _unquote(value.strip())
        else:
            name, value = "", stripped
        if len(value) < MIN_LENGTH:
            raise ValueError(f"--secrets: line {number} of {path}: a value shorter than {MIN_LENGTH} "
                             "characters would redact ordinary text")
        pairs.append((name, value))
    return tuple(pairs)


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _forms(value: str) -> set[str]:
    """How a value may appear: as is, and percent-encoded in the ways URLs and forms do."""
    forms = {value}
    for encoded in (quote(value, safe=""), quote(value, safe="/"), quote_plus(value)):
        forms.add(encoded)
        forms.add(_HEX.sub(lambda m: m.group().lower(), encoded))
    return forms


class Redactor:
    """Replaces every form of every secret in text and in JSON-like data."""

    def __init__(self, secrets: tuple[tuple[str, str], ...]) -> None:
        replacements: dict[str, str] = {}
        for name, value in secrets:
            for form in _forms(value):
                replacements.setdefault(form, f"[REDACTED:{name}]" if name else "[REDACTED]")
        self._replacements = replacements
        ordered = sorted(replacements, key=len, reverse=True)  # a longer form wins over its part
        self._pattern = re.compile("|".join(re.escape(form) for form in ordered)) if ordered else None

    def __bool__(self) -> bool:
        return self._pattern is not None

    def text(self, text: str) -> str:
        if self._pattern is None or not text:
            return text
        return self._pattern.sub(lambda m: self._replacements[m.group()], text)

    def data(self, value: Any) -> Any:
        """A copy of ``value`` with every string (dict keys too) redacted."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(k) if isinstance(k, str) else k: self.data(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.data(v) for v in value]
        return value


def redact_logs(redactor: Redactor) -> Callable[[], None]:
    """Redact every log record made from now on, whoever handles it; returns the undo.

    The record factory formats the message (and any traceback) at once and keeps only the
    redacted text, so no handler, formatter or later ``extra`` can see a value."""
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            record.msg, record.args = redactor.text(record.getMessage()), None
        except Exception:  # a malformed format string: keep nothing of it unredacted
            record.msg, record.args = redactor.text(str(record.msg)), None
        if record.exc_info and record.exc_info[0] is not None:
            record.exc_text = redactor.text("".join(traceback.format_exception(*record.exc_info)).rstrip("\n"))
        if record.stack_info:
            record.stack_info = redactor.text(record.stack_info)
        return record

    logging.setLogRecordFactory(factory)

    def undo() -> None:
        if logging.getLogRecordFactory() is factory:
            logging.setLogRecordFactory(previous)

    return undo
