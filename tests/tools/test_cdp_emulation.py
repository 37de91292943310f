"""cdp_emulate_network / cdp_emulate_cpu: measurable slowdowns, undone by the clear tools."""

from __future__ import annotations

import os

import pytest

from tests.support.site import Response

BODY = b"x" * 200_000
FETCH = """(async () => { const t = performance.now();
  const r = await fetch('/cdp/big?' + Math.random()); const b = await r.arrayBuffer();
  return {ms: performance.now() - t, bytes: b.byteLength}; })()"""
BUSY = """(() => { const t = performance.now(); let x = 0;
  for (let i = 0; i < 1e7; i++) { x = (x + i * 7) % 1000003; }
  return performance.now() - t; })()"""


async def test_network_emulation_slows_a_200kb_fetch(mcp, site):
    site.route("/cdp/big", Response(BODY, content_type="application/octet-stream"))
    await mcp.ok("page_navigate", {"url": site.route("/cdp/net", "<p>net</p>")})
    base = await mcp.js(FETCH)
    assert base["bytes"] == len(BODY)
    applied = await mcp.ok("cdp_emulate_network", {"latency": 50, "download": 100_000, "upload": 100_000})
    assert (applied["latency"], applied["download"], applied["offline"]) == (50, 100_000, False)
    slow = await mcp.js(FETCH)
    assert slow["bytes"] == len(BODY)
    # 200 KB at 100 KB/s cannot take less than ~2 s; unthrottled it takes milliseconds
    assert slow["ms"] > 1800 and slow["ms"] > 1.5 * base["ms"], (base, slow)
    await mcp.ok("cdp_clear_network_emulation")
    again = await mcp.js(FETCH)
    assert again["ms"] < slow["ms"] - 800, (again, slow)


async def test_offline_mode_and_throttling_do_not_undo_each_other(mcp, site):
    site.route("/cdp/big", Response(BODY, content_type="application/octet-stream"))
    await mcp.ok("page_navigate", {"url": site.route("/cdp/both", "<p>both</p>")})
    await mcp.ok("cdp_emulate_network", {"latency": 50, "download": 100_000, "upload": 100_000})
    await mcp.ok("network_set_offline", {"offline": True})
    assert await mcp.js("fetch('/cdp/both').then(() => 'online', () => 'offline')") == "offline"
    await mcp.ok("network_set_offline", {"offline": False})
    slow = await mcp.js(FETCH)  # back online, still throttled: 200 KB at 100 KB/s
    assert slow["bytes"] == len(BODY) and slow["ms"] > 1800, slow
    await mcp.ok("network_set_offline", {"offline": True})
    await mcp.ok("cdp_clear_network_emulation")  # clearing the throttle keeps offline mode
    assert await mcp.js("fetch('/cdp/both').then(() => 'online', () => 'offline')") == "offline"
    await mcp.ok("network_set_offline", {"offline": False})
    assert (await mcp.js(FETCH))["ms"] < 1500
    # Throttling switched on while offline must not keep the tab offline afterwards.
    await mcp.ok("network_set_offline", {"offline": True})
    await mcp.ok("cdp_emulate_network", {"latency": 20})
    await mcp.ok("network_set_offline", {"offline": False})
    assert await mcp.js("fetch('/cdp/both').then(() => 'online', () => 'offline')") == "online"
    await mcp.ok("cdp_clear_network_emulation")


async def test_network_presets_and_out_of_order(mcp, site):
    assert (await mcp.fail("cdp_clear_network_emulation"))["code"] == "not_started"
    await mcp.ok("page_navigate", {"url": site.route("/cdp/preset", "<p>preset</p>")})
    data = await mcp.ok("cdp_emulate_network", {"preset": "fast3g"})
    assert (data["latency"], data["download"], data["upload"]) == (562.5, 180_000, 84_375)
    assert (await mcp.fail("cdp_emulate_network", {"preset": "4g"}))["code"] == "already_started"
    await mcp.ok("cdp_clear_network_emulation")
    data = await mcp.ok("cdp_emulate_network", {"preset": "offline"})
    assert data["offline"] is True
    assert await mcp.js("fetch('/cdp/preset').then(() => 'online', () => 'offline')") == "offline"
    await mcp.ok("cdp_clear_network_emulation")
    assert await mcp.js("fetch('/cdp/preset').then(() => 'online', () => 'offline')") == "online"
    err = await mcp.fail("cdp_emulate_network", {"preset": "5g"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "preset"
    assert (await mcp.fail("cdp_emulate_network", {}))["code"] == "invalid_arguments"


async def _fastest(mcp, runs: int) -> float:
    """The quickest of a few runs: other processes can only make a run slower, never faster."""
    return min([await mcp.js(BUSY) for _ in range(runs)])


def _saturated() -> bool:
    """More runnable processes than 4 per core: the renderer gets so little CPU that a
    throttle (which only takes away CPU time) can no longer be seen in wall time."""
    return os.getloadavg()[0] > 4 * (os.cpu_count() or 1)


async def test_cpu_emulation_slows_a_busy_loop(mcp, site):
    await mcp.ok("page_navigate", {"url": site.route("/cdp/cpu", "<p>cpu</p>")})
    await mcp.js(BUSY)  # warm up the JIT so every run executes the same optimized code
    samples = []
    for _ in range(3):  # interleaved attempts: one quiet moment is enough to see a 6x throttle
        base = await _fastest(mcp, 2)
        assert (await mcp.ok("cdp_emulate_cpu", {"rate": 6}))["rate"] == 6
        assert (await mcp.fail("cdp_emulate_cpu", {"rate": 2}))["code"] == "already_started"
        slow = await _fastest(mcp, 2)
        await mcp.ok("cdp_clear_cpu_emulation")
        samples.append((base, slow))
        if slow / base > 1.5:
            break
    else:
        if _saturated():
            pytest.skip(f"machine saturated (load {os.getloadavg()[0]:.0f}); throttle not measurable: {samples}")
        raise AssertionError(f"CPU throttling did not slow the loop: {samples}")
    assert (await mcp.fail("cdp_clear_cpu_emulation"))["code"] == "not_started"


async def test_cpu_rate_must_be_2_4_or_6(mcp):
    for bad in (3, 1, 8, "fast"):
        err = await mcp.fail("cdp_emulate_cpu", {"rate": bad})
        assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "rate"
    err = await mcp.fail("cdp_emulate_cpu", {})
    assert err["details"][0]["field"] == "rate"
