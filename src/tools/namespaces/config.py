"""config_: what this server is configured with."""

from __future__ import annotations

from ..models import ConfigInfo, NoInput
from ..registry import tool
from ..session import ToolSession


@tool("config_get", NoInput, ConfigInfo)
async def config_get(session: ToolSession, args: NoInput) -> ConfigInfo:
    """Report the server configuration: headless, project name, default timeout (ms), whether
    the browser is running, the output directory and the browser version."""
    browser = session.browser if session.browser_launched else None
    return ConfigInfo(
        headless=session.headless,
        project=session.config.project,
        default_timeout_ms=session.config.default_timeout_ms,
        browser_launched=browser is not None,
        output_dir=str(session.output_root),
        browser_version=browser.version.product if browser and browser.version else None,
    )
