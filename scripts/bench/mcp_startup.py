"""How fast the MCP server starts: spawn → initialized and → first tools/list, and ``--list-tools``.

Run: .venv/bin/python scripts/bench/mcp_startup.py [--runs 7] [--src OTHER/src]
The stdio server is timed with the official MCP Python client (its own imports happen before
the clock starts); ``--list-tools`` is a whole process run. Prints medians; the browser is
launched by none of them (it starts on the first tool that needs it). The machine is shared:
compare runs taken at the same time (``--src`` times another checkout's ``src`` the same
way, e.g. ``git archive HEAD src | tar -x -C /tmp/head``), and mind the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import trio
from mcp import Client, StdioServerParameters

SERVER = [sys.executable, "-m", "a11y", "mcp"]


def _env(src: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in ("HOME", "PATH", "LANG", "TMPDIR")}
    return {**env, "PYTHONPATH": src} if src else env


async def _spawn(src: str | None) -> tuple[float, float, float]:
    """Milliseconds from spawn to initialized, to the first tools/list reply, and to the reply
    to a first tool call that needs no browser (the handshake is answered while the SDK
    imports: the third figure shows what that import still costs an agent that calls at once)."""
    params = StdioServerParameters(command=SERVER[0], args=SERVER[1:], env=_env(src))
    started = time.perf_counter()
    async with Client(params) as client:
        initialized = (time.perf_counter() - started) * 1000
        await client.list_tools()
        listed = (time.perf_counter() - started) * 1000
        result = await client.call_tool("config_get", {})
        assert not result.is_error, result
        return initialized, listed, (time.perf_counter() - started) * 1000


async def _first_call_after_thinking(src: str | None) -> float:
    """Milliseconds a first tool call takes when the agent thinks for a second after listing
    the tools, as agents do: the server loads its tools in that time."""
    params = StdioServerParameters(command=SERVER[0], args=SERVER[1:], env=_env(src))
    async with Client(params) as client:
        await client.list_tools()
        await trio.sleep(1)
        started = time.perf_counter()
        result = await client.call_tool("config_get", {})
        assert not result.is_error, result
        return (time.perf_counter() - started) * 1000


def _list_tools(src: str | None) -> float:
    started = time.perf_counter()
    subprocess.run([*SERVER, "--list-tools"], check=True, stdout=subprocess.DEVNULL, env=_env(src))
    return (time.perf_counter() - started) * 1000


def _report(label: str, samples: list[float]) -> None:
    print(f"  {label:<26} median {statistics.median(samples):6.0f} ms   "
          f"min {min(samples):6.0f} ms   max {max(samples):6.0f} ms   ({len(samples)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--src", default=None, help="time the a11y of this src directory instead")
    args = parser.parse_args()
    runs = max(5, args.runs)
    _list_tools(args.src)  # warm the bytecode cache so the first run is not an outlier
    spawned = [trio.run(_spawn, args.src) for _ in range(runs)]
    thought = [trio.run(_first_call_after_thinking, args.src) for _ in range(runs)]
    listing = [_list_tools(args.src) for _ in range(runs)]
    print(f"MCP server start-up{f' of {args.src}' if args.src else ''} (load average {os.getloadavg()[0]:.1f})")
    _report("spawn -> initialized", [i for i, _, _ in spawned])
    _report("spawn -> first tools/list", [t for _, t, _ in spawned])
    _report("spawn -> first tool call", [c for _, _, c in spawned])
    _report("first call, 1 s after list", thought)
    _report("mcp --list-tools", listing)


if __name__ == "__main__":
    main()
