"""Files a tool writes, as MCP resources: linked from the result, read back through ``resources/read``.

Every file a tool writes goes through ``ToolSession.output_path`` (screenshots saved to disk,
PDFs, traces, videos, heap snapshots, coverage, quality reports, saved states…), which notes it
for the call; the result then carries a ``resource_link`` block per file besides what the tool
returns. A client that cannot see the server's disk reads the bytes with ``resources/read``.

URIs are ``a11y-file://<context>/<path inside the output directory>`` (the context is
``default`` on stdio). A read is refused, with the reason as ``data.code``, when the URI has
another scheme (``unknown_scheme``), its path leaves the output directory, by ``..`` or by a
symlink pointing out (``outside_output``), it names a context that is not open or not the
client's own (``other_context``), or no such file is there (``not_found``). Over HTTP, where
clients share the server, a context serves only the files its own calls wrote; on stdio any
file in the output directory. ``resources/list`` lists the files the client's context wrote
(the last ``tools.session.WRITTEN_KEPT``).
"""

from __future__ import annotations

import base64
import mimetypes
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote, urlsplit

if TYPE_CHECKING:
    import mcp_types as types

    from tools.contexts import ContextPool

SCHEME = "a11y-file"
MAX_READ_BYTES = 100 * 1024 * 1024  # a resources/read answer is one JSON message
_MIME = {".webm": "video/webm", ".heapsnapshot": "application/json", ".har": "application/json",
         ".zip": "application/zip", ".json": "application/json"}


def mime_type(path: Path) -> str:
    return _MIME.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"


def uri_of(root: Path, handle: str, path: Path) -> str:
    return f"{SCHEME}://{quote(handle, safe='')}/{quote(path.relative_to(root).as_posix())}"


def links(pool: ContextPool, handle: str, files: list[Path]) -> list[types.ResourceLink]:
    """A ``resource_link`` for each file the call wrote that is there now (each once)."""
    import mcp_types as types

    root = _root(pool)
    blocks = []
    for path in dict.fromkeys(files):
        if path.is_file():
            blocks.append(types.ResourceLink(type="resource_link", uri=uri_of(root, handle, path),
                                             name=path.relative_to(root).as_posix(), mime_type=mime_type(path),
                                             size=path.stat().st_size))
    return blocks


def listing(pool: ContextPool, client: str | None) -> types.ListResourcesResult:
    """The files the client's context wrote that are still there, newest last."""
    import mcp_types as types

    session, handle = pool.session_of(client=client)
    root = _root(pool)
    files = [path for path in (session.written if session is not None else ()) if path.is_file()]
    return types.ListResourcesResult(resources=[
        types.Resource(uri=uri_of(root, handle, path), name=path.relative_to(root).as_posix(),
                       mime_type=mime_type(path), size=path.stat().st_size) for path in files])


def read(pool: ContextPool, client: str | None, uri: str) -> types.ReadResourceResult:
    """The bytes of one file a tool wrote, or :class:`MCPError` saying why not."""
    import mcp_types as types

    parts = urlsplit(uri)
    if parts.scheme != SCHEME:
        raise _refused("unknown_scheme", f"{uri!r}: this server serves only {SCHEME}:// URIs, "
                       "the ones its tool results link")
    root = _root(pool)
    relative = unquote(parts.path).lstrip("/")
    if not relative or ".." in Path(relative).parts:
        raise _refused("outside_output", f"{uri!r}: a path inside the output directory, without '..'")
    full = (root / relative).resolve()  # follows symlinks: one pointing out is outside
    if root not in full.parents:
        raise _refused("outside_output", f"{uri!r} is outside the output directory")
    session, handle = pool.session_of(client=client, handle=unquote(parts.netloc) or None)
    if session is None:
        raise _refused("other_context", f"{uri!r}: no open browser context of yours wrote it")
    if pool.shared and full not in session.written:
        raise _refused("not_found", f"{uri!r}: your browser context wrote no such file")
    if not full.is_file():
        raise _refused("not_found", f"{uri!r}: no such file")
    size = full.stat().st_size
    if size > MAX_READ_BYTES:
        raise _refused("too_large", f"{uri!r} has {size} bytes, over {MAX_READ_BYTES}; read it from disk")
    data, mime = full.read_bytes(), mime_type(full)
    contents: Any = None
    if mime.startswith("text/") or mime == "application/json":
        try:
            contents = types.TextResourceContents(uri=uri, mime_type=mime, text=data.decode("utf-8"))
        except UnicodeDecodeError:
            pass  # not text after all: a blob
    if contents is None:
        contents = types.BlobResourceContents(uri=uri, mime_type=mime, blob=base64.b64encode(data).decode("ascii"))
    return types.ReadResourceResult(contents=[contents])


def _root(pool: ContextPool) -> Path:
    return pool.config.output_dir.expanduser().resolve()


def _refused(code: str, message: str) -> Exception:
    from mcp.shared.exceptions import MCPError
    from mcp_types.jsonrpc import INVALID_PARAMS

    return MCPError(code=INVALID_PARAMS, message=message, data={"code": code})

