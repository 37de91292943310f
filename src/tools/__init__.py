"""The MCP tools: one registry of declarations, one module per namespace.

``tools.registry`` holds the declarations; ``tools.catalog.load()`` imports
every module in ``tools/namespaces/`` so the registry is complete. The MCP
server, ``--list-tools``, ``docs/tools.md`` and ``batch_execute`` all read the
registry (the first two through ``tool_list.json``, generated from it), so a
tool declared once is everywhere.

How to add a tool
-----------------
1. **Where.** In the namespace module of its prefix (``page_…`` in
   ``namespaces/page.py``); a new prefix gets a new module in
   ``tools/namespaces/``, found without any list to edit. The namespace (the
   ``category`` of ``--list-tools``) is the part of the name before the first
   ``_``, never the module, so a large namespace may span several modules
   (``page.py``, ``page_capture.py``, ``page_inspect.py``). Logic that is more
   than the tool's own few lines goes in a module outside ``namespaces/``
   (``tools/assertions/``, ``tools/state_snapshot.py``), page-side JavaScript in
   ``tools/js/<name>.js``, loaded with ``cdpdriver.scripts.load_script("tools", name)``.
2. **The declaration**, the only one there is::

       @tool("page_get_title", NoInput, TitleOutput, effect="reads")
       async def get_title(session: ToolSession, args: NoInput) -> TitleOutput:
           \"\"\"Return the current tab's page title (what an agent reads).\"\"\"

   The docstring is the description an agent reads on every session, in its
   token budget (``tests/tools/test_schema_budget.py``): one plain sentence,
   plus what an agent must know that neither the name nor the schema says.
   What all tools share (locators, units, key names, URL patterns) is said
   once, in the server's instructions (``a11y.mcp_server.INSTRUCTIONS``).
   Tools built from a table (one handler shape, many rows) call
   ``tool(name, Input, Output, description=row.description)(handler)``. Add
   ``records=True`` when the call changes the page, so recordings keep it.
   ``effect`` is required: ``reads``, ``sets``, ``acts``, ``deletes`` or
   ``destroys`` (``tools.registry.EFFECTS`` says which MCP annotations each
   means), judged by what the handler may do with any arguments; add
   ``open_world=True`` when it may navigate, fetch, run the caller's code or
   click/press (``tests/tools/test_annotations.py`` holds them to it).
   **Imports**: a namespace module imports only declarations and models at
   its top (``pydantic``, ``tools.models``, ``tools.registry``, ``tools.errors``);
   the driver, ``trio``, ``tools.locate``/``session``/``tab``, ``audit`` and the
   like are imported inside the handler (``TYPE_CHECKING`` for annotations),
   so listing the tools never loads them.
3. **Models.** Input and output are pydantic models deriving from
   ``models.ToolInput`` / ``models.ToolOutput``. A field gets a
   ``Field(description=…)`` only when its name, type, default and enum leave
   something out (never one that repeats the name); ``tools.schema`` makes the
   JSON schema lean. Reuse the shared inputs in ``tools.models``
   (``SelectorInput``, ``LocatorInput``, ``TimeoutMs``…). A tool whose product
   is a picture ends in ``tools.images.deliver``: the image goes to the agent as
   an MCP image block (``ToolOutput.with_images``), never inside the data.
4. **Tests** go through the MCP layer, as an agent calls the tool: a test in
   ``tests/tools/test_<namespace>.py`` using the ``mcp`` fixture
   (``await mcp.ok("page_get_title")``, ``await mcp.fail(…)`` for the error
   code), against a real page served by the ``site`` fixture.
5. **Docs.** Regenerate the reference with ``python scripts/gen_tool_docs.py``
   (``--check`` fails when ``docs/tools.md`` is stale) and commit it. The same
   run writes ``tools/tool_list.json``, the tools/list the server sends without
   building a model (``tools.catalog``); a stale one fails the tests too.
"""
