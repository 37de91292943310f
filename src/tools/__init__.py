"""The MCP tools: one registry of declarations, one module per namespace.

``tools.registry`` holds the declarations; ``tools.catalog.load()`` imports
every namespace module so the registry is complete.
"""
