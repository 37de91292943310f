"""The structure, table and form checks of our own (a11y-…) through the real engine: for each, a
page that fails it (or needs review), a look-alike it must stay silent on, and a page it does
not apply to, audited a few at a time in one shared browser (the interactive pass is off: these
checks read the DOM and its layout only)."""

from __future__ import annotations

from tests.audit.checks.support import audit_pages, outcome, page

STATIC = {"checks": {"interaction": False}}
STYLE = (
    "<style>body { font: 16px/1.5 sans-serif; margin: 1em; } h2, .title { font-size: 24px; "
    "font-weight: 700; margin: 1em 0 .5em; } .cols > div { display: flex; } "
    ".cols span { width: 9em; }</style>"
)
STORY = "<p>The bakery opens at seven and sells out of rye bread by noon on most days.</p>"


def styled(body: str) -> str:
    return page(f"<main>{body}</main>", head=STYLE)


async def audit(browser, site, prefix, pages, **request):
    return await audit_pages(browser, site, f"checks/structure/{prefix}", pages, **{**STATIC, **request})


def finding_of(result, rule_id):
    [finding] = outcome(result, rule_id).findings
    assert (finding.source, finding.rule_id) == ("a11y", rule_id)
    assert finding.help == f"docs/checks.md#{rule_id}"
    return finding


def review_of(result, rule_id):
    state = outcome(result, rule_id)
    assert not state.findings
    [item] = state.review
    assert (item.source, item.rule_id) == ("a11y", rule_id)
    return item


def silent(result, rule_id, tested=True):
    state = outcome(result, rule_id)
    assert state.clean and state.tested is tested, (rule_id, state)


async def test_visual_heading(browser, site):
    results = await audit(browser, site, "heading", {
        "fail": styled(f"<h1>News</h1><h2>Opening hours</h2>{STORY}<p class=\"title\">Our bread</p>{STORY}"),
        "review": styled(f"<h1>News</h1>{STORY}<div style=\"font-weight: 700\">Our bread</div>{STORY}"),
        "pass": styled(
            f"<h1>News</h1><h2 class=\"title\">Our bread</h2>{STORY}<p><b>Price: 3 euros</b></p>{STORY}"
            f"<p>See you soon</p>{STORY}"
        ),
        "inapplicable": styled(f"<h1>News</h1>{STORY}"),
    })
    finding = finding_of(results["fail"], "a11y-visual-heading")
    assert (finding.selector, finding.success_criteria, finding.level) == (".title", ["1.3.1"], "A")
    assert "looks exactly like the page's headings" in (finding.failure_summary or "")
    item = review_of(results["review"], "a11y-visual-heading")
    assert item.selector == "div" and "styled like a heading" in item.reason
    silent(results["pass"], "a11y-visual-heading")
    silent(results["inapplicable"], "a11y-visual-heading", tested=False)


async def test_text_list(browser, site):
    steps = "".join(f"<p>{n}. {step}</p>" for n, step in enumerate(["Mix.", "Knead.", "Bake."], 1))
    results = await audit(browser, site, "list", {
        "fail": styled("<p>You need:<br>- 500 g rye flour<br>- 10 g salt<br>- 350 ml water</p>"),
        "review": styled(f"<div>{steps}</div>"),
        "pass": styled("<p>Harbour Bakery<br>3 Quay Street<br>- open daily -<br>Harbour Town</p>"),
        "inapplicable": styled(STORY),
    })
    finding = finding_of(results["fail"], "a11y-text-list")
    assert (finding.selector, finding.success_criteria) == ("p", ["1.3.1"])
    assert "start with bullet characters or numbers" in (finding.failure_summary or "")
    assert review_of(results["review"], "a11y-text-list").selector == "div"
    silent(results["pass"], "a11y-text-list")
    silent(results["inapplicable"], "a11y-text-list", tested=False)


async def test_layout_grid(browser, site):
    def rows(*cells: tuple[str, str]) -> str:
        return "".join(f"<div><span>{a}</span><span>{b}</span></div>" for a, b in cells)

    hours = rows(("Monday", "7:00"), ("Saturday", "8:00"), ("Sunday", "closed"))
    results = await audit(browser, site, "grid", {
        "fail": styled(f'<div class="cols"><div><span><b>Day</b></span><span><b>Opens</b></span></div>{hours}</div>'),
        "review": styled(f'<div class="cols">{hours}</div><pre>Rye      3.00   daily\nSpelt    3.50   Fridays\nWheat    2.50   daily</pre>'),
        "pass": styled(
            '<div class="cols">' + "".join(
                f'<div><span><a href="/{n}">{n}</a></span><span><a href="/{n}/more">More</a></span></div>'
                for n in ("rye", "spelt", "wheat")
            ) + "</div><pre><code>let loaves = 3;\nlet cakes  = 2;\nlet tarts  = 1;</code></pre>"
        ),
        "inapplicable": styled(STORY),
    })
    finding = finding_of(results["fail"], "a11y-layout-grid")
    assert (finding.selector, finding.success_criteria, finding.impact) == (".cols", ["1.3.1"], "serious")
    assert "3 rows of 2 cells under a header row" in (finding.failure_summary or "")
    review = outcome(results["review"], "a11y-layout-grid")
    assert not review.findings and sorted(r.selector for r in review.review) == [".cols", "pre"]
    silent(results["pass"], "a11y-layout-grid")
    silent(results["inapplicable"], "a11y-layout-grid", tested=False)


async def test_reading_order(browser, site):
    results = await audit(browser, site, "order", {
        "review": styled(
            '<div style="display: flex"><p style="order: 2">Step one: mix the flour and water.</p>'
            "<p>Step two: bake for forty minutes.</p></div>"
        ),
        "positioned": styled(
            '<div style="position: relative"><p style="padding-top: 4em; margin: 0">This paragraph comes first in the DOM.</p>'
            '<p style="position: absolute; top: 0; margin: 0">This one comes second but is drawn above.</p></div>'
        ),
        "pass": styled(
            '<div style="display: flex; flex-direction: row-reverse; justify-content: flex-end">'
            '<p style="order: 1">Only one block of text here.</p><span aria-hidden="true">*</span></div>'
        ),
        # The same reordered flex box inside an open shadow root under the body.
        "review-shadow": styled(
            '<div id="host"></div><script>document.getElementById("host").attachShadow({mode: "open"}).innerHTML = '
            "'<div style=\"display: flex\"><p style=\"order: 2\">Step one: mix the flour and water.</p>"
            "<p>Step two: bake for forty minutes.</p></div>';</script>"
        ),
        "inapplicable": styled(STORY),
    })
    item = review_of(results["review"], "a11y-reading-order")
    assert review_of(results["review-shadow"], "a11y-reading-order").success_criteria == ["1.3.2"]
    assert (item.selector, item.success_criteria, item.level) == ("div", ["1.3.2"], "A")
    assert "another order than screen readers" in item.reason
    assert review_of(results["positioned"], "a11y-reading-order").selector == "p:nth-child(2)"
    silent(results["pass"], "a11y-reading-order")
    silent(results["inapplicable"], "a11y-reading-order", tested=False)


async def test_layout_table_markup(browser, site):
    results = await audit(browser, site, "layout-table", {
        "fail": styled('<table role="presentation"><tr><th>Menu</th><td>Welcome to the bakery.</td></tr></table>'),
        "caption": styled(
            "<table><caption>Home</caption><tr><td><h2>News</h2>" + STORY + "</td>"
            '<td><ul><li><a href="/a">Bread</a></li><li><a href="/b">Cakes</a></li></ul></td></tr></table>'
        ),
        "pass": styled('<table role="none"><tr><td><h2>News</h2>' + STORY + "</td><td>Photo</td></tr></table>"),
        "inapplicable": styled(
            '<table><tr><th scope="col">Size</th><th scope="col">Price</th></tr><tr><td>Small</td><td>18</td></tr></table>'
        ),
    })
    finding = finding_of(results["fail"], "a11y-layout-table-markup")
    assert (finding.selector, finding.success_criteria) == ("table", ["1.3.1"])
    assert "used for layout but has data table markup" in (finding.failure_summary or "")
    assert finding_of(results["caption"], "a11y-layout-table-markup").selector == "table"
    silent(results["pass"], "a11y-layout-table-markup")
    silent(results["inapplicable"], "a11y-layout-table-markup", tested=False)


async def test_table_no_headers_and_td_has_header(browser, site):
    def prices(cell: str) -> str:
        return (
            f"<table><tr><{cell}>Size</{cell}><{cell}>Serves</{cell}><{cell}>Price</{cell}></tr>"
            "<tr><td>Small</td><td>6</td><td>18 euros</td></tr><tr><td>Large</td><td>12</td><td>30 euros</td></tr>"
            "<tr><td>Party</td><td>24</td><td>55 euros</td><td>to order</td></tr></table>"
        )

    results = await audit(browser, site, "no-headers", {
        "fail": styled(prices("td")),
        "pass": styled(prices("th")),
        "layout": styled('<table><tr><td><img src="/audit/pixel.png" alt="Rye"></td><td>Rye</td></tr>'
                         '<tr><td><img src="/audit/pixel.png" alt="Spelt"></td><td>Spelt</td></tr></table>'),
        "inapplicable": styled('<table role="presentation"><tr><td>Rye</td><td>Spelt</td></tr><tr><td>3</td><td>4</td></tr></table>'),
        # A function's signature set out in cells, as documentation generators do: code, not data.
        "signature": styled(
            '<table><tr><td>void bake</td><td>(</td><td>const Loaf &amp;</td><td><em>loaf</em>,</td></tr>'
            "<tr><td></td><td></td><td>int</td><td><em>minutes</em></td></tr>"
            "<tr><td></td><td>)</td><td></td><td></td></tr></table>"
        ),
    })
    finding = finding_of(results["fail"], "a11y-table-no-headers")
    assert (finding.selector, finding.success_criteria, finding.impact) == ("table", ["1.3.1"], "serious")
    assert "has no header cell" in (finding.failure_summary or "")
    silent(results["pass"], "a11y-table-no-headers")
    silent(results["layout"], "a11y-table-no-headers")
    silent(results["signature"], "a11y-table-no-headers")
    silent(results["inapplicable"], "a11y-table-no-headers", tested=False)
    # axe's experimental td-has-header runs, adopted, and only asks: "to order" has no header.
    adopted = outcome(results["pass"], "td-has-header")
    assert not adopted.findings and [(r.source, r.selector) for r in adopted.review] == [("axe", "table")]


async def test_scope_direction(browser, site):
    def daughters(head: str, row: str) -> str:
        return (
            f'<table><tr><td></td><th scope="{head}">Age</th><th scope="{head}">Town</th></tr>'
            f'<tr><th scope="{row}">Jackie</th><td>5</td><td>Leeds</td></tr>'
            f'<tr><th scope="{row}">Beth</th><td>8</td><td>York</td></tr></table>'
        )

    results = await audit(browser, site, "scope", {
        "fail": styled(daughters("col", "col")),
        "rows": styled(daughters("row", "row")),
        "pass": styled(daughters("col", "row")),
        # Wrong scopes, but every data cell names its headers: screen readers follow those.
        "headers": styled(
            '<table><tr><th id="p" scope="row">Project</th><th id="s" scope="row">Progress</th></tr>'
            '<tr><td headers="p">Oven</td><td headers="s">15%</td></tr></table>'
        ),
        "inapplicable": styled(
            "<table><tr><th>Name</th><th>Age</th></tr><tr><td>Jackie</td><td>5</td></tr></table>"
        ),
    })
    finding = finding_of(results["fail"], "a11y-scope-direction")
    assert (finding.selector, finding.success_criteria) == ("table", ["1.3.1"])
    assert "scope pointing the wrong way" in (finding.failure_summary or "")
    assert finding_of(results["rows"], "a11y-scope-direction").selector == "table"
    silent(results["pass"], "a11y-scope-direction")
    silent(results["headers"], "a11y-scope-direction")
    silent(results["inapplicable"], "a11y-scope-direction", tested=False)


async def test_nested_tables_and_column_counts(browser, site):
    inner = "<table><tr><th>Name</th><th>Age</th></tr><tr><td>Jo</td><td>5</td></tr></table>"
    results = await audit(browser, site, "nested", {
        "review": styled(f"<table><tr><th>Team</th><th>Members</th></tr><tr><td>Blue</td><td>{inner}</td></tr></table>"),
        "pass": styled(f"<table><tr><td><h2>Teams</h2></td><td>{inner}</td></tr></table>"),
        "columns": styled(
            "<table><caption>Loaves</caption><tr><th>Loaf</th><th>Weight</th><th>Price</th></tr>"
            "<tr><td>Rye</td><td>800 g</td></tr><tr><td>Spelt</td><td>750 g</td><td>3.50</td></tr>"
            "<tr><td>Wheat</td><td>800 g</td><td>2.50</td></tr></table>"
        ),
        "spans": styled(
            "<table><caption>Loaves</caption><tr><th>Loaf</th><th>Weight</th><th>Price</th></tr>"
            '<tr><td rowspan="2">Rye</td><td>800 g</td><td>3.00</td></tr><tr><td>400 g</td><td>1.80</td></tr>'
            '<tr><td colspan="3">Sold out on Sundays</td></tr></table>'
        ),
        "inapplicable": styled(STORY),
    })
    item = review_of(results["review"], "a11y-table-nested")
    assert (item.selector, item.success_criteria) == ("td:nth-child(2) > table", ["1.3.1"])
    assert "nested in a cell of another data table" in item.reason
    silent(results["pass"], "a11y-table-nested", tested=False)  # a data table in a layout table
    silent(results["inapplicable"], "a11y-table-nested", tested=False)
    column = review_of(results["columns"], "a11y-table-columns")
    assert column.selector == "table" and "different number of columns" in column.reason
    silent(results["spans"], "a11y-table-columns")
    silent(results["inapplicable"], "a11y-table-columns", tested=False)


async def test_duplicate_id_ref_supersedes_duplicate_id_aria(browser, site):
    loaves = '<p><label for="qty">{0}</label> <input id="qty" type="number" aria-describedby="unit"> <span id="unit">loaves</span></p>'
    results = await audit(browser, site, "duplicate-id", {
        # The Spelt label reaches the Rye field: the second field has none.
        "fail": styled("<form>" + loaves.format("Rye") + loaves.format("Spelt").replace('aria-describedby="unit" ', "") + "</form>"),
        # Each field's description is "loaves" whichever span the reference reaches.
        "review": styled("<form>" + loaves.format("Rye").replace("qty", "rye") + loaves.format("Spelt").replace("qty", "spelt") + "</form>"),
        # The label is meant for the field, the only labelable element with the id.
        "pass": styled('<form><label for="email">Email</label> <input id="email"><p id="email">We never share it.</p></form>'),
        "inapplicable": styled('<div id="news">Fresh rye today.</div><div id="news">Spelt on Fridays.</div>'),
    })
    finding = finding_of(results["fail"], "a11y-duplicate-id-ref")
    assert (finding.selector, finding.success_criteria) == ("p:nth-child(2) > input", ["1.3.1", "4.1.2"])
    assert "the references to this id" in (finding.failure_summary or "")
    assert review_of(results["review"], "a11y-duplicate-id-ref").selector == "p:nth-child(2) > span"
    silent(results["pass"], "a11y-duplicate-id-ref")
    silent(results["inapplicable"], "a11y-duplicate-id-ref", tested=False)  # nothing refers to "news"
    for result in results.values():
        assert outcome(result, "duplicate-id-aria").clean
        assert "duplicate-id-aria" not in result.pages[0].rules_tested


async def test_radio_group(browser, site):
    options = '<label><input type="radio" name="acc" value="y"> Yes</label><label><input type="radio" name="acc" value="n"> No</label>'
    results = await audit(browser, site, "radio", {
        "fail": styled(f"<form><p>Do you have an account?</p>{options}</form>"),
        "review": styled(
            '<form><p>Which loaves?</p><label><input type="checkbox" name="loaf"> Rye</label>'
            '<label><input type="checkbox" name="loaf"> Spelt</label></form>'
        ),
        "pass": styled(f"<form><fieldset><legend>Do you have an account?</legend>{options}</fieldset></form>"),
        "inapplicable": styled('<form><label><input type="checkbox" name="news"> Send me news</label></form>'),
    })
    finding = finding_of(results["fail"], "a11y-radio-group")
    assert (finding.selector, finding.success_criteria) == ('input[value="y"]', ["1.3.1"])
    assert "answer a question shown before them" in (finding.failure_summary or "")
    assert "share a name" in review_of(results["review"], "a11y-radio-group").reason
    silent(results["pass"], "a11y-radio-group")
    silent(results["inapplicable"], "a11y-radio-group", tested=False)


async def test_field_name_unique(browser, site):
    address = '<fieldset><legend>{}</legend><label>Street <input name="{}"></label></fieldset>'
    results = await audit(browser, site, "names", {
        "review": styled('<form><label>Name <input name="first"></label> <label>Name <input name="last"></label></form>'),
        "pass": styled("<form>" + address.format("Billing address", "b") + address.format("Delivery address", "d") + "</form>"),
        "inapplicable": styled('<form><label>Email <input name="email"></label><button>Subscribe</button></form>'),
    })
    item = review_of(results["review"], "a11y-field-name-unique")
    assert (item.selector, item.success_criteria, item.level) == ('input[name="last"]', ["2.4.6"], "AA")
    assert "same accessible name" in item.reason
    silent(results["pass"], "a11y-field-name-unique")
    silent(results["inapplicable"], "a11y-field-name-unique", tested=False)


async def test_placeholder_label(browser, site):
    results = await audit(browser, site, "placeholder", {
        "fail": styled('<form><input name="email" placeholder="Your email"><p>Weekly news.</p><button>Subscribe</button></form>'),
        "review": styled('<form role="search"><input type="search" name="q" placeholder="Search"><button>Search</button></form>'),
        "pass": styled('<form><label for="e">Email</label> <input id="e" placeholder="name@example.com"></form>'),
        "inapplicable": styled('<form><label for="e">Email</label> <input id="e"></form>'),
    })
    finding = finding_of(results["fail"], "a11y-placeholder-label")
    assert (finding.selector, finding.success_criteria) == ("input", ["3.3.2"])
    assert "placeholder is this field's only label" in (finding.failure_summary or "")
    assert review_of(results["review"], "a11y-placeholder-label").selector == "input"
    silent(results["pass"], "a11y-placeholder-label")
    silent(results["inapplicable"], "a11y-placeholder-label", tested=False)


async def test_hint_described(browser, site):
    results = await audit(browser, site, "hint", {
        "review": styled(
            '<form><div><label for="ni">National Insurance number</label>'
            '<p class="hint">For example, QQ 12 34 56 C.</p><input id="ni"></div>'
            '<div><label for="n">Name</label><input id="n"></div></form>'
        ),
        "pass": styled(
            '<form><div><label for="ni">National Insurance number</label>'
            '<p class="hint" id="ni-hint">For example, QQ 12 34 56 C.</p><input id="ni" aria-describedby="ni-hint"></div>'
            '<div><label for="n">Name</label><input id="n"></div></form>'
        ),
        "inapplicable": styled(STORY),
    })
    item = review_of(results["review"], "a11y-hint-described")
    assert (item.selector, item.success_criteria) == ("#ni", ["1.3.1", "3.3.1"])
    assert "reads as a hint or an error message" in item.reason
    silent(results["pass"], "a11y-hint-described")
    silent(results["inapplicable"], "a11y-hint-described", tested=False)


async def test_asterisk_required(browser, site):
    fields = '<label for="f">First name *</label> <input id="f"{}> <label for="l">Last name</label> <input id="l">'
    results = await audit(browser, site, "asterisk", {
        "fail": styled(f"<form>{fields.format('')}</form>"),
        "explained": styled(f"<form><p>Fields marked * are required.</p>{fields.format('')}</form>"),
        "required": styled(f"<form>{fields.format(' required')}</form>"),
        "footnote": styled(f"<form>{fields.format('')}</form><p>* As on your passport.</p>"),
        "inapplicable": styled(f"<form>{fields.replace(' *', '').format('')}</form>"),
    })
    finding = finding_of(results["fail"], "a11y-asterisk-required")
    assert (finding.selector, finding.success_criteria) == ("#f", ["3.3.2"])
    assert "asterisk is the only sign" in (finding.failure_summary or "")
    silent(results["explained"], "a11y-asterisk-required")
    silent(results["required"], "a11y-asterisk-required")
    silent(results["footnote"], "a11y-asterisk-required")
    silent(results["inapplicable"], "a11y-asterisk-required", tested=False)


async def test_red_border_invalid(browser, site):
    form = (
        '<form><div><label for="p">Passport number</label> <input id="p" style="border: 2px solid #d4351c"{}>{}</div>'
        '<div><label for="n">Name on passport</label> <input id="n" style="border: 2px solid #555"></div></form>'
    )
    results = await audit(browser, site, "red", {
        "review": styled(form.format("", "")),
        "pass": styled(form.format(' aria-invalid="true" aria-describedby="e"', '<p id="e">Error: enter 9 digits</p>')),
        "inapplicable": styled(STORY),
    })
    item = review_of(results["review"], "a11y-red-border-invalid")
    assert (item.selector, item.success_criteria) == ("#p", ["1.4.1", "3.3.1"])
    assert "Only a red border" in item.reason
    silent(results["pass"], "a11y-red-border-invalid")
    silent(results["inapplicable"], "a11y-red-border-invalid", tested=False)



def _field(ident: str, label: str, **attrs: str) -> str:
    """A labelled input; ``attrs`` become its attributes."""
    extra = "".join(f' {name}="{value}"' for name, value in attrs.items())
    return f'<label for="{ident}">{label}</label> <input id="{ident}"{extra}> '


async def test_input_purpose(browser, site):
    results = await audit(browser, site, "purpose", {
        # The user's email, and a bare "Name" in the same form: both without autocomplete.
        "fail": styled(
            "<form>" + _field("mail", "Email address *", type="email") + _field("who", "Name")
            + "<button>Join the bread club</button></form>"
        ),
        "review": styled('<form autocomplete="off">' + _field("mail", "Your email") + "<button>Subscribe</button></form>"),
        "pass": styled(
            "<form>" + _field("mail", "Email", type="email", autocomplete="email")
            + _field("who", "Full name", autocomplete="name") + _field("tel", "Phone number", autocomplete="tel")
            + _field("pw", "Password", type="password", autocomplete="current-password")
            + "<button>Sign in</button></form>"
        ),
        # A project's name and town, a friend's email, an emergency contact's phone, a search
        # box: none asks for the user's own details.
        "inapplicable": styled(
            "<form>" + _field("project", "Name") + _field("town", "Town") + "<button>Create project</button></form>"
            "<form>" + _field("friend", "Friend’s email") + "<button>Send the recipe</button></form>"
            "<form><fieldset><legend>Emergency contact</legend>" + _field("other", "Telephone") + "</fieldset></form>"
            '<form role="search">' + _field("q", "Search", type="search") + "</form>"
        ),
    })
    rule = "a11y-input-purpose"
    findings = outcome(results["fail"], rule).findings
    assert sorted(f.selector for f in findings) == ["#mail", "#who"]
    mail = next(f for f in findings if f.selector == "#mail")
    assert (mail.source, mail.success_criteria, mail.level, mail.impact) == ("a11y", ["1.3.5"], "AA", "serious")
    assert "asks for the user's email but has no autocomplete attribute: add autocomplete=\"email\"" in (
        mail.failure_summary or "")
    assert 'autocomplete="name"' in (next(f for f in findings if f.selector == "#who").failure_summary or "")
    item = review_of(results["review"], rule)
    assert item.selector == "#mail" and 'autocomplete="off"' in item.reason
    silent(results["pass"], rule)
    silent(results["inapplicable"], rule, tested=False)
