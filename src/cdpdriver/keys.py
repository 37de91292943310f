"""Key definitions for ``Input.dispatchKeyEvent`` (US layout), combo parsing, and pressing keys.

Real key events need ``key``, ``code`` and ``windowsVirtualKeyCode`` to agree,
or pages that read ``event.code``/``keyCode`` see garbage; printable keys also
carry ``text`` so they insert characters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .session import Session


@dataclass(frozen=True)
class KeyDef:
    key: str
    code: str
    key_code: int
    text: str | None = None
    location: int = 0


MODIFIER_BITS = {"Alt": 1, "Control": 2, "Meta": 4, "Shift": 8}
_ALIASES = {
    "ctrl": "Control", "control": "Control", "cmd": "Meta", "command": "Meta", "meta": "Meta",
    "alt": "Alt", "option": "Alt", "shift": "Shift", "esc": "Escape", "return": "Enter",
    "del": "Delete", "space": " ", "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft",
    "right": "ArrowRight", "pageup": "PageUp", "pagedown": "PageDown", "ins": "Insert",
}

_NAMED: dict[str, KeyDef] = {
    "Enter": KeyDef("Enter", "Enter", 13, "\r"),
    "Tab": KeyDef("Tab", "Tab", 9),
    "Backspace": KeyDef("Backspace", "Backspace", 8),
    "Delete": KeyDef("Delete", "Delete", 46),
    "Escape": KeyDef("Escape", "Escape", 27),
    "Insert": KeyDef("Insert", "Insert", 45),
    "Home": KeyDef("Home", "Home", 36),
    "End": KeyDef("End", "End", 35),
    "PageUp": KeyDef("PageUp", "PageUp", 33),
    "PageDown": KeyDef("PageDown", "PageDown", 34),
    "ArrowUp": KeyDef("ArrowUp", "ArrowUp", 38),
    "ArrowDown": KeyDef("ArrowDown", "ArrowDown", 40),
    "ArrowLeft": KeyDef("ArrowLeft", "ArrowLeft", 37),
    "ArrowRight": KeyDef("ArrowRight", "ArrowRight", 39),
    "Shift": KeyDef("Shift", "ShiftLeft", 16, location=1),
    "Control": KeyDef("Control", "ControlLeft", 17, location=1),
    "Alt": KeyDef("Alt", "AltLeft", 18, location=1),
    "Meta": KeyDef("Meta", "MetaLeft", 91, location=1),
    "CapsLock": KeyDef("CapsLock", "CapsLock", 20),
    " ": KeyDef(" ", "Space", 32, " "),
}
for _n in range(1, 13):
    _NAMED[f"F{_n}"] = KeyDef(f"F{_n}", f"F{_n}", 111 + _n)

_PUNCTUATION = {
    "-": ("Minus", 189), "=": ("Equal", 187), "[": ("BracketLeft", 219), "]": ("BracketRight", 221),
    "\\": ("Backslash", 220), ";": ("Semicolon", 186), "'": ("Quote", 222), ",": ("Comma", 188),
    ".": ("Period", 190), "/": ("Slash", 191), "`": ("Backquote", 192),
}
_SHIFTED = dict(zip("!@#$%^&*()_+{}|:\"<>?~", "1234567890-=[]\\;',./`", strict=True))


_SHIFT_OF = {base: char for char, base in _SHIFTED.items()}


def shifted(key: KeyDef) -> KeyDef:
    """What a printable key types with Shift held on a US layout: ``a`` → ``A``, ``1`` → ``!``."""
    if len(key.key) != 1 or not key.code:
        return key
    char = key.key.upper() if key.key.isascii() and key.key.isalpha() else _SHIFT_OF.get(key.key)
    if char is None or char == key.key:
        return key
    return KeyDef(char, key.code, key.key_code, char, key.location)


class UnknownKey(ValueError):
    pass


def key_def(name: str) -> KeyDef:
    """The definition of one key name (``Enter``, ``a``, ``F5``, ``ArrowUp``)."""
    canonical = _ALIASES.get(name.lower(), name) if len(name) > 1 else name
    if canonical in _NAMED:
        return _NAMED[canonical]
    if len(canonical) == 1:
        return char_def(canonical)
    lowered = {k.lower(): v for k, v in _NAMED.items()}
    if canonical.lower() in lowered:
        return lowered[canonical.lower()]
    raise UnknownKey(f"unknown key {name!r}; use a character or a name such as Enter, Tab, Escape, ArrowDown, F5")


def char_def(char: str) -> KeyDef:
    """A printable character; characters off the US layout still insert their text."""
    if char.isalpha() and char.isascii():
        return KeyDef(char, f"Key{char.upper()}", ord(char.upper()), char)
    if char.isdigit() and char.isascii():
        return KeyDef(char, f"Digit{char}", ord(char), char)
    if char in _PUNCTUATION:
        code, key_code = _PUNCTUATION[char]
        return KeyDef(char, code, key_code, char)
    if char in _SHIFTED:
        base = char_def(_SHIFTED[char])
        return KeyDef(char, base.code, base.key_code, char)
    if char == "\n":
        return _NAMED["Enter"]
    if char == " ":
        return _NAMED[" "]
    return KeyDef(char, "", 0, char)


def parse_combo(combo: str) -> tuple[list[KeyDef], KeyDef]:
    """``"Control+Shift+a"`` → (modifiers, key); a lone ``"+"`` is the plus key."""
    if combo in ("+", ""):
        return [], key_def(combo or " ")
    parts = combo.split("+")
    if combo.endswith("++"):
        parts = [*combo[:-2].split("+"), "+"]
    *mods, last = parts
    modifiers = [key_def(m) for m in mods]
    for m in modifiers:
        if m.key not in MODIFIER_BITS:
            raise UnknownKey(f"{m.key!r} is not a modifier (use Control, Shift, Alt or Meta)")
    return modifiers, key_def(last)


def modifier_mask(modifiers: list[KeyDef]) -> int:
    mask = 0
    for m in modifiers:
        mask |= MODIFIER_BITS.get(m.key, 0)
    return mask


def key_event_params(kind: str, key: KeyDef, modifiers: int = 0) -> dict[str, Any]:
    """``Input.dispatchKeyEvent``'s parameters for one key event: text goes with a printable
    key's keyDown only, and not while Control, Alt or Meta is held (a shortcut)."""
    params: dict[str, Any] = {
        "type": kind, "key": key.key, "code": key.code, "windowsVirtualKeyCode": key.key_code,
        "nativeVirtualKeyCode": key.key_code, "modifiers": modifiers, "location": key.location,
    }
    if kind == "keyDown" and key.text and not (modifiers & 0b0111):
        params["text"] = params["unmodifiedText"] = key.text
    elif kind == "keyDown":
        params["type"] = "rawKeyDown"
    return params


async def key_event(session: Session, kind: str, key: KeyDef, modifiers: int = 0) -> None:
    await session.send("Input.dispatchKeyEvent", key_event_params(kind, key, modifiers))


def press_events(combo: str) -> list[dict[str, Any]]:
    """The ``Input.dispatchKeyEvent`` parameters of pressing and releasing a key or a combo
    such as ``Control+A``: modifiers down, the key down and up, modifiers up."""
    modifiers, key = parse_combo(combo)
    events: list[dict[str, Any]] = []
    held = 0
    for mod in modifiers:
        held |= modifier_mask([mod])
        events.append(key_event_params("keyDown", mod, held))
    if held & MODIFIER_BITS["Shift"]:
        key = shifted(key)  # Shift+a types "A", as on a real keyboard
    events += [key_event_params("keyDown", key, held), key_event_params("keyUp", key, held)]
    for mod in reversed(modifiers):
        held &= ~modifier_mask([mod])
        events.append(key_event_params("keyUp", mod, held))
    return events


async def press(session: Session, combo: str) -> None:
    """Press and release a key or a combo such as ``Control+A``, one event at a time."""
    for params in press_events(combo):
        await session.send("Input.dispatchKeyEvent", params)
