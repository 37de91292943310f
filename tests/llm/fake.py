"""A fake LLM provider server for tests: one threaded HTTP server on 127.0.0.1 that speaks
the request and response shapes of Anthropic Messages, OpenAI-style Chat Completions (OpenAI,
xAI, OpenAI-compatible), Gemini generateContent and Ollama chat.

It records every request, checks the provider's auth header against the key the test
configured (a wrong key gets that provider's real 401 body), answers each ``### Item qN`` in
the prompt with a verdict (``decide`` can be replaced) and reports token usage computed from
the request the way the providers roughly do (about 4 characters per text token; images by
Anthropic's width*height/750 rule), so cost measurements are realistic.

Tests can queue scripted answers (``fake.script.append(...)``): an HTTP status with the
provider's error body and headers, a delay, a raw non-JSON body, or a model text.
"""

from __future__ import annotations

import base64
import json
import math
import re
import struct
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ITEM_RE = re.compile(r"### Item (q\d+)\n(.*?)(?=\n### Item |\Z)", re.DOTALL)


@dataclass
class Recorded:
    provider: str
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    raw: bytes


@dataclass
class Status:
    """Answer with this HTTP status and the provider's error body."""

    code: int
    message: str = "scripted error"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Delay:
    """Wait, then answer with ``then`` (a normal answer when None)."""

    seconds: float
    then: Status | RawBody | ModelText | None = None


@dataclass
class RawBody:
    """A 200 whose body is this text (e.g. not JSON at all)."""

    text: str
    content_type: str = "text/html"


@dataclass
class ModelText:
    """A well-formed provider envelope whose model text is this string."""

    text: str


Verdict = tuple[str, float, str, str | None]


def default_decide(item_id: str, block: str) -> Verdict:
    """Verdicts by the rule line of the item block, like a plausible reviewer."""
    if "Rule color-contrast" in block:
        return ("confirmed", 0.97, "Grey #aaa text on white has a 2.3:1 ratio, below 4.5:1.",
                '<p id="low-contrast" style="color:#595959;background:#fff">Light grey text on white.</p>')
    if "Rule llm-alt-text-meaningful" in block or "Rule image-alt" in block:
        return ("confirmed", 0.93, "The alt text is a camera file name, not a description.",
                '<img src="IMG_0412.jpg" alt="Volunteers planting trees in the park">')
    if "Rule llm-link-purpose" in block:
        return ("confirmed", 0.88, "The link text does not say where the link goes.",
                '<a href="/report.pdf">Download the 2024 annual report (PDF)</a>')
    return ("needs_manual_review", 0.5, "The evidence is not enough to decide.", None)


def image_tokens(data: bytes) -> int:
    """Anthropic's estimate: width * height / 750 (PNG size from IHDR; others 400)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return max(1, math.ceil(width * height / 750))
    return 400


class FakeLLM:
    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.script: deque[Status | Delay | RawBody | ModelText] = deque()
        self.keys: dict[str, str | None] = {}
        self.decide: Callable[[str, str], Verdict] = default_decide
        #: What to do when the script is empty (None: answer normally).
        self.default_step: Status | Delay | RawBody | ModelText | None = None
        self.concurrent = 0
        self.max_concurrent = 0
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                with fake._lock:
                    fake.concurrent += 1
                    fake.max_concurrent = max(fake.max_concurrent, fake.concurrent)
                try:
                    status, body, headers = fake.handle(self.path, dict(self.headers), raw)
                finally:
                    with fake._lock:
                        fake.concurrent -= 1
                try:
                    self.send_response(status)
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    def start(self) -> FakeLLM:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    # ------------------------------------------------------------------ routing

    @staticmethod
    def provider_of(path: str) -> str:
        if path.startswith("/xai/"):
            return "xai"
        if path.startswith("/compat/"):
            return "openai-compatible"
        if path.endswith("/v1/messages"):
            return "anthropic"
        if ":generateContent" in path:
            return "gemini"
        if path.endswith("/api/chat"):
            return "ollama"
        return "openai"

    def _authorized(self, provider: str, headers: dict[str, str]) -> bool:
        expected = self.keys.get(provider)
        lower = {k.lower(): v for k, v in headers.items()}
        if provider == "anthropic":
            return lower.get("x-api-key") == expected and lower.get("anthropic-version") == "2023-06-01"
        if provider == "gemini":
            return lower.get("x-goog-api-key") == expected
        if provider == "ollama":
            return True
        if expected is None:
            return "authorization" not in lower
        return lower.get("authorization") == f"Bearer {expected}"

    def handle(self, path: str, headers: dict[str, str], raw: bytes) -> tuple[int, bytes, dict[str, str]]:
        provider = self.provider_of(path)
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        self.requests.append(Recorded(provider, "POST", path, headers, body, raw))
        step = self.script.popleft() if self.script else self.default_step
        if isinstance(step, Delay):
            time.sleep(step.seconds)
            step = step.then
        if isinstance(step, Status):
            return self.error(provider, step.code, step.message, step.headers)
        if isinstance(step, RawBody):
            return 200, step.text.encode(), {"Content-Type": step.content_type}
        if not self._authorized(provider, headers):
            key = headers.get("authorization") or headers.get("x-api-key") or headers.get("x-goog-api-key") or ""
            # Like OpenAI, echo (part of) what was sent: the client must scrub it.
            return self.error(provider, 401, f"Incorrect API key provided: {key}")
        system, text, images = self.prompt_of(provider, body)
        if isinstance(step, ModelText):
            answer = step.text
        else:
            answer = json.dumps({"results": [self._verdict(i, b) for i, b in ITEM_RE.findall(text)]})
        tokens_in = math.ceil((len(system) + len(text)) / 4) + sum(image_tokens(i) for i in images) + 10
        tokens_out = math.ceil(len(answer) / 4)
        model = body.get("model", path.split("/models/")[-1].split(":")[0]) if isinstance(body, dict) else "?"
        return 200, json.dumps(self.envelope(provider, model, answer, tokens_in, tokens_out)).encode(), {
            "Content-Type": "application/json"}

    def _verdict(self, item_id: str, block: str) -> dict[str, Any]:
        verdict, confidence, reasoning, fix = self.decide(item_id, block)
        return {"id": item_id, "verdict": verdict, "confidence": confidence, "reasoning": reasoning, "fix": fix}

    # ------------------------------------------------------------------ wire shapes

    @staticmethod
    def prompt_of(provider: str, body: Any) -> tuple[str, str, list[bytes]]:
        """(system text, user text, image bytes) from a request in the provider's shape."""
        texts: list[str] = []
        images: list[bytes] = []
        system = ""
        if provider == "anthropic":
            system = body["system"]
            for block in body["messages"][0]["content"]:
                if block["type"] == "text":
                    texts.append(block["text"])
                else:
                    images.append(base64.b64decode(block["source"]["data"]))
        elif provider == "gemini":
            system = body["systemInstruction"]["parts"][0]["text"]
            for part in body["contents"][0]["parts"]:
                if "text" in part:
                    texts.append(part["text"])
                else:
                    images.append(base64.b64decode(part["inline_data"]["data"]))
        elif provider == "ollama":
            system = body["messages"][0]["content"]
            user = body["messages"][1]
            texts.append(user["content"])
            images = [base64.b64decode(i) for i in user.get("images", [])]
        else:
            system = body["messages"][0]["content"]
            for part in body["messages"][1]["content"]:
                if part["type"] == "text":
                    texts.append(part["text"])
                else:
                    url = part["image_url"]["url"]
                    images.append(base64.b64decode(url.split(",", 1)[1]))
        return system, "\n\n".join(texts), images

    @staticmethod
    def envelope(provider: str, model: str, text: str, tokens_in: int, tokens_out: int) -> dict[str, Any]:
        if provider == "anthropic":
            return {"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
                    "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
                    "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out}}
        if provider == "gemini":
            return {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                                    "finishReason": "STOP", "index": 0}],
                    "usageMetadata": {"promptTokenCount": tokens_in, "candidatesTokenCount": tokens_out,
                                      "totalTokenCount": tokens_in + tokens_out},
                    "modelVersion": model}
        if provider == "ollama":
            return {"model": model, "created_at": "2025-01-01T00:00:00Z",
                    "message": {"role": "assistant", "content": text}, "done": True,
                    "done_reason": "stop", "prompt_eval_count": tokens_in, "eval_count": tokens_out}
        return {"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": tokens_in, "completion_tokens": tokens_out,
                          "total_tokens": tokens_in + tokens_out}}

    @staticmethod
    def error(provider: str, code: int, message: str, headers: dict[str, str] | None = None,
              ) -> tuple[int, bytes, dict[str, str]]:
        if provider == "anthropic":
            kind = {401: "authentication_error", 429: "rate_limit_error", 529: "overloaded_error"}.get(code, "api_error")
            body: dict[str, Any] = {"type": "error", "error": {"type": kind, "message": message}}
        elif provider == "gemini":
            body = {"error": {"code": code, "message": message, "status": "UNAUTHENTICATED" if code == 401 else "UNAVAILABLE"}}
        elif provider == "ollama":
            body = {"error": message}
        else:
            body = {"error": {"message": message, "type": "invalid_request_error", "code": None}}
        return code, json.dumps(body).encode(), {"Content-Type": "application/json", **(headers or {})}
