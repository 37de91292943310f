"""cdp_ extensions: load, list and remove unpacked extensions in the running browser.

The ``Extensions`` domain works only when the browser was started with
``--enable-unsafe-extension-debugging`` (and without ``--disable-extensions``).
A browser this server launches has it, because ``ServerConfig.extensions`` is
on by default. Chromium 156 accepts the commands over a websocket as well as
over the pipe; but a browser started with ``--disable-extensions`` answers
``loadUnpacked`` with an id and installs nothing, so every install is checked
against ``Extensions.getExtensions`` and such a silent no-op is an error.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import Field

from ..errors import ToolError
from ..models import MessageOutput, NoInput, ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from cdpdriver import CDPError

    from ..session import ToolSession


STATE_KEY = "cdp.extensions"  # id -> {name, path}: what this session installed


def _unavailable(session: ToolSession, reason: str) -> ToolError:
    how = ("start the server without --browser-url so it launches its own browser, or start that browser "
           "with --enable-unsafe-extension-debugging and without --disable-extensions")
    where = "the attached browser (--browser-url)" if session.config.browser_url else "this browser"
    return ToolError("cdp_error", f"extensions cannot be installed in {where}: {reason}; {how}")


def _not_available(exc: CDPError) -> bool:
    text = str(exc).lower()
    return "not available" in text or "wasn't found" in text or ("not found" in text and "method" in text)


class InstallExtensionInput(ToolInput):
    path: str = Field(min_length=1)


class InstallExtensionOutput(MessageOutput):
    id: str = Field(description="Extension id (for cdp_uninstall_extension)")
    name: str = Field(description="Name from its manifest")


@tool("cdp_install_extension", InstallExtensionInput, InstallExtensionOutput, effect="deletes", open_world=True)
async def cdp_install_extension(session: ToolSession, args: InstallExtensionInput) -> InstallExtensionOutput:
    """Load an unpacked extension (not with --browser-url); returns its id."""
    from cdpdriver import CDPError

    directory = Path(args.path).expanduser().resolve()
    if not (directory / "manifest.json").is_file():
        raise ToolError("invalid_path", f"{args.path!r} is not an unpacked extension directory (no manifest.json in it)")
    browser = await session.ensure_browser()
    try:
        reply = await browser.session.send("Extensions.loadUnpacked", {"path": str(directory)}, timeout=30)
    except CDPError as exc:
        if _not_available(exc):
            raise _unavailable(session, str(exc)) from exc
        raise ToolError("invalid_arguments", f"the browser refused the extension in {directory}: {exc}") from exc
    ext_id = str(reply["id"])
    listed = next((e for e in await _listing(session) if e["id"] == ext_id), None)
    if listed is None:
        raise _unavailable(session, "it accepted the extension but did not load it (extensions are disabled "
                                    "there, e.g. --disable-extensions)")
    name = listed["name"] or directory.name
    session.state(STATE_KEY, dict)[ext_id] = {"name": name, "path": str(directory)}
    return InstallExtensionOutput(message=f"extension {name!r} installed", id=ext_id, name=name)


async def _listing(session: ToolSession) -> list[dict[str, Any]]:
    from cdpdriver import CDPError

    browser = await session.ensure_browser()
    try:
        reply = await browser.session.send("Extensions.getExtensions", timeout=10)
    except CDPError as exc:
        if _not_available(exc):
            raise _unavailable(session, str(exc)) from exc
        raise
    return [{"id": e.get("id"), "name": e.get("name"), "enabled": bool(e.get("enabled")),
             "version": e.get("version"), "path": e.get("path")} for e in reply.get("extensions", [])]


class ListExtensionsOutput(ToolOutput):
    extensions: list[dict[str, Any]] = Field(description="Unpacked extensions: id, name, enabled, version, path")
    count: int


@tool("cdp_list_extensions", NoInput, ListExtensionsOutput, effect="reads")
async def cdp_list_extensions(session: ToolSession, args: NoInput) -> ListExtensionsOutput:
    """List the unpacked extensions."""
    extensions = await _listing(session)
    return ListExtensionsOutput(extensions=extensions, count=len(extensions))


class UninstallExtensionInput(ToolInput):
    id: str = Field(min_length=1)


@tool("cdp_uninstall_extension", UninstallExtensionInput, MessageOutput, effect="deletes")
async def cdp_uninstall_extension(session: ToolSession, args: UninstallExtensionInput) -> MessageOutput:
    """Remove an unpacked extension."""
    from cdpdriver import CDPError

    browser = await session.ensure_browser()
    try:
        await browser.session.send("Extensions.uninstall", {"id": args.id}, timeout=30)
    except CDPError as exc:
        if "could not find" in str(exc).lower():
            raise ToolError("not_found", f"no extension with id {args.id!r}; call cdp_list_extensions") from exc
        if _not_available(exc):
            raise _unavailable(session, str(exc)) from exc
        raise
    known = session.state(STATE_KEY, dict).pop(args.id, None)
    name = known["name"] if known else args.id
    return MessageOutput(message=f"extension {name!r} uninstalled")
