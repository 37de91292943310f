"""The page of the MCP agent task (scripts/bench/mcp_peers.py): a sign-up form served on 127.0.0.1.

The form has the usual chrome around it (navigation, text, footer), so a snapshot has more to
carry than its four controls, as on a real site; submitting it (GET /result) shows a page that
repeats what was submitted, which is how every participant's task is judged correct.
"""

from __future__ import annotations

from http.server import ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import local_pages

NAME, EMAIL = "Ada Lovelace", "ada@example.org"

_NAV = "".join(
    f"<li><a href='/section/{n.lower()}'>{n}</a></li>"
    for n in (
        "Home",
        "Products",
        "Pricing",
        "Documentation",
        "Blog",
        "Support",
        "About us",
        "Contact",
    )
)
_FOOTER = "".join(
    f"<li><a href='/legal/{n.lower().replace(' ', '-')}'>{n}</a></li>"
    for n in (
        "Privacy",
        "Terms of service",
        "Cookies",
        "Accessibility statement",
        "Careers",
        "Press",
    )
)
_CHROME = (
    "<header><a href='/'>Example shop</a><nav aria-label=Main><ul>" + _NAV + "</ul></nav></header>"
    "{body}<footer><nav aria-label=Footer><ul>"
    + _FOOTER
    + "</ul></nav><p>© 2026 Example shop</p></footer>"
)
FORM = (
    "<!doctype html><html lang=en><title>Sign up</title>"
    + _CHROME.format(
        body="""<main><h1>Sign up</h1>
<p>Create an account to follow your orders, keep a wish list and hear about offers first.
It takes a minute, and you can delete the account at any time from your settings.</p>
<form action=/result><fieldset><legend>Your details</legend>
<p><label>Name <input name=name autocomplete=name></label></p>
<p><label>Email <input name=email type=email autocomplete=email></label></p>
<p><label><input type=checkbox name=agree> I agree to the terms</label></p></fieldset>
<button>Submit</button></form>
<aside><h2>Why sign up?</h2><ul><li>Free delivery on your first order</li><li>Order tracking</li>
<li>Early access to sales</li></ul></aside></main>"""
    )
    + "</html>"
).encode()


def _result_page(query: str) -> bytes:
    values = parse_qs(query)
    shown = {k: values.get(k, ["(none)"])[0] for k in ("name", "email", "agree")}
    body = (
        f"<main><h1>Thanks</h1><p>Received name {shown['name']}, email {shown['email']}, "
        f"agree {shown['agree']}</p><p><a href='/'>Back to the shop</a></p></main>"
    )
    return (
        "<!doctype html><html lang=en><title>Thanks</title>" + _CHROME.format(body=body) + "</html>"
    ).encode()


def serve() -> tuple[ThreadingHTTPServer, str]:
    """The site on a free port, in a daemon thread; (server, the form's URL). Stop it with
    ``server.shutdown()``."""

    def respond(path: str) -> bytes:
        parts = urlsplit(path)
        return _result_page(parts.query) if parts.path == "/result" else FORM

    server, base = local_pages.serve(respond)
    return server, f"{base}/form"


def correct(text: str, name: str = NAME, email: str = EMAIL) -> bool:
    """Whether a reading of the result page (snapshot text or JSON) shows the submitted values."""
    return f"Received name {name}, email {email}, agree on" in text
