"""a11y-symbol-text-contrast: a row of symbols is not judged as text for contrast.

ACT rules afw4f7 (Text has minimum contrast) and 09o5cg (Text has enhanced contrast); WCAG
1.4.3 Contrast (Minimum) (AA) and 1.4.6 Contrast (Enhanced) (AAA).

The contrast criteria are about text in a human language; ACT does not apply them to text that
conveys nothing in one, such as a line of ``-=+_*%@`` used as decoration. axe-core measures any
text. The override passes an element whose text (with no child elements) holds no letter or
digit at all; an element with any letter or digit keeps axe's verdict.
"""

from cdpdriver.scripts import load_script

from .spec import Override

OVERRIDE = Override(
    name="a11y-symbol-text-contrast",
    rules=("color-contrast", "color-contrast-enhanced"),
    part="evaluate",
    targets=("color-contrast", "color-contrast-enhanced"),
    script=load_script(__package__, "symbol_text_contrast"),
    act_rules=("afw4f7", "09o5cg"),
    criteria=("1.4.3", "1.4.6"),
    description="Does not judge the contrast of text made only of symbols",
)
