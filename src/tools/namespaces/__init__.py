"""One module per tool namespace; each declares its tools with ``tools.registry.tool``."""
