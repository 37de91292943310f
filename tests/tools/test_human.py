"""human_pause, headless: the overlay resolves on its Done button, on the key combo, or on timeout.

Tool calls are serialised per session, so the "person" is a page script that acts once
the overlay appears.
"""

from __future__ import annotations

PERSON = """<title>Person</title><script>
window.person = (how) => {
  const timer = setInterval(() => {
    const host = document.getElementById('a11y-human-pause');
    if (!host) return;
    clearInterval(timer);
    window.overlayText = host.shadowRoot.textContent;
    setTimeout(() => {
      if (how === 'button') host.shadowRoot.querySelector('button').click();
      else document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', ctrlKey: true, shiftKey: true, bubbles: true}));
    }, 200);
  }, 20);
};
</script>"""


async def test_pause_times_out_without_error(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/human/idle", "<p>idle</p>")})
    data = await mcp.ok("human_pause", {"message": "Solve the CAPTCHA", "timeout_ms": 300})
    assert data["resumed_by"] == "timeout" and data["timed_out"] is True
    assert data["waited_ms"] >= 300
    assert await mcp.js("document.getElementById('a11y-human-pause')") is None
    # Nor does it come back: its keeper re-attached a removed overlay every 500 ms. A page
    # timer due later than two of its ticks fires after them (one thread, timers in due order).
    assert await mcp.js(
        "new Promise((r) => setTimeout(() => r(document.getElementById('a11y-human-pause')), 1100))"
    ) is None


async def test_pause_ends_when_done_is_clicked(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/human/button", PERSON)})
    await mcp.js("person('button'); 0")
    data = await mcp.ok("human_pause", {"message": "Log in, then click Done", "timeout_ms": 10000})
    assert data["resumed_by"] == "button" and data["timed_out"] is False
    assert data["waited_ms"] >= 200
    assert "Log in, then click Done" in await mcp.js("window.overlayText")
    assert await mcp.js("document.getElementById('a11y-human-pause')") is None


async def test_pause_ends_on_key_combo(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/human/key", PERSON)})
    await mcp.js("person('key'); 0")
    data = await mcp.ok("human_pause", {"timeout_ms": 10000})
    assert data["resumed_by"] == "key"
    assert "Ctrl+Shift+Enter" in await mcp.js("window.overlayText")


async def test_pause_survives_navigation(mcp, site):
    after = site.route("/human/after-login", PERSON + "<script>person('button')</script>")
    await mcp.ok("page_navigate", {"url": site.route("/human/login", "<p>login</p>")})
    await mcp.js(f"setTimeout(() => location.href = {after!r}, 100); 0")
    data = await mcp.ok("human_pause", {"message": "Log in", "timeout_ms": 10000})
    assert data["resumed_by"] == "button"
    assert await mcp.js("location.pathname") == "/human/after-login"
    err = await mcp.fail("human_pause", {"timeout_ms": -1})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "timeout_ms"
