"""a11y-autoplay-audio: sound that plays by itself for more than 3 seconds can be stopped.

ACT rules 80f0bf (Audio or video avoids automatically playing audio) and its part 4c31df (has a
control mechanism: without one, sound over 3 seconds fails 1.4.2); WCAG 1.4.2 Audio Control (A).
Its other part, aaa1bf (no audio that lasts more than 3 seconds), is the best-practice check
``a11y-autoplay-audio-brief``: long sound with a control to stop it does not fail 1.4.2.

axe-core's ``no-autoplay-audio`` passes any element with a ``controls`` attribute and only asks
for review otherwise, so a video that talks over a screen reader with nothing to stop it is
never a finding. This check takes over (``no-autoplay-audio`` no longer applies). It waits
(briefly) for the media's data and reads what the browser decoded: an element without sound, or
whose sound stops within 3 seconds (its ``#t=`` fragment counts, ``loop`` never stops), passes.
Sound that goes on longer fails when nothing could pause or mute it: no native controls, and no
visible control with an accessible name in the element's container or named for sound
(pause, stop, mute, volume…) anywhere on the page. With such a control the element needs review
(whether it works, and from the keyboard, is for a person to try; native controls are not
keyboard accessible in every browser); so does a sound track that decoded to almost nothing
(it may be silent) and media that did not load in time. The audit's browser does not play
unmuted media by itself, so "plays by itself" means the ``autoplay`` attribute without
``muted``, as a visitor's browser that allows autoplay would play it.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-autoplay-audio",
    act_rules=("80f0bf", "4c31df"),
    criteria=("1.4.2",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures audio or video that plays sound by itself for more than 3 seconds can be "
    "paused or muted",
    help="Sound that plays automatically for more than 3 seconds must have a control to stop it",
    messages={
        "pass": "The element plays no sound by itself for more than 3 seconds",
        "fail": "The element plays sound by itself for ${data.seconds} seconds and nothing on the "
        "page can pause or mute it",
        "incomplete": "The element plays sound by itself for more than 3 seconds, or its sound "
        "could not be measured: check that a control pauses or mutes it and works from the keyboard",
    },
    script=load_script(__package__, "autoplay_audio"),
    matches=load_script(__package__, "autoplay_audio_applies"),
    selector="audio[autoplay], video[autoplay]",
    options={"seconds": 3, "waitMs": 2000, "silentBytes": 512},
    exclude_hidden=False,
    supersedes=("no-autoplay-audio",),
)
