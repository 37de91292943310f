"""a11y: WCAG audits and an MCP browser tool server on a Trio CDP client."""

# The one place the version is written: pyproject.toml reads it from here (setuptools'
# dynamic version), so start-up never searches the installed distributions for it.
__version__ = "0.1.0"
