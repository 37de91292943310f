import sys

from a11y.mcp_stdio import main as serve_plain_stdio

# A plain stdio ``mcp`` answers its client before the command-line parser, Trio or the SDK is
# imported (a11y.mcp_stdio); every other command line goes through a11y.cli.
status = serve_plain_stdio(sys.argv[1:])
if status is None:
    from a11y.cli import main

    status = main()
raise SystemExit(status)
