"""console_: messages buffered from the tab's start, levels, exceptions, clearing."""

from __future__ import annotations

import trio

PAGE = """<title>Console</title><script>
console.log('hello', 42, {a: 1});
console.info('info line');
console.warn('careful');
console.debug('details');
console.error('broke', 'badly');
console.count('clicks');
setTimeout(() => { throw new TypeError('late failure'); }, 0);
Promise.reject(new Error('nobody caught me'));
</script>"""


async def _messages(mcp, **args):
    return await mcp.ok("console_get_messages", args)


async def test_messages_levels_and_exceptions(mcp, site):
    url = site.route("/console/page", PAGE)
    await mcp.ok("page_navigate", {"url": url})
    # The two exceptions arrive asynchronously: wait for them by time, not by a count of calls
    # (quick calls can run out before a loaded machine delivers them).
    with trio.move_on_after(10):
        while (everything := await _messages(mcp))["count"] < 8:
            await trio.sleep(0.01)
    texts = [(m["type"], m["text"]) for m in everything["messages"]]
    assert texts[:6] == [("log", "hello 42 Object"), ("info", "info line"), ("warn", "careful"),
                         ("debug", "details"), ("error", "broke badly"), ("log", "clicks: 1")]
    first = everything["messages"][0]
    assert first["args"][:2] == ["hello", 42]
    assert first["url"] == url and first["line"] == 2
    errors = await _messages(mcp, level="error")
    error_texts = [m["text"] for m in errors["messages"]]
    assert error_texts[0] == "broke badly"
    assert any("TypeError: late failure" in t for t in error_texts)
    assert any("nobody caught me" in t for t in error_texts)
    assert errors["count"] == 3
    warns = await _messages(mcp, level="warn")
    assert [m["text"] for m in warns["messages"]] == ["careful"]
    err = await mcp.fail("console_get_messages", {"level": "verbose"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "level"


async def test_clear_and_read_then_clear(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/console/clear", "<script>console.log('one')</script>")})
    cleared = await mcp.ok("console_clear")
    assert cleared["cleared"] >= 1 and cleared["message"].startswith("cleared")
    assert (await _messages(mcp))["count"] == 0
    await mcp.js("console.log('two'); console.warn('three'); 0")
    data = await _messages(mcp, level="log", clear=True)
    assert [m["text"] for m in data["messages"]] == ["two"]
    assert (await _messages(mcp))["count"] == 0  # clear dropped the warning too
