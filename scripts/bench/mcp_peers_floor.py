"""The floor of the MCP agent task (scripts/bench/mcp_peers.py): its steps through ``cdpdriver``
directly, in the same process, with no MCP, no tool layer and no page-side script.

The same steps as an agent's, each as lean as CDP allows: navigate and wait for ``load``; read
the accessibility tree (``Accessibility.getFullAXTree``) and find the controls by role and
name; focus each field and insert its text; click the box and the button with real mouse
events at their centres; wait for the result page's document, read its tree until it shows
the submitted values, and take a screenshot (PNG encoded for speed, as the server's is). What the server adds on top of this is what an
MCP call, its validation, its locator, its actionability checks and its snapshot cost.

:func:`at_once` runs the floor as the HTTP figures run the server's clients: one browser
context alone, then ``clients`` contexts of one browser at once, so that the server's slowdown
with many agents can be set beside what the browser's own work allows on the machine's cores.
"""

from __future__ import annotations

import time
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any

import trio
from mcp_peers_site import EMAIL, NAME, correct
from proc_cpu import tree_cpu

from cdpdriver import LaunchOptions, Page, launch

READ_WAIT = 5.0
CONTROLS = {
    ("textbox", "Name"): "name",
    ("textbox", "Email"): "email",
    ("checkbox", "I agree to the terms"): "agree",
    ("button", "Submit"): "submit",
}


@dataclass
class Floor:
    """The task's steps through cdpdriver, timed like a server's."""

    label: str = "cdpdriver floor"
    page: Page | None = None
    task_ms: list[float] = field(default_factory=list)
    failures: int = 0
    counting: bool = False

    async def open(self, stack: AsyncExitStack, chromium: str) -> None:
        browser = await stack.enter_async_context(launch(LaunchOptions(executable=chromium)))
        self.page = await browser.new_page()

    async def task(self, url: str) -> bool:
        page = self.page
        assert page is not None
        await page.navigate(url)
        found = {
            CONTROLS[key]: node["backendDOMNodeId"]
            for node in await self._tree()
            if (key := _role_and_name(node)) in CONTROLS
        }
        for key, value in (("name", NAME), ("email", EMAIL)):
            await page.session.send("DOM.focus", {"backendNodeId": found[key]})
            await page.session.send("Input.insertText", {"text": value})
        before = page.document_loader_id
        await self._click(found["agree"])
        await self._click(found["submit"])
        await page.wait_for_new_document(before, timeout=READ_WAIT)
        deadline = time.perf_counter() + READ_WAIT
        while (
            not correct(text := " ".join(n for _, n in map(_role_and_name, await self._tree())))
            and time.perf_counter() < deadline
        ):
            await trio.sleep(0.02)
        # PNG, encoded for speed: what the server's page_screenshot sends an agent.
        await page.session.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
        return correct(text)

    async def _tree(self) -> list[dict[str, Any]]:
        assert self.page is not None
        return (await self.page.session.send("Accessibility.getFullAXTree"))["nodes"]

    async def _click(self, backend: int) -> None:
        assert self.page is not None
        send = self.page.session.send
        await send("DOM.scrollIntoViewIfNeeded", {"backendNodeId": backend})
        quad = (await send("DOM.getContentQuads", {"backendNodeId": backend}))["quads"][0]
        x, y = sum(quad[0::2]) / 4, sum(quad[1::2]) / 4
        for kind in ("mousePressed", "mouseReleased"):
            await send(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
            )


def _role_and_name(node: dict[str, Any]) -> tuple[str, str]:
    return (node.get("role") or {}).get("value", ""), str((node.get("name") or {}).get("value", ""))


@dataclass
class AtOnce:
    """The floor's task times (ms) in a context alone and with ``clients`` contexts at once."""

    one_ms: list[float] = field(default_factory=list)
    many_ms: list[float] = field(default_factory=list)
    failures: int = 0
    #: CPU seconds of the browser's processes per task, the contexts at once.
    browser_cpu_s: float = 0.0


async def at_once(chromium: str, url: str, clients: int, tasks: int) -> AtOnce:
    """The floor's task ``tasks`` times in a fresh browser context alone, then ``tasks`` times
    in each of ``clients`` fresh contexts at once (one browser, as the HTTP server has), after
    one untimed task that starts the browser's processes."""
    figures = AtOnce()
    async with AsyncExitStack() as stack:
        browser = await stack.enter_async_context(launch(LaunchOptions(executable=chromium)))

        async def floor() -> Floor:
            context = await stack.enter_async_context(browser.context())
            return Floor(page=await context.new_page())

        async def timed(one: Floor, times: list[float]) -> None:
            for _ in range(tasks):
                started = time.perf_counter()
                figures.failures += not await one.task(url)
                times.append((time.perf_counter() - started) * 1000)

        figures.failures += not await (await floor()).task(url)
        await timed(await floor(), figures.one_ms)
        floors = [await floor() for _ in range(clients)]
        cpu = tree_cpu(browser.pid)
        async with trio.open_nursery() as nursery:
            for one in floors:
                nursery.start_soon(timed, one, figures.many_ms)
        figures.browser_cpu_s = (tree_cpu(browser.pid) - cpu) / (clients * tasks)
    return figures
