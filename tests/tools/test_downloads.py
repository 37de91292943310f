"""Downloads through the MCP layer: saved under the output directory, listed by the action."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import trio

from tests.support.site import Response

NOTES = b"notes \x00\x01\x02 bytes\n" * 50
REPORT = bytes(range(256)) * 40


async def test_clicks_and_navigations_that_download_save_the_file(mcp, site, tool_config):
    site.route("/dl/notes.txt", Response(NOTES, content_type="text/plain"))
    site.route("/dl/report", Response(REPORT, content_type="application/octet-stream", headers={
        "Content-Disposition": 'attachment; filename="../../.hidden/evil\\\\name.bin"'}))
    page = site.route("/dl/page", """<title>Files</title>
        <a id=attr href="/dl/notes.txt" download="notes.txt">notes</a>
        <a id=cd href="/dl/report">report</a> <button id=plain>plain</button>""")
    await mcp.ok("page_navigate", {"url": page})
    folder = (tool_config.output_dir / "downloads").resolve()

    clicked = await mcp.ok("element_click", {"selector": "#attr"})  # a link with a download attribute
    [notes] = clicked["downloads"]
    assert notes["state"] == "completed" and notes["suggested_filename"] == "notes.txt"
    assert notes["bytes"] == len(NOTES) and "downloaded 1 file" in clicked["message"]
    assert Path(notes["path"]) == folder / "notes.txt" and Path(notes["path"]).read_bytes() == NOTES

    clicked = await mcp.ok("element_click", {"selector": "#cd"})  # Content-Disposition: attachment
    [report] = clicked["downloads"]
    saved = Path(report["path"])
    assert report["state"] == "completed" and report["bytes"] == len(REPORT) and saved.read_bytes() == REPORT
    assert saved.parent == folder and not saved.name.startswith(".") and saved.name.endswith(".bin")
    assert report["url"] == site.url("/dl/report")

    assert "downloads" not in await mcp.ok("element_click", {"selector": "#plain"})
    assert (await mcp.ok("page_get_url"))["url"] == page  # the page stayed and still answers

    # A URL that is a download, opened directly: a result naming the file, not a hang or an error.
    navigated = await mcp.ok("page_navigate", {"url": site.url("/dl/report"), "timeout_ms": 10000})
    again = navigated["download"]
    assert navigated["url"] == page and navigated["title"] == "Files"
    assert again["state"] == "completed" and Path(again["path"]).read_bytes() == REPORT
    assert Path(again["path"]) != saved and Path(again["path"]).parent == folder  # numbered, not overwritten

    written = sorted(p.relative_to(tool_config.output_dir) for p in tool_config.output_dir.rglob("*") if p.is_file())
    assert written == sorted(Path("downloads") / Path(p).name for p in (notes["path"], report["path"], again["path"]))


async def test_an_endless_download_is_cancelled_past_the_size_cap(mcp, site, tool_config, monkeypatch):
    from tools import downloads

    monkeypatch.setattr(downloads, "MAX_DOWNLOAD_BYTES", 300_000)
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def trickle() -> None:  # an attachment that never ends
        conn, _ = server.accept()
        with conn:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                         b"Content-Disposition: attachment; filename=endless.bin\r\n\r\n")
            while not stop.is_set():
                try:
                    conn.sendall(b"\0" * 65536)
                except OSError:
                    return
                stop.wait(0.02)

    threading.Thread(target=trickle, daemon=True).start()
    try:
        endless = f"http://127.0.0.1:{server.getsockname()[1]}/endless"
        page = site.route("/dl/endless-page", f'<title>Endless</title><a id=go href="{endless}">go</a>')
        await mcp.ok("page_navigate", {"url": page})
        clicked = await mcp.ok("element_click", {"selector": "#go"})
        [download] = clicked["downloads"]
        folder = tool_config.output_dir / "downloads"
        assert download["state"] in {"too_large", "in_progress"}
        with trio.move_on_after(30):  # against a hang only: the assertion below decides
            while True:
                leftovers = [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []
                if not leftovers:
                    break
                await trio.sleep(0.1)
        assert leftovers == []  # cancelled, and the partial file deleted: the disk stays safe
    finally:
        stop.set()
        server.close()
