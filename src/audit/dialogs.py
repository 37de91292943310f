"""Answer every JavaScript dialog of an audited page, and remember what it said.

A page that calls ``alert()`` while it parses or on ``load`` stops its renderer until the
dialog is answered: navigation never reaches ``load`` and the audit would wait out its
timeout. Nobody is there to read it, so each dialog is accepted at once (a ``prompt`` gets
its default text, a ``beforeunload`` lets the page go) and its type and text are kept for the
page's result, where a reviewer can see that the page talks to its users this way.
"""

from __future__ import annotations

import logging
from typing import Any

import trio

from cdpdriver import CDPError, Page, Session
from cdpdriver.page import ChildTarget
from cdpdriver.protocol import page as page_domain

from .models import DialogInfo

log = logging.getLogger(__name__)

#: Dialogs kept per page; a page that loops on alert() is answered forever but recorded once.
DIALOGS_KEPT = 20
ANSWER_TIMEOUT = 5.0


class DialogAnswerer:
    """Accepts the dialogs of one page and its out-of-process frames for as long as the
    nursery given to :meth:`attach` runs."""

    def __init__(self) -> None:
        self.dialogs: list[DialogInfo] = []
        self.count = 0
        self._nursery: trio.Nursery | None = None

    async def attach(self, page: Page, nursery: trio.Nursery) -> None:
        """Answer from now on; frames attached later are answered from their first script."""
        self._nursery = nursery
        page.child_hooks.append(self._watch_child)
        self._watch(page.session)

    async def _watch_child(self, child: ChildTarget) -> None:
        if child.type == "iframe":
            self._watch(child.session)

    def _watch(self, session: Session) -> None:
        assert self._nursery is not None, "attach() first"
        events = session.listen(["Page.javascriptDialogOpening"], raw=True)
        self._nursery.start_soon(self._answer_all, session, events)

    async def _answer_all(self, session: Session, events: Any) -> None:
        with events:
            async for event in events:
                self._record(event.params)
                try:
                    await session.execute(
                        page_domain.handle_java_script_dialog(
                            accept=True, prompt_text=event.params.get("defaultPrompt") or None
                        ),
                        timeout=ANSWER_TIMEOUT,
                    )
                except CDPError as exc:  # answered meanwhile, or the target went away
                    log.debug("could not answer a dialog: %s", exc)

    def _record(self, params: dict[str, Any]) -> None:
        self.count += 1
        if len(self.dialogs) < DIALOGS_KEPT:
            self.dialogs.append(
                DialogInfo(type=str(params.get("type", "alert")), message=str(params.get("message", ""))[:500])
            )
