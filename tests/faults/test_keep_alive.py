"""An early answer (before the body was read) never stalls its connection: the next request
on it is answered, or the connection is closed with ``Connection: close`` (issue #17 item 4).

Raw sockets, because an HTTP client library hides exactly what is tested here: the body still
in flight when the answer comes, and what happens to the connection afterwards."""

from __future__ import annotations

import pytest
import trio

HEALTH = b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n"


async def _connect(service) -> trio.SocketStream:
    host, port = service.url.removeprefix("http://").rsplit(":", 1)
    return await trio.open_tcp_stream(host, int(port))


async def _read_response(stream: trio.SocketStream) -> tuple[bytes, bytes] | None:
    """(head, body) of one response; None when the server closed the connection first."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = await stream.receive_some(65536)
        if not chunk:
            return None
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = next(int(line.split(b":")[1]) for line in head.lower().split(b"\r\n")
                  if line.startswith(b"content-length:"))
    while len(body) < length:
        body += await stream.receive_some(65536)
    return head, body


async def _send_slowly(stream: trio.SocketStream, head: bytes, body: bytes) -> None:
    """The head, then the body in 8 KiB pieces with pauses, so the server answers while
    most of the body is still to come."""
    await stream.send_all(head)
    for start in range(0, len(body), 8192):
        await trio.sleep(0.01)
        try:
            await stream.send_all(body[start:start + 8192])
        except trio.BrokenResourceError:  # a server that closed on us: allowed for a refused body
            return


def _request(method: str, path: str, body: bytes, content_type: str = "application/json") -> bytes:
    return (f"{method} {path} HTTP/1.1\r\nHost: t\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()


BODY = b'{"url": "http://example.test/", "pad": "' + b"x" * 40_000 + b'"}'


@pytest.mark.parametrize(("method", "path", "content_type", "status"), [
    ("POST", "/health", "application/json", b" 405"),
    ("PUT", "/audit", "application/json", b" 405"),
    ("POST", "/no-such-endpoint", "application/json", b" 404"),
    ("POST", "/audit", "text/plain", b" 400"),
])
async def test_the_next_request_is_answered_after_an_early_answer(service, method, path, content_type, status):
    stream = await _connect(service)
    async with stream:
        with trio.fail_after(10):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_send_slowly, stream, _request(method, path, BODY, content_type), BODY)
                first = await _read_response(stream)
            assert first is not None and status in first[0].split(b"\r\n")[0]
            assert b"connection: close" not in first[0].lower()  # the whole body came: reusable
            await stream.send_all(HEALTH)
            second = await _read_response(stream)
        assert second is not None and b" 200" in second[0].split(b"\r\n")[0]


async def test_a_body_over_the_limit_closes_the_connection_instead_of_stalling(service):
    body = b"[" + b"0," * 150_000 + b"0]"
    stream = await _connect(service)
    async with stream:
        with trio.fail_after(10):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_send_slowly, stream, _request("POST", "/audit", body), body)
                first = await _read_response(stream)
            assert first is not None and b" 400" in first[0].split(b"\r\n")[0]
            assert b"payload_too_large" in first[1]
            assert b"connection: close" in first[0].lower()
            assert await _rest(stream) == b""  # closed: the next request cannot be mistaken for body


async def test_a_body_that_stops_midway_gets_its_answer_and_a_closed_connection(service):
    """The server waits a moment for the rest (``BODY_DRAIN_TIMEOUT``), then answers and
    closes; it never waits for a body forever."""
    head = _request("POST", "/audit", b"", "text/plain").replace(b"Content-Length: 0", b"Content-Length: 10000")
    stream = await _connect(service)
    async with stream:
        with trio.fail_after(10):
            await stream.send_all(head + b"{" * 100)  # then nothing more
            first = await _read_response(stream)
            assert first is not None and b"unsupported_media_type" in first[1]
            assert b"connection: close" in first[0].lower()
            assert await _rest(stream) == b""


async def _rest(stream: trio.SocketStream) -> bytes:
    try:
        return await stream.receive_some(65536)
    except trio.BrokenResourceError:  # a reset is a closed connection too
        return b""
