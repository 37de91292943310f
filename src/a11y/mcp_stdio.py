"""``a11y mcp`` over stdio, answering the agent before the heavy imports are done.

Spawn → initialized is on the agent's clock, and a bare interpreter starts in about 20 ms
while Trio, the MCP SDK and the tools take hundreds. So the main thread claims stdin and
stdout (:class:`~a11y.mcp_early.StdioWire`), starts one worker thread, and answers the
opening of the conversation itself (:func:`~a11y.mcp_early.answer_opening`) with only the
standard library and :mod:`a11y.mcp_early` loaded. The worker parses the command line with
the real parser, builds the server's configuration and the ``tools/list`` entries, then
imports the SDK and Trio, then the tools. At the first message the early replies cannot
answer, the main thread waits for the SDK and hands the conversation to it
(:func:`a11y.mcp_server.carry_on_stdio`); a first tool call loses nothing, because the
imports began at spawn.

``python -m a11y`` enters here first (:func:`main`) when the command line is a plain stdio
``mcp``: options whose values cannot change what the early replies say, spelled out, checked
here well enough that the real parser accepts them too. Anything else (``--help``,
``--list-tools``, ``--http``, a guard rail, which adds to the instructions, an abbreviation)
goes the ordinary way, through :mod:`a11y.cli`, whose ``mcp`` handler then serves stdio with
the same :func:`serve` and a configuration already made. An unknown profile, namespace or
tool is found by the worker: the server then says so on stderr and ends with status 2 at the
first reply that needs the tool list, or at the end of stdin, where the ordinary way would
have ended before the opening.
"""

from __future__ import annotations

import threading

from . import __version__
from .mcp_early import INSTRUCTIONS, Handshake, ServerFacts, StdioWire, answer_opening

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from tools.server_config import ServerConfig

#: How long the main thread waits for the worker's configuration or imports: far more than
#: they take on a loaded machine (about a second at a load average of 10 on 2 cores), so
#: reaching it means the worker is stuck, not slow.
IMPORT_TIMEOUT = 120.0


def _whole(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def _budget(text: str) -> bool:
    return _whole(text) and int(text) >= 10_000  # --max-result-size's smallest budget


#: Options of ``a11y mcp`` that may come with a plain stdio command line, with a check their
#: value passes when the real parser takes it (None: any value not starting with '-').
_VALUED: dict[str, Callable[[str], bool] | None] = {
    "--output-dir": None, "--project": None, "--browser-url": None, "--timeout": _whole,
    "--max-result-size": _budget, "--profile": None, "--namespaces": None, "--tools": None,
}
_FLAGS = frozenset({"--headless", "--headed", "--structured-only"})


def plain_stdio(argv: list[str]) -> bool:
    """Whether ``argv`` is ``mcp`` on stdio with only the options above, each spelled out."""
    if not argv or argv[0] != "mcp":
        return False
    rest = iter(argv[1:])
    for token in rest:
        if token in _FLAGS:
            continue
        name, equals, value = token.partition("=")
        if not equals:
            value = next(rest, "-")  # a missing value fails as one starting with '-'
        if name not in _VALUED or (not equals and value.startswith("-")):
            return False
        check = _VALUED[name]
        if check is not None and not check(value):
            return False
    return True


class Stopped(Exception):
    """The worker found the command line wrong (and said so on stderr): end with ``code``."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class Loader:
    """The worker thread and what it makes, in order: the configuration and the tool list
    (``configured``), the SDK and Trio (``sdk_ready``), the tools (``tools_ready``). Each
    event is set on every path, so no wait outlives a failure; the failure is raised on the
    main thread where it waits."""

    def __init__(self, prepare: Callable[[], ServerConfig | int]) -> None:
        self._prepare = prepare
        self.config: ServerConfig | None = None
        self.exit_code: int | None = None
        self.error: BaseException | None = None
        self.entries: list[dict[str, Any]] = []
        self.configured, self.sdk_ready, self.tools_ready = threading.Event(), threading.Event(), threading.Event()
        self._thread = threading.Thread(target=self._run, name="a11y-mcp-imports", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        try:
            try:
                self._configure()
            finally:
                self.configured.set()  # the tool list need not wait for the imports
            if self.config is not None:
                from .mcp_server import import_sdk, load_tools

                import_sdk()
                self.sdk_ready.set()
                load_tools()
        except BaseException as exc:  # noqa: BLE001  # raised again on the main thread
            self.error = exc
        finally:
            self.configured.set()
            self.sdk_ready.set()
            self.tools_ready.set()

    def _configure(self) -> None:
        try:
            outcome = self._prepare()
        except SystemExit as exc:  # argparse has printed its usage error
            outcome = exc.code if isinstance(exc.code, int) else 2
        if isinstance(outcome, int):
            self.exit_code = outcome
            return
        from .mcp_server import listing_entries

        self.entries = listing_entries(outcome)
        self.config = outcome

    def _wait(self, event: threading.Event) -> ServerConfig:
        if not event.wait(IMPORT_TIMEOUT):
            raise TimeoutError(f"the MCP server's imports took over {IMPORT_TIMEOUT:g} s")
        if self.exit_code is not None:
            raise Stopped(self.exit_code)
        if self.error is not None and (event is not self.configured or self.config is None):
            raise self.error  # a failed SDK import spoils no early reply, only the hand-over
        assert self.config is not None
        return self.config

    def listing(self) -> list[dict[str, Any]]:
        """The tools/list entries, once the worker has them."""
        self._wait(self.configured)
        return self.entries

    def checked(self) -> None:
        """Raise what the worker found wrong with the command line, if anything."""
        self._wait(self.configured)

    def with_sdk(self) -> ServerConfig:
        """The configuration, once the SDK is imported (for the hand-over)."""
        return self._wait(self.sdk_ready)

    def join(self) -> None:
        """Wait for the worker to finish before the process ends: a thread still importing
        when the interpreter finalizes can abort it ("FATAL: exception not rethrown" from a
        compiled extension's frame), so a client that closes stdin at once waits for the
        imports instead (bounded)."""
        if self._thread.ident is not None:
            self._thread.join(IMPORT_TIMEOUT)


def serve(loader: Loader, instructions: str) -> int:
    """Serve one client on stdin and stdout until stdin ends; the exit status."""
    stdio = StdioWire.claim()
    try:
        loader.start()
        return _serve(loader, instructions, stdio)
    finally:
        loader.join()
        stdio.restore()


def _serve(loader: Loader, instructions: str, stdio: StdioWire) -> int:
    """The opening answered here, then the rest by the SDK once the worker has imported it."""
    handshake = Handshake()
    facts = ServerFacts("a11y", __version__, instructions, loader.listing)
    try:
        line = answer_opening(stdio.inbound, stdio.outbound, handshake, facts)
        if line is None:
            loader.checked()
            return 0
        config = loader.with_sdk()
    except Stopped as stop:
        return stop.code
    except KeyboardInterrupt:
        return 0
    from .mcp_server import carry_on_stdio

    return carry_on_stdio(config, stdio, [*handshake.replay, line], handshake, loader.tools_ready)


def _configure(argv: list[str]) -> ServerConfig | int:
    """On the worker: the command line through the real parser, as ``a11y.cli.main`` does."""
    from .cli import _configure_logging, build_parser
    from .mcp_server import configure

    args = build_parser().parse_args(argv)
    _configure_logging(args.verbose)
    return configure(args)


def main(argv: list[str]) -> int | None:
    """Serve a plain stdio ``mcp`` command line (its exit status); None for any other."""
    if not plain_stdio(argv):
        return None
    return serve(Loader(lambda: _configure(argv)), INSTRUCTIONS)
