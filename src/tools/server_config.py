"""How the MCP server was started, apart from the session it configures.

The server builds this from its command line before the MCP handshake; keeping it out of
``tools.session`` means the handshake imports neither the driver nor Trio's browser code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .guard.policy import GuardConfig


@dataclass
class ServerConfig:
    headless: bool = True
    output_dir: Path = Path("a11y-output")
    project: str = "a11y"
    browser_url: str | None = None
    default_timeout_ms: int = 5000
    init_scripts: list[str] = field(default_factory=list)
    isolated: bool = False
    namespaces: set[str] | None = None
    tools: set[str] | None = None
    extensions: bool = True
    launch_timeout: float = 30.0
    #: The budget of one tool result, in characters of JSON (``--max-result-size``).
    max_result_chars: int = 1_000_000
    #: Every client reads structured content, so no result's text repeats its JSON
    #: (``--structured-only``; without it only a client that says so: :mod:`a11y.result_budget`).
    structured_only: bool = False
    #: Over HTTP: browser contexts (clients) open at once, and seconds without a call after
    #: which a client's context is closed (``--max-contexts``, ``--context-idle-timeout``).
    max_contexts: int = 16
    context_idle_timeout: float = 600.0
    #: The guard rails (``--allowed-origins``, ``--secrets``…: :mod:`tools.guard`); None: none.
    guard: GuardConfig | None = None
