"""--confirm-actions: downloads, uploads and cross-origin form posts wait for the client's yes.

Each test drives one kind of client: one that cannot elicit (every risky action refused), a
2025-era client asked inline that declines or accepts, and a 2026-07-28 client answering an
``input_required`` result in the retry of the call. A refused action must not have happened:
no file in the downloads folder, no file in the input, no POST at the other origin.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path

import mcp_types as types
from mcp import Client

from a11y.mcp_server import build_server
from tests.support.site import Response
from tests.tools.conftest import ToolClient
from tools.guard.policy import GuardConfig, parse_patterns
from tools.session import ServerConfig

FILE = b"report body\n" * 20


@asynccontextmanager
async def server(chromium, tmp_path, *, mode="auto", answer=None):
    """A client of a --confirm-actions server; ``answer`` (accept/decline) makes it elicit."""
    asked: list[str] = []

    async def elicit(ctx, params):
        asked.append(params.message)
        return types.ElicitResult(action=answer)

    config = ServerConfig(browser_url=chromium.ws_url, isolated=True, output_dir=tmp_path / "out",
                          guard=GuardConfig(confirm_actions=True, confirm_timeout=10))
    async with Client(build_server(config), mode=mode, elicitation_callback=elicit if answer else None) as client:
        yield ToolClient(client), asked, config.output_dir


def risky_page(site) -> str:
    site.route("/confirm/report.bin", Response(FILE, content_type="application/octet-stream",
                                               headers={"Content-Disposition": 'attachment; filename="report.bin"'}))
    site.route("/confirm/done", "<title>done</title>")
    return site.route("/confirm/page", f"""<title>risky</title>
        <a id=dl href="/confirm/report.bin">report</a>
        <input id=file type=file>
        <form id=form method=post action="{site.cross_site_url('/confirm/submit')}"><input name=q value=typed>
          <button id=send>send</button></form>
        <form method=get action="{site.cross_site_url('/confirm/search')}"><input name=s value=typed>
          <button id=search>search</button></form>""")


def posted(site) -> list[str]:
    return [r.body.decode() for r in site.log if r.path == "/confirm/submit"]


def saved(out: Path) -> list[str]:
    folder = out / "downloads"
    return sorted(p.name for p in folder.iterdir() if p.is_file()) if folder.exists() else []


async def test_without_elicitation_every_risky_action_is_refused(chromium, site, tmp_path):
    async with server(chromium, tmp_path) as (mcp, _, out):
        await mcp.ok("page_navigate", {"url": risky_page(site)})
        upload = out / "upload.txt"
        upload.parent.mkdir(parents=True, exist_ok=True)
        upload.write_text("local file")
        err = await mcp.fail("element_set_files", {"selector": "#file", "files": [str(upload)]})
        assert err["code"] == "confirmation_unavailable" and "upload.txt" in err["message"]
        assert await mcp.js("document.querySelector('#file').files.length") == 0

        err = await mcp.fail("element_click", {"selector": "#dl"})
        assert err["code"] == "confirmation_unavailable" and "report.bin" in err["message"]
        assert saved(out) == []

        site.log.clear()
        err = await mcp.fail("element_click", {"selector": "#send"})
        assert err["code"] == "confirmation_unavailable" and site.cross_site_url("/")[:-1] in err["message"]
        assert posted(site) == []
        await mcp.ok("page_navigate", {"url": site.url("/confirm/page")})
        err = await mcp.fail("element_click", {"selector": "#search"})  # a GET form is a submission too
        assert err["code"] == "confirmation_unavailable" and "/confirm/search?s=typed" in err["message"]
        assert not [r for r in site.log if r.path == "/confirm/search"]


async def test_a_client_asked_inline_that_declines(chromium, site, tmp_path):
    async with server(chromium, tmp_path, mode="legacy", answer="decline") as (mcp, asked, out):
        await mcp.ok("page_navigate", {"url": risky_page(site)})
        err = await mcp.fail("element_click", {"selector": "#dl"})
        assert err["code"] == "confirmation_declined"
        assert saved(out) == [] and "report.bin" in asked[0]
        site.log.clear()
        err = await mcp.fail("element_click", {"selector": "#send"})
        assert err["code"] == "confirmation_declined" and "Submit a form" in asked[1]
        assert posted(site) == []


async def test_a_client_asked_inline_that_accepts(chromium, site, tmp_path):
    async with server(chromium, tmp_path, mode="legacy", answer="accept") as (mcp, asked, out):
        await mcp.ok("page_navigate", {"url": risky_page(site)})
        clicked = await mcp.ok("element_click", {"selector": "#dl"})
        assert clicked["downloads"][0]["state"] == "completed" and saved(out) == ["report.bin"]
        site.log.clear()
        await mcp.ok("element_click", {"selector": "#send"})
        await mcp.ok("wait_for_url", {"pattern": "/confirm/submit"})
        assert posted(site) == ["q=typed"] and len(asked) == 2


async def test_a_2026_client_answers_in_the_retry_of_the_call(chromium, site, tmp_path):
    async with server(chromium, tmp_path, answer="accept") as (mcp, asked, out):
        await mcp.ok("page_navigate", {"url": risky_page(site)})
        upload = out / "upload.txt"
        upload.parent.mkdir(parents=True, exist_ok=True)
        upload.write_text("local file")
        done = await mcp.ok("element_set_files", {"selector": "#file", "files": [str(upload)]})
        assert done["files"] == ["upload.txt"] and len(asked) == 1 and "upload.txt" in asked[0]
        assert await mcp.js("document.querySelector('#file').files.length") == 1
    async with server(chromium, tmp_path, answer="decline") as (mcp, asked, out):
        await mcp.ok("page_navigate", {"url": risky_page(site)})
        err = await mcp.fail("element_click", {"selector": "#dl"})
        assert err["code"] == "confirmation_declined" and len(asked) == 1
        assert saved(out) == []  # refused in the first round, and not run again after the no


async def test_over_streamable_http_both_kinds_of_client_are_asked(chromium, site, tmp_path):
    from tests.tools.test_http_contexts import served  # the HTTP app in this trio run

    guard = GuardConfig(confirm_actions=True, confirm_timeout=10,
                        allowed=parse_patterns([site.url()[:-1], site.cross_site_url()[:-1]]))
    config = ServerConfig(browser_url=chromium.ws_url, output_dir=tmp_path / "out", guard=guard)
    asked: list[str] = []

    async def decline(ctx, params):
        asked.append(params.message)
        return types.ElicitResult(action="decline")

    async with served(config) as url:
        for mode in ("legacy", "auto"):  # an MCP session asked at once; 2026-07-28 input_required
            async with Client(url, mode=mode, elicitation_callback=decline) as client:
                mcp = ToolClient(client)
                await mcp.ok("page_navigate", {"url": risky_page(site)})
                err = await mcp.fail("element_click", {"selector": "#dl"})
                assert err["code"] == "confirmation_declined", mode
                err = await mcp.fail("page_navigate", {"url": "http://127.0.0.2:9/"})
                assert err["code"] == "blocked_by_policy", mode
    assert len(asked) == 2 and all("report.bin" in q for q in asked)
    assert not list((tmp_path / "out").rglob("report.bin"))
