"""a11y-sensory-instructions: instructions do not point at things only by how they look or sound.

WCAG 1.3.3 Sensory Characteristics (A); failure technique F14 (content identified only by its
shape or location). No ACT rule covers it, and axe-core has no rule for it.

"Press the green button" and "use the link on the right" tell a blind user nothing, nor does
"when you hear the beep" a deaf one. The check reads the page's English text (an element's
declared language, or none) for an instruction, a sentence with a verb such as click, press,
select, use or see, that refers to something by its colour, shape, size or place on screen
("the green button", "the round icon", "the link on the right", "the right-hand menu"), by a
sound, or that says something is "shown in red". Place above or below is left alone: read in
the page's order it still holds.

- ``failed``: the sentence points at a button or a link that way, names no control of the page
  (no quoted text, no visible button's or link's name in it), and the page shows two or more
  buttons (or links): nothing but the colour, shape or place tells which one is meant.
- ``cantTell``: any other such reference (an icon, a box, an area, a sound, a colour that
  carries meaning): check that the content is identified in words too.
- ``passed``: the sentence also names the control, or the page has only one of its kind.

Other languages are not read: their text does not apply.
"""

from cdpdriver.scripts import load_script

from .spec import Check

_REFERENCE = load_script(__package__, "sensory_reference")

CHECK = Check(
    rule_id="a11y-sensory-instructions",
    act_rules=(),
    criteria=("1.3.3",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures instructions do not identify content only by its colour, shape, size, "
    "place on screen or sound",
    help="Instructions must not rely on sensory characteristics alone",
    messages={
        "pass": "The instruction identifies what it points at in words",
        "fail": 'The instruction "${data.phrase}" tells the page\'s ${data.count} ${data.kind}s apart only by '
        "how one looks or where it is: name it (its text or label) in the instruction",
        "incomplete": 'The instruction "${data.phrase}" refers to content by how it looks, sounds or where '
        "it is: check that it is also identified in words",
    },
    script=f"({_REFERENCE})('evaluate')",
    matches=f"({_REFERENCE})('matches')",
    selector="body *",
)
