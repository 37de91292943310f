"""WCAG's relative luminance of an sRGB colour and the contrast ratio of two luminances: the
arithmetic both the flash analysis and the pixel contrast read images with."""

from __future__ import annotations

_LINEAR = [((c / 255) / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4) for c in range(256)]


def luminance(r: int, g: int, b: int) -> float:
    """Relative luminance (0 black to 1 white) of an 8-bit sRGB colour."""
    return 0.2126 * _LINEAR[r] + 0.7152 * _LINEAR[g] + 0.0722 * _LINEAR[b]


def contrast(a: float, b: float) -> float:
    """The contrast ratio (1 to 21) of two relative luminances."""
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)
