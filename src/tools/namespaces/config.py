"""config_: what this server is configured with."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..models import ConfigInfo, NoInput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession


@tool("config_get", NoInput, ConfigInfo, effect="reads")
async def config_get(session: ToolSession, args: NoInput) -> ConfigInfo:
    """The server's settings and whether the browser runs."""
    browser = session.browser if session.browser_launched else None
    return ConfigInfo(
        headless=session.headless,
        project=session.config.project,
        default_timeout_ms=session.config.default_timeout_ms,
        browser_launched=browser is not None,
        output_dir=str(session.output_root),
        browser_version=browser.version.product if browser and browser.version else None,
    )
