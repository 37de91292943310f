"""The comparison behind a11y-image-name-text and a11y-hidden-image-text: lenient, so that an
OCR slip or an abbreviation never reads as a contradiction, and the TSV of two drawings read
back into one image's words."""

from __future__ import annotations

import pytest

from audit.interactive.image_text_reading import ImageReading, Word, agrees, parse


def read(*words: str) -> ImageReading:
    return ImageReading({"kind": "img"}, [Word(w, 90, (0, 0, 1, 1)) for w in words])


@pytest.mark.parametrize(
    ("words", "text", "short", "said"),
    [
        (("W3C",), "W3C logo", True, True),
        (("WSC",), "W3C logo", True, True),  # 3 and S confused
        (("W3C",), "World Wide Web Consortium", True, True),  # the digit counts the W
        (("IBM",), "International Business Machines logo", True, True),
        (("British", "Broadcasting", "Corporation"), "BBC logo", True, True),  # the other way round
        (("fb",), "Facebook logo", True, True),
        (("Harbour", "Bakerv"), "Welcome to Harbour Bakery", False, True),  # one letter off
        (("HTML5",), "HTML 5 logo", True, True),  # run together
        (("W3C",), "ERCIM logo", True, False),
        (("W3C",), "HTML 5 logo", True, False),
        (("HTML",), "W3C", True, False),
        (("ACT", "Rules"), "Failed Example 5", False, False),
    ],
)
def test_agrees(words, text, short, said):
    assert agrees(read(*words), text, short=short) is said


def test_parse_maps_the_second_drawing_back():
    header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
    rows = (
        "5\t1\t1\t1\t1\t1\t10\t20\t30\t40\t91.5\tW3C®\n"
        "5\t2\t1\t1\t1\t1\t18\t28\t30\t40\t20.0\tnoise\n"  # below the confidence read
        "5\t3\t1\t1\t1\t1\t58\t24\t60\t20\t95.0\tHTML\n"
    )
    words = parse(header + rows, 2, [(0, 0), (0, 8), (1, 8)])
    assert words[0] == [Word("W3C", 91.5, (10.0, 20.0, 30.0, 40.0))]
    assert words[1] == [Word("HTML", 95.0, (50.0, 16.0, 60.0, 20.0))]
