"""cdp_ emulation: throttle the current tab's network and CPU, and undo it.

Network presets follow the throttling profiles DevTools and Lighthouse use
(their published latency and throughput values, with the same 0.8/0.9
adjustment); ``wifi`` is a fast home connection. Custom values override the
preset's. Emulation stays until the matching clear call: a second emulate call
is ``already_started`` so the agent always knows what is in force.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, model_validator

from ..models import MessageOutput, NoInput, ToolInput
from ..registry import tool

if TYPE_CHECKING:
    from cdpdriver import Session

    from ..recording import Switch
    from ..session import ToolSession
    from ..tab import Tab


# preset: (latency ms, download bytes/s, upload bytes/s, offline, connection type)
NETWORK_PRESETS: dict[str, tuple[float, float, float, bool, str]] = {
    "slow3g": (2000.0, 50_000.0, 50_000.0, False, "cellular3g"),  # 400 ms RTT x5, 500 kbit/s x0.8
    "fast3g": (562.5, 180_000.0, 84_375.0, False, "cellular3g"),  # 150 ms x3.75, 1.6 Mbit/s / 750 kbit/s x0.9
    "4g": (165.0, 1_012_500.0, 168_750.0, False, "cellular4g"),  # 60 ms x2.75, 9 Mbit/s / 1.5 Mbit/s x0.9
    "wifi": (28.0, 3_750_000.0, 1_875_000.0, False, "wifi"),  # 28 ms, 30 / 15 Mbit/s
    "offline": (0.0, -1.0, -1.0, True, "none"),
}
# network_set_offline keeps its per-target flag here; clearing our throttle must not bring it online.
NETWORK_OFFLINE_KEY = "network.offline"
CONDITIONS_KEY = "cdp.network_conditions"


@dataclass
class NetworkEmulation:
    tab: Tab
    conditions: dict[str, Any]


@dataclass
class CpuEmulation:
    tab: Tab
    rate: float


@cache
def _network() -> Switch[NetworkEmulation]:
    """Built on first use: ``recording`` loads the driver, which declaring tools must not."""
    from ..recording import Switch

    return Switch("cdp.network_emulation", "network emulation", "cdp_emulate_network", "cdp_clear_network_emulation")


@cache
def _cpu() -> Switch[CpuEmulation]:
    """Built on first use: ``recording`` loads the driver, which declaring tools must not."""
    from ..recording import Switch

    return Switch("cdp.cpu_emulation", "CPU throttling", "cdp_emulate_cpu", "cdp_clear_cpu_emulation")


class EmulateNetworkInput(ToolInput):
    preset: Literal["slow3g", "fast3g", "4g", "wifi", "offline"] | None = None
    latency: float | None = Field(default=None, ge=0, le=60_000)
    download: float | None = Field(default=None, gt=0)
    upload: float | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _something(self) -> EmulateNetworkInput:
        if self.preset is None and self.latency is None and self.download is None and self.upload is None:
            raise ValueError("give a preset or at least one of latency, download, upload")
        return self


class EmulateNetworkOutput(MessageOutput):
    preset: str | None
    offline: bool
    latency: float = Field(description="Latency in ms")
    download: float = Field(description="Download bytes/s (-1 = unthrottled)")
    upload: float = Field(description="Upload bytes/s (-1 = unthrottled)")


def network_conditions(tab: Tab, target: Session, offline: bool) -> dict[str, Any]:
    """``Network.emulateNetworkConditions`` params for one of the tab's targets.

    network_set_offline and cdp_emulate_network share that command, so each sends what both
    want: offline when ``offline`` (network_set_offline's flag) or an offline preset says so,
    plus the throttling, which applies to the tab itself (not its iframes and workers)."""
    throttle = (tab.extras.get(CONDITIONS_KEY) or {}) if target is tab.session else {}
    params: dict[str, Any] = {
        "offline": offline or bool(throttle.get("offline")),
        "latency": throttle.get("latency", 0),
        "downloadThroughput": throttle.get("downloadThroughput", -1),
        "uploadThroughput": throttle.get("uploadThroughput", -1),
    }
    if throttle.get("connectionType"):
        params["connectionType"] = throttle["connectionType"]
    return params


async def _apply_network(tab: Tab) -> None:
    offline = (tab.extras.get(NETWORK_OFFLINE_KEY) or {}).get(tab.session.session_id or "", False)
    params = network_conditions(tab, tab.session, bool(offline))
    await tab.session.send("Network.emulateNetworkConditions", params, timeout=10)


@tool("cdp_emulate_network", EmulateNetworkInput, EmulateNetworkOutput, effect="sets")
async def cdp_emulate_network(session: ToolSession, args: EmulateNetworkInput) -> EmulateNetworkOutput:
    """Throttle the network (a preset, or latency ms and throughput bytes/s) until
    cdp_clear_network_emulation."""
    _network().ensure_off(session)
    tab = await session.tab()
    latency, down, up, offline, kind = NETWORK_PRESETS.get(args.preset or "", (0.0, -1.0, -1.0, False, ""))
    latency = args.latency if args.latency is not None else latency
    down = args.download if args.download is not None else down
    up = args.upload if args.upload is not None else up
    conditions = {"offline": offline, "latency": latency, "downloadThroughput": down,
                  "uploadThroughput": up, "connectionType": kind or None}
    tab.extras[CONDITIONS_KEY] = conditions
    try:
        await _apply_network(tab)
    except BaseException:
        tab.extras.pop(CONDITIONS_KEY, None)
        raise
    _network().set(session, NetworkEmulation(tab, conditions))
    label = args.preset or "custom"
    return EmulateNetworkOutput(
        message=f"network emulation on ({label}: {latency:g} ms, down {down:g} B/s, up {up:g} B/s"
                + (", offline" if offline else "") + ")",
        preset=args.preset, offline=offline, latency=latency, download=down, upload=up)


@tool("cdp_clear_network_emulation", NoInput, MessageOutput, effect="sets")
async def cdp_clear_network_emulation(session: ToolSession, args: NoInput) -> MessageOutput:
    """Undo cdp_emulate_network."""
    record = _network().take(session)
    tab = record.tab
    tab.extras.pop(CONDITIONS_KEY, None)
    await _apply_network(tab)
    return MessageOutput(message="network emulation cleared")


class EmulateCpuInput(ToolInput):
    rate: Literal[2, 4, 6]


class EmulateCpuOutput(MessageOutput):
    rate: int


@tool("cdp_emulate_cpu", EmulateCpuInput, EmulateCpuOutput, effect="sets")
async def cdp_emulate_cpu(session: ToolSession, args: EmulateCpuInput) -> EmulateCpuOutput:
    """Slow the CPU down until cdp_clear_cpu_emulation."""
    _cpu().ensure_off(session)
    tab = await session.tab()
    await tab.session.send("Emulation.setCPUThrottlingRate", {"rate": args.rate}, timeout=10)
    _cpu().set(session, CpuEmulation(tab, args.rate))
    return EmulateCpuOutput(message=f"CPU throttled {args.rate}x", rate=args.rate)


@tool("cdp_clear_cpu_emulation", NoInput, MessageOutput, effect="sets")
async def cdp_clear_cpu_emulation(session: ToolSession, args: NoInput) -> MessageOutput:
    """Undo cdp_emulate_cpu."""
    record = _cpu().take(session)
    await record.tab.session.send("Emulation.setCPUThrottlingRate", {"rate": 1}, timeout=10)
    return MessageOutput(message=f"CPU throttling ({record.rate:g}x) cleared")

