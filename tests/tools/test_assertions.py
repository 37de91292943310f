"""test_: assertions and verifications (verdicts, waiting, actual values), locators, selectors, report."""

from __future__ import annotations

import json

import pytest

PAGE = """<!doctype html><title>Checks</title>
<form>
  <label for=name>Full name</label><input id=name name=fullname value="Ada">
  <input id=agree type=checkbox checked><input id=news type=checkbox>
  <fieldset disabled><button id=locked type=button>Locked</button></fieldset>
  <button id=go type=button aria-disabled=true>Go</button>
</form>
<p id=msg>Hello
   world</p>
<div id=hidden style="display:none">secret text</div>
<ul id=fruits><li>Apple</li><li>Banana</li></ul>
<div id=later></div>
<x-card id=card></x-card>
<script>
  customElements.define('x-card', class extends HTMLElement {
    constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<b>Shadow greeting</b>'; }
  });
</script>
"""


@pytest.fixture
async def checks(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/tools/assert/checks", PAGE)})
    return mcp


# Every verify tool with an argument set that passes and one that fails, and the actual value
# the failure reports.
VERIFY_CASES = [
    ("test_verify_visible", {"selector": "#msg"}, {"selector": "#hidden"}, "hidden"),
    ("test_verify_hidden", {"selector": "#hidden"}, {"selector": "#msg"}, "visible"),
    ("test_verify_hidden", {"selector": "#nothing-here"}, {"selector": "#name"}, "visible"),
    ("test_verify_enabled", {"selector": "#name"}, {"selector": "#locked"}, "disabled"),
    ("test_verify_disabled", {"selector": "#go"}, {"selector": "#name"}, "enabled"),
    ("test_verify_checked", {"selector": "#agree"}, {"selector": "#news"}, "unchecked"),
    ("test_verify_checked", {"selector": "#news", "checked": False}, {"selector": "#agree", "checked": False}, "checked"),
    ("test_verify_value", {"selector": "#name", "expected": "Ada"}, {"selector": "#name", "expected": "Bob"}, "Ada"),
    ("test_verify_text", {"selector": "#msg", "expected": "lo wor"}, {"selector": "#msg", "expected": "Bye"}, "Hello world"),
    ("test_verify_text", {"selector": "#msg", "expected": "Hello world", "exact": True},
     {"selector": "#msg", "expected": "Hello", "exact": True}, "Hello world"),
    ("test_assert_element", {"selector": "#fruits li"}, {"selector": "#hidden"}, "hidden"),
]


async def test_verifications_pass_and_fail_with_actual(checks):
    for name, good, bad, actual in VERIFY_CASES:
        passed = await checks.ok(name, {**good, "timeout_ms": 0})
        assert passed["passed"] is True, (name, passed)
        assert passed["message"].startswith("passed")
        failed = await checks.ok(name, {**bad, "timeout_ms": 0})  # a failed check is not an MCP error
        assert failed["passed"] is False, (name, failed)
        assert failed["actual"] == actual, (name, failed)
        assert failed["message"].startswith("failed") and bad["selector"] in failed["message"]


async def test_missing_element_and_bad_selector(checks):
    data = await checks.ok("test_verify_visible", {"selector": "#absent", "timeout_ms": 0})
    assert data == {"passed": False, "actual": None, "message": data["message"]}
    assert "matched no element" in data["message"]
    err = await checks.fail("test_verify_value", {"selector": "#name[", "expected": "x", "timeout_ms": 0})
    assert err["code"] == "invalid_arguments" and "#name[" in err["message"]
    err = await checks.fail("test_verify_text", {"selector": "#msg"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "expected"


async def test_verifications_wait_for_the_condition(checks):
    # Nothing yet: an immediate check fails; then the page changes 200 ms later and a waiting one passes.
    assert (await checks.ok("test_verify_text", {"selector": "#later", "expected": "Arrived", "timeout_ms": 0}))["passed"] is False
    await checks.js("setTimeout(() => { later.textContent = 'Arrived'; document.querySelector('#hidden').style.display = 'block';"
                    " msg.remove(); }, 200)")
    assert (await checks.ok("test_verify_text", {"selector": "#later", "expected": "Arrived", "timeout_ms": 30000}))["passed"]
    assert (await checks.ok("test_verify_visible", {"selector": "#hidden", "timeout_ms": 30000}))["passed"]
    assert (await checks.ok("test_verify_hidden", {"selector": "#msg", "timeout_ms": 30000}))["passed"]
    # A typed value is seen too.
    await checks.js("setTimeout(() => { document.getElementById('name').value = 'Grace'; agree.click(); }, 100)")
    assert (await checks.ok("test_verify_value", {"selector": "#name", "expected": "Grace", "timeout_ms": 30000}))["passed"]
    assert (await checks.ok("test_verify_checked", {"selector": "#agree", "checked": False, "timeout_ms": 30000}))["passed"]


async def test_assert_text_page_scope_shadow_and_hidden(checks):
    assert (await checks.ok("test_assert_text", {"text": "Hello world", "timeout_ms": 0}))["passed"]
    assert (await checks.ok("test_assert_text", {"text": "Shadow greeting", "timeout_ms": 0}))["passed"]
    assert (await checks.ok("test_assert_text", {"text": "Banana", "selector": "#fruits", "timeout_ms": 0}))["passed"]
    scoped = await checks.ok("test_assert_text", {"text": "Hello", "selector": "#fruits", "timeout_ms": 0})
    assert scoped["passed"] is False and scoped["actual"] == "Apple Banana"
    hidden = await checks.ok("test_assert_text", {"text": "secret text", "timeout_ms": 0})
    assert hidden["passed"] is False
    case = await checks.ok("test_assert_text", {"text": "hello WORLD", "timeout_ms": 0})
    assert case["passed"] is False and "different letter case" in case["message"]


async def test_verify_list_found_and_missing(checks):
    data = await checks.ok("test_verify_list", {"items": ["Apple", "Banana"], "selector": "#fruits", "timeout_ms": 0})
    assert data["passed"] is True and data["found"] == ["Apple", "Banana"] and data["missing"] == []
    data = await checks.ok("test_verify_list", {"items": ["Apple", "Cherry", "Hello world"], "selector": "#fruits",
                                                "timeout_ms": 0})
    assert data["passed"] is False
    assert data["found"] == ["Apple"] and data["missing"] == ["Cherry", "Hello world"]
    assert "Cherry" in data["message"]
    await checks.js("setTimeout(() => fruits.insertAdjacentHTML('beforeend', '<li>Cherry</li>'), 150)")
    data = await checks.ok("test_verify_list", {"items": ["Cherry"], "selector": "#fruits", "timeout_ms": 30000})
    assert data["passed"] is True


async def test_assert_url_glob_regex_substring_and_wait(checks, site):
    url = site.url("/tools/assert/checks")
    for pattern in (url, "/assert/checks", "http://127.0.0.1:*/tools/assert/*", "/assert\\/CHECKS$/i", "^http://127"):
        data = await checks.ok("test_assert_url", {"pattern": pattern, "timeout_ms": 0})
        assert data["passed"] is True and data["actual"] == url, pattern
    data = await checks.ok("test_assert_url", {"pattern": "*/dashboard", "timeout_ms": 0})
    assert data["passed"] is False and data["actual"] == url
    await checks.js("setTimeout(() => history.pushState({}, '', '/tools/assert/dashboard'), 150)")
    data = await checks.ok("test_assert_url", {"pattern": "*/dashboard", "timeout_ms": 30000})
    assert data["passed"] is True and data["actual"].endswith("/tools/assert/dashboard")
    err = await checks.fail("test_assert_url", {"pattern": "/([a-z/"})
    assert err["code"] == "invalid_arguments"


LOCATOR_PAGE = """<!doctype html><title>Locators</title>
<main>
  <section class="card"><button class="btn" type="button">Cancel</button>
    <button class="btn primary" type="button" data-testid="save-button">Save order</button></section>
  <section class="card"><button class="btn" type="button">Cancel</button><span>Save order soon</span></section>
  <div><span>Plain</span><span>Plain</span></div>
</main>
<script>
  window.hits = [];
  document.addEventListener('click', (e) => hits.push(e.target.closest('button, span')?.textContent || ''));
</script>
"""


async def test_generate_locator_all_strategies_resolve_to_the_element(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/tools/assert/locators", LOCATOR_PAGE)})
    target = "section:first-child button.primary"
    marker = "document.querySelector('section:first-child button.primary')"
    results = {}
    for strategy in ("css", "xpath", "testid", "role", "text"):
        data = await mcp.ok("test_generate_locator", {"selector": target, "strategy": strategy})
        assert data["strategy"] == strategy
        meta = data["metadata"]
        assert meta["tag"] == "button" and meta["role"] == "button" and meta["name"] == "Save order"
        assert meta["testid"] == "save-button" and meta["text"] == "Save order"
        results[strategy] = data
    css = results["css"]["locator"]
    assert css == '[data-testid="save-button"]' or css.startswith("button")
    assert await mcp.js(f"document.querySelectorAll({json.dumps(css)}).length === 1 && "
                        f"document.querySelector({json.dumps(css)}) === {marker}")
    xpath = results["xpath"]["locator"]
    assert await mcp.js(f"(() => {{ const r = document.evaluate({json.dumps(xpath)}, document, null, 7, null);"
                        f" return r.snapshotLength === 1 && r.snapshotItem(0) === {marker}; }})()")
    assert results["testid"]["locator"] == 'getByTestId("save-button")'
    assert results["testid"]["metadata"]["arguments"] == {"testid": "save-button"}
    assert results["role"]["locator"] == 'getByRole("button", { name: "Save order", exact: true })'
    assert results["role"]["metadata"]["arguments"] == {"role": "button", "name": "Save order"}
    assert results["text"]["locator"] == 'getByText("Save order", { exact: true })'
    assert results["text"]["metadata"]["arguments"] == {"text": "Save order"}
    assert set(results["css"]["metadata"]["alternatives"]) == {"xpath", "testid", "role", "text"}
    # Each strategy's arguments, given to element_click, click that very button.
    for data in results.values():
        await mcp.ok("element_click", data["metadata"]["arguments"])
    assert await mcp.js("hits") == ["Save order"] * 5


async def test_generate_locator_without_unique_answer_says_why(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/tools/assert/locators", LOCATOR_PAGE)})
    err = await mcp.fail("test_generate_locator", {"selector": "section:first-child button:not(.primary)",
                                                   "strategy": "testid"})
    assert err["code"] == "not_found"
    assert "no data-testid" in err["message"] and "css:" in err["message"]
    err = await mcp.fail("test_generate_locator", {"selector": "section:first-child button:not(.primary)",
                                                   "strategy": "role"})
    assert "2 elements have role 'button' named 'Cancel'" in err["message"]
    err = await mcp.fail("test_generate_locator", {"selector": "div span", "strategy": "text"})
    assert "2 elements have the text" in err["message"]
    # The CSS strategy still finds a unique path for the first of two identical spans.
    data = await mcp.ok("test_generate_locator", {"selector": "div span"})
    assert await mcp.js(f"document.querySelectorAll({json.dumps(data['locator'])}).length === 1 && "
                        f"document.querySelector({json.dumps(data['locator'])}) === document.querySelector('div span')")
    err = await mcp.fail("test_generate_locator", {"selector": "#nope", "timeout_ms": 0})
    assert err["code"] == "element_not_found"
    err = await mcp.fail("test_generate_locator", {"selector": "button", "strategy": "label"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "strategy"


async def test_generate_locator_css_pierces_shadow_root(checks):
    data = await checks.ok("test_generate_locator", {"selector": "#card >>> b"})
    assert data["locator"] == "#card >>> b"
    err = await checks.fail("test_generate_locator", {"selector": "#card >>> b", "strategy": "xpath"})
    assert "shadow root" in err["message"]


async def test_validate_selectors_counts_and_suggestions(checks):
    data = await checks.ok("test_validate_selectors", {"selectors": [
        "#fruits li", "#hidden", "#fruit", "input[name=full-name]", "#name[", ".nothing-like-it"]})
    by = {r["selector"]: r for r in data["results"]}
    assert by["#fruits li"] | {"suggestions": []} == {
        "selector": "#fruits li", "valid": True, "exists": True, "visible": True, "count": 2, "visible_count": 2,
        "error": None, "suggestions": []}
    assert by["#hidden"]["exists"] is True and by["#hidden"]["visible"] is False
    fruit = by["#fruit"]
    assert fruit["count"] == 0 and fruit["suggestions"][0]["selector"] == "#fruits"
    assert fruit["suggestions"][0]["count"] == 1
    assert by["input[name=full-name]"]["suggestions"][0]["selector"] == 'input[name="fullname"]'
    assert by["#name["]["valid"] is False and by["#name["]["error"]
    assert by[".nothing-like-it"]["suggestions"] == []
    assert data["matched"] == 2 and data["total"] == 6


async def test_report_formats_counts_and_reset(checks):
    await checks.ok("test_reset")
    await checks.ok("test_set_target", {"target": "checkout form, staging"})
    await checks.ok("test_verify_value", {"selector": "#name", "expected": "Ada", "timeout_ms": 0})
    await checks.ok("test_assert_text", {"text": "Cherry", "timeout_ms": 0})
    await checks.fail("test_verify_text", {"selector": "#name[", "expected": "x", "timeout_ms": 0})
    await checks.ok("test_verify_list", {"items": ["Apple", "Kiwi"], "timeout_ms": 0})
    await checks.ok("test_generate_locator", {"selector": "#name"})  # not a check: not in the report

    data = await checks.ok("test_get_report")
    assert data["format"] == "box" and data["target"] == "checkout form, staging"
    assert (data["total"], data["passed"], data["failed"]) == (4, 1, 3)
    assert [s["tool"] for s in data["steps"]] == ["test_verify_value", "test_assert_text", "test_verify_text",
                                                  "test_verify_list"]
    assert [s["passed"] for s in data["steps"]] == [True, False, False, False]
    assert data["steps"][3]["actual"] == {"found": ["Apple"], "missing": ["Kiwi"]}
    assert all(isinstance(s["duration_ms"], int) and s["message"] for s in data["steps"])
    assert data["steps"][2]["message"].startswith("invalid_arguments")
    box = data["report"].splitlines()
    assert box[0].startswith("┌") and box[-1].startswith("└") and len({len(line) for line in box}) == 1
    assert "checkout form, staging" in box[1] and "1 passed, 3 failed, 4 total" in data["report"]

    diag = (await checks.ok("test_get_report", {"format": "diagnostic"}))["report"]
    assert diag.startswith("Target: checkout form, staging\nResult: FAILED (1 passed, 3 failed)")
    assert diag.index("#2 FAIL test_assert_text") < diag.index("#1 PASS test_verify_value")
    assert 'arguments: {"text": "Cherry", "timeout_ms": 0}' in diag

    as_json = json.loads((await checks.ok("test_get_report", {"format": "json"}))["report"])
    assert as_json["target"] == "checkout form, staging" and as_json["failed"] == 3
    assert as_json["steps"][0]["actual"] == "Ada"

    err = await checks.fail("test_get_report", {"format": "html"})
    assert err["code"] == "invalid_arguments"
    assert (await checks.ok("test_reset"))["cleared"] == 4
    empty = await checks.ok("test_get_report")
    assert empty["total"] == 0 and empty["target"] == "checkout form, staging"
    assert "no checks run" in empty["report"]


async def test_checks_reach_into_iframes(mcp, site):
    inner = site.route("/tools/assert/inner", "<!doctype html><p id=in>Inside the frame</p><input id=v value=42>")
    cross = site.cross_site_url("/tools/assert/inner")
    page = site.route("/tools/assert/frames", f"<iframe id=same src='{inner}'></iframe><iframe id=cross src='{cross}'></iframe>")
    await mcp.ok("page_navigate", {"url": page})
    # Same-origin iframe through >>>, without selecting it.
    assert (await mcp.ok("test_verify_text", {"selector": "#same >>> #in", "expected": "Inside"}))["passed"]
    # An out-of-process (cross-site) iframe after frame_select.
    await mcp.ok("frame_select", {"name_or_url": "cross"})
    assert (await mcp.ok("test_verify_value", {"selector": "#v", "expected": "42"}))["passed"]
    assert (await mcp.ok("test_assert_text", {"text": "Inside the frame"}))["passed"]
    data = await mcp.ok("test_generate_locator", {"selector": "#in", "strategy": "role"})
    assert data["metadata"]["role"] == "paragraph"
