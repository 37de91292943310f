"""workflow_: login against a small local login app, and table extraction."""

from __future__ import annotations

import json
from urllib.parse import parse_qs

import pytest

from tests.support.site import Request, Response

PASSWORD = "s3cret-Pa55"
WRONG = "wrong-Pa55word"

LOGIN_FORM = """<!doctype html><title>Sign in</title>
<form method=post action=/tools/wf/login>
  <label>User <input id=user name=user autocomplete=username></label>
  <label>Password <input id=pass name=pass type=password></label>
  <button id=submit>Sign in</button>
</form>{error}"""


def _login(request: Request) -> Response:
    if request.method != "POST":
        return Response(LOGIN_FORM.format(error=""))
    form = parse_qs(request.body.decode())
    if form.get("user") == ["alice"] and form.get("pass") == [PASSWORD]:
        return Response("", status=303, headers={"Location": "/tools/wf/account",
                                                 "Set-Cookie": "wf_session=alice; Path=/"})
    return Response(LOGIN_FORM.format(error='<p role=alert class=error>Invalid username or password</p>'))


def _account(request: Request) -> Response:
    if "wf_session=alice" not in request.headers.get("Cookie", ""):
        return Response("", status=303, headers={"Location": "/tools/wf/login"})
    return Response("<!doctype html><title>Account</title><h1 id=welcome>Welcome alice</h1>")


@pytest.fixture
def login_app(site):
    site.route("/tools/wf/account", _account)
    return site.route("/tools/wf/login", _login)


def _args(url: str, password: str, **extra: object) -> dict:
    return {"url": url, "username_selector": "#user", "password_selector": "#pass", "submit_selector": "#submit",
            "username": "alice", "password": password, **extra}


async def test_login_succeeds_with_the_right_password(mcp, site, login_app):
    data = await mcp.ok("workflow_login", _args(login_app, PASSWORD, success_url="*/tools/wf/account",
                                                success_selector="#welcome", timeout_ms=10000))
    assert data["success"] is True and data["reason"] == "success_url"
    assert data["url"] == site.url("/tools/wf/account")
    assert "URL matches" in data["message"] and "'#welcome' is visible" in data["message"]
    # The server really got the typed credentials, and the session cookie is set.
    posted = [r for r in site.log if r.path == "/tools/wf/login" and r.method == "POST"][-1]
    assert parse_qs(posted.body.decode()) == {"user": ["alice"], "pass": [PASSWORD]}
    assert "wf_session=alice" in await mcp.js("document.cookie")
    assert PASSWORD not in json.dumps(data)


async def test_login_without_criteria_succeeds_when_the_form_goes(mcp, login_app):
    data = await mcp.ok("workflow_login", _args(login_app, PASSWORD, timeout_ms=10000))
    assert data["success"] is True and data["reason"] == "form_gone"
    assert data["url"].endswith("/tools/wf/account")


async def test_login_with_wrong_password_says_why(mcp, login_app):
    data = await mcp.ok("workflow_login", _args(login_app, WRONG, success_url="/tools/wf/account", timeout_ms=10000))
    assert data["success"] is False and data["reason"] == "error_message"
    assert "still on the login page" in data["message"]
    assert "Invalid username or password" in data["message"]
    assert data["errors"] == ["Invalid username or password"]
    assert data["url"].endswith("/tools/wf/login")
    assert WRONG not in json.dumps(data)


ECHO_FORM = """<!doctype html><title>Echo</title>
<form method=get action=/tools/wf/echo>
  <input id=user name=user><input id=pass name=pass type=password><button id=submit>Go</button>
</form>{error}"""


def _echo(request: Request) -> Response:
    """A badly behaved app: GET form (password in the URL) and an error that repeats the password."""
    form = parse_qs(request.query)
    error = f"<div class=alert-danger>Wrong password {form['pass'][0]} for {form['user'][0]}</div>" if form else ""
    return Response(ECHO_FORM.format(error=error))


async def test_login_never_echoes_the_password(mcp, site):
    url = site.route("/tools/wf/echo", _echo)
    data = await mcp.ok("workflow_login", _args(url, WRONG, success_selector="#welcome", timeout_ms=10000))
    assert data["success"] is False and data["reason"] == "error_message"
    assert "Wrong password *** for alice" in data["message"]
    assert "pass=***" in data["url"]
    assert WRONG not in json.dumps(data)
    assert WRONG in await mcp.js("location.href")  # it was really there


STUCK_FORM = """<!doctype html><title>Stuck</title>
<form id=f><input id=user type=email><input id=pass type=password><button id=submit>Go</button></form>
<script>f.addEventListener('submit', (e) => e.preventDefault());</script>"""


async def test_login_reports_invalid_fields_and_a_stuck_page(mcp, site):
    url = site.route("/tools/wf/stuck", STUCK_FORM)
    data = await mcp.ok("workflow_login", _args(url, PASSWORD, success_url="/account", timeout_ms=5000))
    assert data["success"] is False and data["reason"] == "invalid_fields"  # "alice" is not an email address
    assert "blocked the form submission" in data["message"] and "email" in data["message"]
    await mcp.ok("page_navigate", {"url": url})  # so the short timeout covers only the login itself
    args = {k: v for k, v in _args(url, PASSWORD, success_url="/account", timeout_ms=800).items() if k != "url"}
    data = await mcp.ok("workflow_login", {**args, "username": "alice@example.org"})
    assert data["success"] is False and data["reason"] == "still_on_login_page"
    assert "after 800 ms" in data["message"]


async def test_login_bad_selectors_are_errors(mcp, login_app):
    err = await mcp.fail("workflow_login", _args(login_app, PASSWORD, success_selector="#welcome[", timeout_ms=3000))
    assert err["code"] == "invalid_arguments" and "success_selector" in err["message"]
    await mcp.ok("page_navigate", {"url": login_app})
    no_url = {k: v for k, v in _args(login_app, PASSWORD, timeout_ms=500).items() if k != "url"}
    err = await mcp.fail("workflow_login", {**no_url, "username_selector": "#nope"})
    assert err["code"] in {"element_not_found", "timeout"} and "#nope" in err["message"]
    assert PASSWORD not in err["message"]
    err = await mcp.fail("workflow_login", {k: v for k, v in _args(login_app, PASSWORD).items() if k != "password"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "password"


TABLES = """<!doctype html><title>Tables</title>
<table id=people>
  <thead>
    <tr><th rowspan=2>Name</th><th colspan=2>Contact</th><th>Total</th></tr>
    <tr><th>Email</th><th>Phone</th><th></th></tr>
  </thead>
  <tbody>
    <tr><td>Ada</td><td>ada@example.org</td><td>555</td><td>10</td></tr>
    <tr><td>Bob</td><td colspan=2>no  contact</td><td>20</td></tr>
    <tr><td rowspan=2>Cy</td><td>cy@example.org</td><td>1</td><td>5</td></tr>
    <tr><td>cy2@example.org</td><td>2</td><td>6</td></tr>
  </tbody>
  <tfoot><tr><td>Sum</td><td></td><td></td><td>41</td></tr></tfoot>
</table>
<div id=wrap><table><tr><th>Item</th><th colspan=2>Price</th></tr><tr><td>Tea</td><td>3</td><td>EUR</td></tr></table></div>
<table id=plain><tr><td>k</td><td>v</td></tr><tr><td>a</td><td>1</td></tr></table>
<div id=grid role=table>
  <div role=row><span role=columnheader>Key</span><span role=columnheader>Value</span></div>
  <div role=row><span role=cell>x</span><span role=cell>42</span></div>
</div>
<p id=para>not a table</p>
"""


@pytest.fixture
async def tables(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/tools/wf/tables", TABLES)})
    return mcp


async def test_extract_table_with_header_rows_colspan_and_rowspan(tables):
    data = await tables.ok("workflow_extract_table", {"selector": "#people"})
    assert data["columns"] == ["Name", "Contact / Email", "Contact / Phone", "Total"]
    assert data["rows"] == [
        {"Name": "Ada", "Contact / Email": "ada@example.org", "Contact / Phone": "555", "Total": "10"},
        {"Name": "Bob", "Contact / Email": "no contact", "Contact / Phone": "no contact", "Total": "20"},
        {"Name": "Cy", "Contact / Email": "cy@example.org", "Contact / Phone": "1", "Total": "5"},
        {"Name": "Cy", "Contact / Email": "cy2@example.org", "Contact / Phone": "2", "Total": "6"},
        {"Name": "Sum", "Contact / Email": "", "Contact / Phone": "", "Total": "41"},
    ]
    assert (data["count"], data["total_rows"], data["truncated"]) == (5, 5, False)


async def test_extract_table_spanning_header_limits_and_lists(tables):
    data = await tables.ok("workflow_extract_table", {"selector": "#wrap"})
    assert data["columns"] == ["Item", "Price", "Price (2)"]
    assert data["rows"] == [{"Item": "Tea", "Price": "3", "Price (2)": "EUR"}]
    data = await tables.ok("workflow_extract_table", {"selector": "#people", "max_rows": 2})
    assert (data["count"], data["total_rows"], data["truncated"]) == (2, 5, True)
    assert [r["Name"] for r in data["rows"]] == ["Ada", "Bob"]
    data = await tables.ok("workflow_extract_table", {"selector": "#plain", "headers": False})
    assert data["rows"] == [["k", "v"], ["a", "1"]] and data["columns"] == ["Column 1", "Column 2"]
    data = await tables.ok("workflow_extract_table", {"selector": "#plain"})
    assert data["columns"] == ["k", "v"] and data["rows"] == [{"k": "a", "v": "1"}]


async def test_extract_aria_table_and_errors(tables):
    data = await tables.ok("workflow_extract_table", {"selector": "#grid"})
    assert data["columns"] == ["Key", "Value"] and data["rows"] == [{"Key": "x", "Value": "42"}]
    err = await tables.fail("workflow_extract_table", {"selector": "#para"})
    assert err["code"] == "invalid_arguments" and "not a table" in err["message"]
    err = await tables.fail("workflow_extract_table", {"selector": "#missing", "timeout_ms": 0})
    assert err["code"] == "element_not_found"
    err = await tables.fail("workflow_extract_table", {"selector": "#people", "max_rows": 0})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "max_rows"
