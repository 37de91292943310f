"""The checks of what a careful reviewer reads in the markup and axe-core leaves out, through the
real engine: text alternatives that are file names or placeholders, links that say nothing,
justified and over-long lines, and the best practices (obsolete and spacing markup, spacer
images, layout tables, tiny, italic or capitalised text, inline colour, file links, adjacent
duplicate links) and links that open a new window unannounced. Each has a page that fails it, a look-alike it stays silent on and a page it
does not apply to; a realistic article stays silent on all of them at every level."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page
from tests.audit.checks.test_clean_pages_live import LONGREAD

PIXEL = "/audit/pixel.png"
PROSE = (
    "The harbour bakery lights its ovens at four in the morning, long before the first ferry "
    "leaves the quay. Rye dough rests overnight in cool crates, and the bakers shape it by hand "
    "while the town is still asleep. By seven the shelves are full of dark loaves, seeded rolls "
    "and the cinnamon buns that sell out first. In winter the bakery keeps the same hours, and "
    "the bakers still walk to work along the quay."
)
NARROW = "<style>p { max-width: 34em; font: 16px/1.5 sans-serif }</style>"
OWN_RULES = {
    "a11y-image-name-meaningful", "a11y-link-text-in-context", "a11y-link-text-alone",
    "a11y-adjacent-links-same-url", "a11y-link-file-type", "a11y-text-not-justified",
    "a11y-line-length", "a11y-long-passage-style", "a11y-tiny-text", "a11y-obsolete-element",
    "a11y-spacer-image", "a11y-spacing-markup", "a11y-inline-text-color", "a11y-layout-table",
    "a11y-new-window-warning",
}


def practices(result, rule_id: str) -> dict[str, tuple[str, str]]:
    """Selector -> (outcome, failure summary) of one best-practice rule's items."""
    return {
        item.selector: (item.outcome, item.failure_summary or "")
        for item in result.best_practices if item.rule_id == rule_id
    }


def img(ident: str, alt: str, src: str = PIXEL) -> str:
    return f'<img id="{ident}" src="{src}" alt="{alt}" width="40" height="40">'


async def test_image_name_meaningful(browser, site):
    results = await audit_pages(browser, site, "checks/text/images", {
        "fail": page(
            "<main><h1>Our loaves</h1>"
            + img("camera", "IMG_0042.jpg") + img("word", "Photo") + img("numbered", "image 3")
            + img("retina", "banner-2x", "/img/banner-2x.webp")
            + '<a href="/cart"><img id="control" src="/img/cart.svg" alt="icon" width="20" height="20"></a>'
            + '<form action="/search"><input id="button" type="image" src="/img/go.png" alt="button"></form>'
            + "</main>"
        ),
        "review": page(
            "<main><h1>Our loaves</h1>" + img("redundant", "Image of a dark rye loaf on a board")
            + img("long", "A dark rye loaf " + "with a cracked, floury crust and a dense crumb, " * 4)
            + img("address", "https://harbour-bakery.example") + "</main>"
        ),
        "pass": page(
            "<main><h1>Our loaves</h1>" + img("logo", "Logo") + img("w3c", "W3C", "/img/w3c.png")
            + img("rye", "A dark rye loaf on a board") + img("photo", "Photo: Ann Berg", "/img/ann_berg.jpg")
            + '<form action="/search"><input type="image" src="/img/go.png" alt="Submit"></form>'
            + '<p><img src="/img/icon.png" alt="icon" width="20" height="20"> Icon of the month</p>'
            + "</main>"
        ),
        "inapplicable": page(
            "<main><h1>Our loaves</h1>" + img("decorative", "")
            + f'<img src="{PIXEL}" alt="photo.jpg" aria-hidden="true">'
            + f'<a href="/" aria-label="Harbour Bakery home"><img src="{PIXEL}" alt="logo.png"></a></main>'
        ),
    })
    rule = "a11y-image-name-meaningful"
    fail = outcome(results["fail"], rule)
    found = {f.selector: f for f in fail.findings}
    assert set(found) == {"#camera", "#word", "#numbered", "#retina", "#control", "#button"}
    assert {(f.source, f.level, tuple(f.success_criteria), f.impact) for f in fail.findings} == {
        ("a11y", "A", ("1.1.1",), "serious")
    }
    assert 'The accessible name "IMG_0042.jpg" is a file name' in (found["#camera"].failure_summary or "")
    assert "is a placeholder word" in (found["#word"].failure_summary or "")
    assert "is a file name" in (found["#retina"].failure_summary or "")
    assert '"icon" names the kind of control' in (found["#control"].failure_summary or "")
    assert '"button" names the kind of control' in (found["#button"].failure_summary or "")
    assert found["#camera"].act_rules == [] and found["#camera"].help == f"docs/checks.md#{rule}"
    assert not fail.review
    review = outcome(results["review"], rule)
    assert not review.findings
    reasons = {r.selector: r.reason for r in review.review}
    assert set(reasons) == {"#redundant", "#long", "#address"}
    assert "starts by calling it an image" in reasons["#redundant"]
    assert "characters long" in reasons["#long"] and "is a web address" in reasons["#address"]
    passed = outcome(results["pass"], rule)
    assert passed.clean and passed.tested
    inapplicable = outcome(results["inapplicable"], rule)
    assert inapplicable.clean and not inapplicable.tested


async def test_link_text_in_context_and_alone(browser, site):
    results = await audit_pages(browser, site, "checks/text/links", {
        # Nothing around the link, and no heading before it: nothing says where it leads.
        "fail": page(
            '<div><p>Fresh rye every morning.</p><div><a id="bare" href="/rye">Click here</a></div>'
            '<footer><a id="more" href="/more">More &raquo;</a></footer></div>'
        ),
        "review": page(
            '<main><h1>News</h1><p>Summer hours start in July. <a id="sentence" href="/hours">Read more</a></p>'
            '<ul><li><a href="/bread">Bread</a></li><li><a id="listed" href="/cakes">Learn more</a></li></ul></main>'
        ),
        "pass": page(
            '<style>.hidden { position: absolute; clip: rect(0 0 0 0); width: 1px; height: 1px; overflow: hidden }</style>'
            '<main><h1>News</h1><p><a href="/hours">Read more<span class="hidden"> about summer hours</span></a></p>'
            '<p><a href="/hours" aria-label="Summer opening hours">Click here</a></p>'
            '<p><a href="/more-cakes">More cakes for weddings</a></p>'
            '<p>Source: <a id="cited" href="https://example.org/report">https://example.org/report</a></p></main>'
        ),
        # Names written as code are identifiers (API docs name functions "link" and "info").
        "inapplicable": page(
            '<main><h1>News</h1><p><a href="/hours">Summer opening hours</a></p>'
            '<ul><li><a href="/api#info"><code><span>info()</span></code></a></li>'
            '<li><a href="/api#link"><code>link</code></a></li><li><a href="/cli#details">--details</a></li>'
            '<li><a href="/cli#more"><kbd>more</kbd></a></li></ul></main>'
        ),
    }, level="AAA")
    context, alone = "a11y-link-text-in-context", "a11y-link-text-alone"
    fail = outcome(results["fail"], context)
    assert sorted(f.selector for f in fail.findings) == ["#bare", "#more"]
    [bare] = [f for f in fail.findings if f.selector == "#bare"]
    assert (bare.source, bare.level, bare.success_criteria, bare.impact) == ("a11y", "A", ["2.4.4"], "serious")
    assert 'The link text "Click here" says nothing by itself' in (bare.failure_summary or "")
    review = outcome(results["review"], context)
    assert not review.findings
    reasons = {r.selector: r.reason for r in review.review}
    assert set(reasons) == {"#sentence", "#listed"}
    assert "its sentence or paragraph" in reasons["#sentence"] and "its list" in reasons["#listed"]
    passed = outcome(results["pass"], context)  # the address has its sentence
    assert passed.clean and passed.tested
    assert not outcome(results["inapplicable"], context).tested

    # Link only (AAA): the context does not count; an address needs review.
    only = outcome(results["review"], alone)
    assert sorted(f.selector for f in only.findings) == ["#listed", "#sentence"]
    assert {(f.level, tuple(f.success_criteria), f.source) for f in only.findings} == {("AAA", ("2.4.9",), "a11y")}
    assert 'The link text "Read more" does not say where the link leads' in (
        next(f for f in only.findings if f.selector == "#sentence").failure_summary or ""
    )
    assert sorted(f.selector for f in outcome(results["fail"], alone).findings) == ["#bare", "#more"]
    cited = outcome(results["pass"], alone)
    assert not cited.findings and [r.selector for r in cited.review] == ["#cited"]
    assert "is a web address" in cited.review[0].reason
    assert not outcome(results["inapplicable"], alone).tested


async def test_adjacent_links_and_file_links(browser, site):
    card = '<a href="/rye"{attrs}><img src="' + PIXEL + '" alt="{alt}" width="40" height="40"></a>\n <a id="{ident}" href="/rye">Rye loaf</a>'
    results = await audit_pages(browser, site, "checks/text/link-practices", {
        "fail": page(
            "<main><h1>Loaves</h1><ul><li>" + card.format(attrs="", alt="Rye loaf", ident="twice") + "</li></ul>"
            '<p><a id="menu" href="/files/menu.pdf">Our menu</a></p></main>'
        ),
        "pass": page(
            "<main><h1>Loaves</h1><ul><li>"
            + card.format(attrs=' tabindex="-1" aria-hidden="true"', alt="", ident="once") + "</li>"
            + f'<li><a href="/rye"><img src="{PIXEL}" alt="Rye" width="40" height="40"></a> Rye loaf, '
            '<a href="/rye">see the loaf</a></li></ul>'
            '<p><a href="/files/menu.pdf">Our menu (PDF, 1 MB)</a></p>'
            '<p><a href="/files/prices.docx">Price list</a> (Word, 20 KB)</p></main>'
        ),
        "inapplicable": page('<main><h1>Loaves</h1><p><a href="/rye">Rye</a> and <a href="/spelt">spelt</a></p></main>'),
    }, bestPractices=True)
    adjacent = practices(results["fail"], "a11y-adjacent-links-same-url")
    assert list(adjacent) == ["#twice"]
    assert adjacent["#twice"][0] == "violation" and "lead to the same address" in adjacent["#twice"][1]
    files = practices(results["fail"], "a11y-link-file-type")
    assert list(files) == ["#menu"] and files["#menu"][0] == "needs_review"
    assert "opens a PDF file and nothing in its text or beside it says so" in files["#menu"][1]
    assert all(f.rule_id not in OWN_RULES for f in results["fail"].findings)  # best practices only
    for name in ("pass", "inapplicable"):
        assert practices(results[name], "a11y-adjacent-links-same-url") == {}, name
        assert practices(results[name], "a11y-link-file-type") == {}, name


async def test_new_window_warning(browser, site):
    hidden = '<span style="position: absolute; clip: rect(0 0 0 0); width: 1px; height: 1px; overflow: hidden">'
    results = await audit_pages(browser, site, "checks/text/new-window", {
        "fail": page(
            '<main><h1>Ferries</h1><p><a id="blank" href="/timetable" target="_blank">Ferry timetable</a></p>'
            '<p><a id="named" href="/map" target="harbour-map">Harbour map</a></p></main>'
        ),
        # An arrow icon with nothing to read, and a link in a language the check does not read.
        "review": page(
            '<main><h1>Ferries</h1><p><a id="icon" href="/timetable" target="_blank">Ferry timetable '
            '<svg aria-hidden="true" width="12" height="12"><path d="M2 2h8v8"/></svg></a></p>'
            '<p lang="fi"><a id="finnish" href="/aikataulu" target="_blank">Lauttojen aikataulu</a></p></main>'
        ),
        "pass": page(
            '<main><h1>Ferries</h1><p><a href="/timetable" target="_blank">Ferry timetable (opens in a new tab)</a></p>'
            f'<p><a href="/map" target="_blank">Harbour map{hidden} (new window)</span></a></p>'
            '<p><a href="/fares" target="_blank" aria-describedby="note">Fares</a></p>'
            '<p id="note">Links marked this way open in a new window.</p>'
            '<p><a href="/winter" target="_blank">Winter sailings</a> (opens in new window)</p>'
            '<p lang="fr"><a href="/horaires" target="_blank">Horaires des ferries (nouvel onglet)</a></p></main>'
        ),
        # Same window, a frame of the page, a fragment, a download: nothing opens a new window.
        "inapplicable": page(
            '<main><h1>Ferries</h1><p><a href="/timetable" target="_self">Ferry timetable</a> '
            '<a href="/map" target="_top">Harbour map</a> <a href="/fares" target="preview">Fares</a> '
            '<a href="#top" target="_blank">Back to top</a> <a href="/t.csv" download target="_blank">Timetable data</a></p>'
            '<iframe name="preview" title="Preview" src="about:blank"></iframe></main>'
        ),
    }, level="AAA")
    rule = "a11y-new-window-warning"
    fail = outcome(results["fail"], rule)
    assert sorted(f.selector for f in fail.findings) == ["#blank", "#named"]
    [blank] = [f for f in fail.findings if f.selector == "#blank"]
    assert (blank.source, blank.level, blank.success_criteria, blank.impact) == ("a11y", "AAA", ["3.2.5"], "moderate")
    assert "nothing in its text, description or title says so" in (blank.failure_summary or "")
    review = outcome(results["review"], rule)
    assert not review.findings
    reasons = {r.selector: r.reason for r in review.review}
    assert set(reasons) == {"#icon", "#finnish"}
    assert "a picture or a mark drawn by CSS" in reasons["#icon"] and "(fi)" in reasons["#finnish"]
    passed = outcome(results["pass"], rule)
    assert passed.clean and passed.tested
    assert not outcome(results["inapplicable"], rule).tested


async def test_justified_and_long_lines(browser, site):
    results = await audit_pages(browser, site, "checks/text/lines", {
        "fail": page(
            f'<main><h1>The bakery</h1><p id="justified" style="text-align: justify">{PROSE}</p>'
            f'<div style="width: 1000px"><p id="fixed" style="max-width: none">{PROSE}</p></div></main>',
            head=NARROW,
        ),
        # Fluid at the audited width: narrowing the window may reflow it.
        "review": page(f'<main><h1>The bakery</h1><p id="fluid">{PROSE}</p></main>'),
        "pass": page(
            f'<main><h1>The bakery</h1><p style="text-align: left">{PROSE}</p>'
            '<p style="text-align: justify">Open daily from seven.</p></main>',
            head=NARROW,
        ),
        "inapplicable": page("<main><h1>The bakery</h1><p>Open daily from seven.</p></main>", head=NARROW),
    }, level="AAA")
    justify, length = "a11y-text-not-justified", "a11y-line-length"
    [justified] = outcome(results["fail"], justify).findings
    assert (justified.selector, justified.source, justified.level, justified.success_criteria) == (
        "#justified", "a11y", "AAA", ["1.4.8"]
    )
    assert "justified (text-align: justify)" in (justified.failure_summary or "")
    [fixed] = outcome(results["fail"], length).findings
    assert (fixed.selector, fixed.source, fixed.success_criteria) == ("#fixed", "a11y", ["1.4.8"])
    assert "more than 80, and a fixed width keeps them so" in (fixed.failure_summary or "")
    review = outcome(results["review"], length)
    assert not review.findings and [r.selector for r in review.review] == ["#fluid"]
    assert "check that narrowing the window reflows them" in review.review[0].reason
    assert outcome(results["review"], justify).clean
    for rule in (justify, length):
        passed = outcome(results["pass"], rule)
        assert passed.clean and passed.tested, rule
        inapplicable = outcome(results["inapplicable"], rule)
        assert inapplicable.clean and not inapplicable.tested, rule


async def test_text_style_practices(browser, site):
    hidden = "position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0)"
    results = await audit_pages(browser, site, "checks/text/style", {
        "fail": page(
            f'<main><h1>The bakery</h1><p id="italic" style="font-style: italic">{PROSE}</p>'
            f'<p id="shouting">{PROSE.upper()}</p>'
            f'<p id="caps" style="text-transform: uppercase">{PROSE}</p>'
            '<p id="tiny" style="font-size: 7px">Prices include sales tax.</p></main>',
            head=NARROW,
        ),
        "pass": page(
            f'<main><h1 style="text-transform: uppercase">The bakery</h1><p>{PROSE}</p>'
            '<p><em>Open daily from seven, closed on the first of June.</em></p>'
            '<p style="font-size: 9px">Prices include sales tax.</p>'
            f'<span style="{hidden}; font-size: 6px">Skip the cookie notice</span>'
            '<p style="font-size: 7px; visibility: hidden">Hidden note</p>'
            '<p><sup style="font-size: 6px">1</sup> Footnote.</p></main>',
            head=NARROW,
        ),
        "inapplicable": page("<main><h1>The bakery</h1><p>Open daily from seven.</p></main>", head=NARROW),
    }, bestPractices=True)
    style = practices(results["fail"], "a11y-long-passage-style")
    assert set(style) == {"#italic", "#shouting", "#caps"}
    assert "is set in italics" in style["#italic"][1] and "is set in capital letters" in style["#caps"][1]
    assert {outcome_ for outcome_, _ in style.values()} == {"violation"}
    tiny = practices(results["fail"], "a11y-tiny-text")
    assert list(tiny) == ["#tiny"] and "rendered at 7 pixels" in tiny["#tiny"][1]
    for name in ("pass", "inapplicable"):
        assert practices(results[name], "a11y-long-passage-style") == {}, name
        assert practices(results[name], "a11y-tiny-text") == {}, name


async def test_markup_practices(browser, site):
    results = await audit_pages(browser, site, "checks/text/markup", {
        "fail": page(
            '<main><h1>The bakery</h1><center id="centred">Welcome</center>'
            '<p><font id="font" color="red">Closed today</font> <big>Big news</big> <tt>42</tt> '
            '<strike>5 euros</strike></p>'
            f'<img id="spacer" src="{PIXEL}" alt="" width="1" height="30">'
            '<p id="empty">&nbsp;</p><p id="lines">Quay Street<br id="run"><br><br>Harbour town</p>'
            '<p><span id="red" style="color: #c00">Order by noon.</span></p>'
            '<table id="layout" role="presentation"><tr><td>Menu</td><td>News</td></tr>'
            "<tr><td>Bread</td><td>Cakes</td></tr></table>"
            '<table id="frame"><tr><td><h2>Menu</h2></td><td><h2>News</h2></td></tr>'
            "<tr><td><p>Bread and cakes.</p></td><td><p>New oven.</p></td></tr></table></main>"
        ),
        "pass": page(
            "<style>.warm { color: #a00 }</style>"
            '<main><h1>The bakery</h1><p class="warm">Order by noon.</p><p></p>'
            '<p>Quay Street<br>Harbour town</p><p style="margin-top: 2em"><del>5 euros</del> 4 euros</p>'
            f'<img src="{PIXEL}" alt="" width="1" height="1">'
            "<table><tr><td>Rye</td><td>4 euros</td></tr><tr><td>Spelt</td><td>5 euros</td></tr></table>"
            '<table><caption>Hours</caption><tr><th scope="col">Day</th><th scope="col">Opens</th></tr>'
            "<tr><td>Monday</td><td>7:00</td></tr></table></main>"
        ),
        "inapplicable": page("<main><h1>The bakery</h1><div>Open daily from seven.</div></main>"),
    }, bestPractices=True)
    fail = results["fail"]
    obsolete = practices(fail, "a11y-obsolete-element")
    assert set(obsolete) == {"#centred", "#font", "big", "tt", "strike"}
    assert "The <center> element is obsolete" in obsolete["#centred"][1]
    [spacer] = practices(fail, "a11y-spacer-image").items()
    assert spacer[0] == "#spacer" and "stretched to 1 by 30 pixels" in spacer[1][1]
    spacing = practices(fail, "a11y-spacing-markup")
    assert set(spacing) == {"#empty", "#run"}
    assert "An empty paragraph" in spacing["#empty"][1] and "A run of 3 line breaks" in spacing["#run"][1]
    color = practices(fail, "a11y-inline-text-color")
    assert list(color) == ["#red"] and "(#c00)" in color["#red"][1]
    assert set(practices(fail, "a11y-layout-table")) == {"#layout", "#frame"}
    assert all(f.rule_id not in OWN_RULES for f in fail.findings)  # best practices only
    for name in ("pass", "inapplicable"):
        for rule in ("a11y-obsolete-element", "a11y-spacer-image", "a11y-spacing-markup",
                     "a11y-inline-text-color", "a11y-layout-table"):
            assert practices(results[name], rule) == {}, (name, rule)


async def test_realistic_article_is_silent_at_every_level(browser, site):
    results = await audit_pages(browser, site, "checks/text/article", {"article": LONGREAD}, level="AAA", bestPractices=True)
    result = results["article"]
    assert [(f.rule_id, f.selector) for f in result.findings if f.rule_id in OWN_RULES] == []
    assert [(r.rule_id, r.selector) for r in result.needs_review if r.rule_id in OWN_RULES] == []
    assert [(b.rule_id, b.selector) for b in result.best_practices if b.rule_id in OWN_RULES] == []
    tested = set(result.pages[0].rules_tested)
    assert {"a11y-image-name-meaningful", "a11y-text-not-justified", "a11y-line-length"} <= tested
