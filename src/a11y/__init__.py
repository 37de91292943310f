"""a11y: WCAG audits and an MCP browser tool server on a Trio CDP client."""

from importlib import metadata

try:
    __version__ = metadata.version("a11y")
except metadata.PackageNotFoundError:  # running from a source tree without install
    __version__ = "0.1.0"
