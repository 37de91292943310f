"""Command line: ``python -m a11y {serve,worker,audit,mcp,doctor,token}``.

Each subcommand imports its front end lazily, so ``--help`` and ``doctor``
stay fast and a broken optional piece cannot break the others.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from .versions import VersionAction


def _configure_logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not verbose:
        # Alembic narrates its plugin set-up and every migration step at INFO.
        logging.getLogger("alembic").setLevel(logging.WARNING)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="a11y",
        description="WCAG accessibility audits and an MCP browser tool server, on Chromium over CDP.",
    )
    parser.add_argument(
        "--version",
        action=VersionAction,
        help="print the version, with axe-core's and the browser's, and exit",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging on stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    doctor = sub.add_parser("doctor", help="check the browser and the axe-core bundle")
    doctor.set_defaults(handler="a11y.doctor:run")

    serve = sub.add_parser("serve", help="run the HTTP audit service")
    serve.add_argument("--port", type=int, default=8080)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--concurrency", type=int, default=4, help="pages audited at once")
    serve.add_argument("--max-pages", type=int, default=500, help="upper bound for crawl.maxPages")
    serve.add_argument("--queue-size", type=int, default=16, help="audits waiting before 503")
    serve.add_argument("--token", default=None, help="bearer token for /audit (or A11Y_API_TOKEN)")
    serve.add_argument("--block-private-networks", action="store_true",
                       help="refuse pages and subrequests on loopback, private or link-local addresses")
    serve.add_argument("--navigation-timeout", type=float, default=30.0, help="seconds per page")
    serve.add_argument("--audit-timeout", type=float, default=300.0, help="seconds per audit")
    serve.add_argument("--max-job-pages", type=int, default=100_000,
                       help="upper bound for crawl.maxPages of a job (POST /audits)")
    _add_browser_url(serve)
    _add_store_and_queue(serve, worker=False)
    serve.add_argument("--workers", type=int, default=None, metavar="N",
                       help="pages of jobs this service audits at once with its own browser "
                       "(default: --concurrency without --queue, 0 with --queue)")
    serve.set_defaults(handler="a11y.service.serve:run")

    worker = sub.add_parser("worker", help="audit the pages of jobs taken from a shared queue")
    _add_store_and_queue(worker, worker=True)
    _add_browser_url(worker)
    worker.add_argument("--concurrency", type=int, default=4, help="pages audited at once")
    worker.add_argument("--block-private-networks", action="store_true",
                        help="refuse pages and subrequests on loopback, private or link-local addresses")
    worker.add_argument("--navigation-timeout", type=float, default=30.0, help="seconds per page")
    worker.set_defaults(handler="a11y.worker:run")

    audit = sub.add_parser("audit", help="audit one URL (or crawl a site) and print a report")
    audit.add_argument("url")
    audit.add_argument("--level", default="AA", help="A, AA or AAA")
    audit.add_argument("--version", dest="wcag_version", default="2.2", help="WCAG 2.0, 2.1 or 2.2")
    audit.add_argument("--crawl", action="store_true", help="follow same-origin links")
    audit.add_argument("--depth", type=int, default=2)
    audit.add_argument("--max-pages", type=int, default=50)
    audit.add_argument("--best-practices", action="store_true", help="also run axe best-practice rules")
    audit.add_argument("--interaction", action=argparse.BooleanOptionalAction, default=True,
                       help="use the page after the static pass: the interactive checks (keyboard, hover, "
                       "zoom, reflow, language, ...); --no-interaction reads the DOM only (default: on)")
    audit.add_argument("--viewport", action="append", metavar="desktop|mobile|WxH[@dsf]",
                       help="the screen (default: the browser's 1280x800); give it again to audit "
                       "each page at several")
    audit.add_argument("--auth-file", default=None, metavar="PATH",
                       help="JSON file with the request's auth object (cookies, headers, "
                       "storageState, login); a file keeps secrets off the command line")
    audit.add_argument("--format", default="text", choices=["text", "json", "sarif", "junit", "html"])
    audit.add_argument("--output", default=None, help="write the report to this file")
    audit.add_argument("--group", default="findings", choices=["findings", "problems"],
                       help="sarif and junit: one result (test case) per finding, or per problem "
                       "(docs/problems.md); the text report always lists problems first; with a "
                       "baseline, problems also make --fail-on-new count new problems")
    audit.add_argument("--fail-on", default=None, choices=["critical", "serious", "moderate", "minor"],
                       help="exit 1 when findings at or above this impact exist")
    audit.add_argument("--baseline", default=None, metavar="REPORT",
                       help="compare with an earlier run's JSON report (--format json)")
    audit.add_argument("--baseline-run", default=None, metavar="ID",
                       help="compare with an earlier run of the service at --server")
    audit.add_argument("--server", default=None, metavar="URL", help="the service --baseline-run is on")
    audit.add_argument("--token", default=None,
                       help="bearer token of --server (or A11Y_API_TOKEN)")
    audit.add_argument("--fail-on-new", nargs="?", const="minor", default=None,
                       choices=["critical", "serious", "moderate", "minor"],
                       help="exit 1 when findings new since the baseline are at or above this "
                       "impact (minor when given alone)")
    audit.set_defaults(handler="a11y.audit_cli:run")

    mcp = sub.add_parser("mcp", help="run the MCP tool server (stdio by default)")
    mcp.add_argument("--list-tools", action="store_true", help="print the tool catalog as JSON and exit")
    mode = mcp.add_mutually_exclusive_group()
    mode.add_argument("--headless", dest="headless", action="store_true", default=True)
    mode.add_argument("--headed", dest="headless", action="store_false")
    mcp.add_argument("--output-dir", default="./a11y-output")
    mcp.add_argument("--project", default="a11y")
    mcp.add_argument("--browser-url", default=None, help="attach to a running Chrome (http:// or ws://)")
    mcp.add_argument("--timeout", type=int, default=5000, help="default action timeout in ms")
    mcp.add_argument("--init-script", action="append", default=[], help="script file run before page scripts")
    mcp.add_argument("--profile", default=None, metavar="NAMES",
                     help="comma-separated tool profiles to expose: core, forms, network, storage, testing, "
                     "devtools, all (default all; see README); adds to --namespaces and --tools")
    mcp.add_argument("--namespaces", default=None, help="comma-separated namespaces to expose")
    mcp.add_argument("--tools", default=None, help="comma-separated tool names to expose")
    mcp.add_argument("--max-result-size", type=_result_budget, default=None, metavar="CHARS",
                     help="budget of one tool result in characters of JSON; longer strings in "
                          "it are cut and the result says so (default 1,000,000)")
    mcp.add_argument("--structured-only", action="store_true",
                     help="every client reads structured content: a result's text block is one line "
                          "pointing at it, not its JSON again (default: only for a client advertising "
                          "the a11y/structured-content extension; errors always as JSON text)")
    mcp.add_argument("--http", action="store_true", help="serve Streamable HTTP instead of stdio")
    mcp.add_argument("--host", default="127.0.0.1")
    mcp.add_argument("--port", type=int, default=8931)
    from .mcp_http import add_context_options  # standard library only: --help stays fast

    add_context_options(mcp)
    from .mcp_guard import add_guard_options  # standard library only, as above

    add_guard_options(mcp)
    mcp.set_defaults(handler="a11y.mcp_server:run")

    _add_token_commands(sub)
    return parser


def _add_token_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``a11y token create|list|revoke``: the service's API tokens, in its store."""
    token = sub.add_parser("token", help="create, list and revoke API tokens of the service")
    actions = token.add_subparsers(dest="token_command", metavar="ACTION", required=True)
    create = actions.add_parser("create", help="make a token; its value is printed once, on stdout")
    create.add_argument("--name", required=True, type=_token_name,
                        help="what logs and lists call it: 1-64 letters, digits, '.', '_', '-'")
    create.add_argument("--scope", required=True, choices=["read", "submit", "admin"],
                        help="read: runs, reports and history; submit: also start runs and cancel "
                        "its own; admin: also cancel or delete any run and set baselines")
    create.add_argument("--site", dest="sites", action="append", type=_origin, metavar="ORIGIN",
                        help="limit the token to this site, scheme://host[:port] (repeat for more; "
                        "default: every site)")
    listing = actions.add_parser("list", help="show every token (never its value)")
    revoke = actions.add_parser("revoke", help="revoke a token from the service's next request on")
    revoke.add_argument("name")
    for action in (create, listing, revoke):
        _add_store(action)
    token.set_defaults(handler="a11y.token_cli:run")


def _token_name(text: str) -> str:
    from jobs.store.tokens import check_name

    try:
        return check_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _origin(text: str) -> str:
    """``--site``: an http(s) origin, normalised as the service compares sites."""
    from .origins import parse_origin

    try:
        return parse_origin(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _result_budget(text: str) -> int:
    """``--max-result-size``: a whole number of characters, at least 10,000 (a smaller
    budget would cut ordinary results such as a page snapshot)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 10_000:
        raise argparse.ArgumentTypeError(f"{value} is below the smallest budget, 10000")
    return value


def _add_browser_url(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--browser-url", default=None,
                        help="use a running Chrome (http:// or ws://) instead of launching one")


def _add_store(parser: argparse.ArgumentParser, *, worker: bool = False) -> None:
    """Where the runs (and the API tokens) are stored, as ``serve`` takes it."""
    parser.add_argument("--database", default=None, metavar="URL",
                        help="runs database, e.g. postgresql+psycopg://user:pass@host/db"
                        + ("" if worker else " (overrides --data-dir)"))
    if not worker:
        parser.add_argument("--data-dir", default="./a11y-data/", metavar="DIR",
                            help="directory of the SQLite runs database (default ./a11y-data/)")


def _add_store_and_queue(parser: argparse.ArgumentParser, *, worker: bool) -> None:
    """The options a service and its workers share. A worker has no default for the
    database or the queue (it must reach the service's); ``a11y.worker`` reports a missing
    one in one line rather than argparse's usage dump."""
    _add_store(parser, worker=worker)
    parser.add_argument("--queue", default=None, metavar="URL",
                        help="Redis URL of the page queue shared with workers, e.g. "
                        "redis://HOST:6379/0" + ("" if worker else " (default: in process)"))
    parser.add_argument("--queue-prefix", default="a11y", metavar="PREFIX",
                        help="key prefix of the queue; services and workers must agree")
    parser.add_argument("--lease-ms", type=int, default=None, metavar="MS",
                        help="how long a page taken from the queue may go without a sign of life "
                        "before another worker takes it over (default 30000, at least 1000); "
                        "services and workers should agree")


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # the ``a11y`` command: a plain stdio ``mcp`` answers before the parser is built
        from .mcp_stdio import main as serve_plain_stdio

        status = serve_plain_stdio(sys.argv[1:])
        if status is not None:
            return status
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return 2
    _configure_logging(args.verbose)
    module_name, func_name = args.handler.split(":")
    module = __import__(module_name, fromlist=[func_name])
    return int(getattr(module, func_name)(args) or 0)
