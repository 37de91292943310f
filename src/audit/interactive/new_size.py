"""The wait after the interaction phase puts the page in a new window: only for scripts that answer it.

A page's scripts see a new window size in the next frame the browser draws: its resize
listeners, the change listeners of its media queries and its resize observers run there (a
menu folded into a button below 768 px, a carousel that shows one slide), and what they set
off on a 0 ms timer right after. Checks that judge the layout in a window of their own
(a11y-reflow, a11y-zoom-clipped-text) must read it only then, or they judge a layout the page
is about to change.

Waiting for that frame costs up to a frame's period (17 ms at 60 Hz) for every new size, on
every page: on the audit bench's site page a11y-reflow took 32 ms with the wait and 11 ms
without (the CPU the browser spends is much the same: the frame is drawn either way). Style
sheets need no frame (their media queries apply in the relayout the check's read forces), so
:func:`after_new_size` waits only when a script may answer: a ``resize`` listener the
debugger lists (:meth:`Probe.listener_types <audit.interactive.probe.Probe.listener_types>`),
or what the readiness tracker saw the page make from its first script on
(``audit/js/readiness_tracker.js``, size watchers: a resize observer, a media query's change
listener, a visual viewport listener, an animation-frame callback pending, a frame). A page
whose tracker came late, or that has none, is waited for.
"""

from __future__ import annotations

from .probe import Probe

SIZE_WATCHERS = "(globalThis[Symbol.for('a11y.sizeWatchers')] || (() => null))()"


async def reacts_to_size(probe: Probe) -> bool:
    """Whether a script of the page's own may run when its window changes size."""
    watchers = await probe.main_world(SIZE_WATCHERS)
    if not isinstance(watchers, list) or watchers:
        return True
    return "resize" in await probe.listener_types()


async def after_new_size(probe: Probe) -> None:
    """Inside :meth:`Probe.screen <audit.interactive.probe.Probe.screen>`: let the page's
    scripts answer the new size (one frame, :meth:`Probe.frames
    <audit.interactive.probe.Probe.frames>`) when it has any that may."""
    if await reacts_to_size(probe):
        await probe.frames(1)
