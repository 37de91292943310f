"""Guard rails for a tool server that a hosted agent drives (``a11y mcp`` flags).

An agent reads pages it does not control, so what it is told to do can come from a page.
These rails bound what any such instruction can achieve, each enforced by the browser or the
server rather than asked of the agent:

- :mod:`.policy`: the rules (``--allowed-origins``, ``--blocked-origins``,
  ``--block-file-urls``, ``--no-js-evaluate``, ``--confirm-actions``) and their verdicts;
- :mod:`.requests`: every request of the browser is paused and judged (CDP ``Fetch`` on the
  browser target, so pages, popups, frames and all kinds of workers alike);
- :mod:`.egress`: every connection of the server's browser contexts goes through a SOCKS
  proxy that judges the host and port (WebSockets, which ``Fetch`` never sees);
- :mod:`.tabs`: WebRTC off in every tab and frame; form submissions noticed;
- :mod:`.calls`: tools refused by the rules, and errors explained by them;
- :mod:`.confirm`: downloads, uploads and cross-origin form submissions confirmed by the
  client (MCP elicitation);
- :mod:`.secrets`, :mod:`.boundaries`: what results may show (secret values redacted,
  page text marked as such).

Only :mod:`.policy`, :mod:`.secrets` and :mod:`.boundaries` are imported at start-up; they
use the standard library alone.
"""
