"""a11y-autoplay-audio-brief: sound that plays by itself stops within 3 seconds.

ACT rule aaa1bf (Audio or video element that plays automatically has no audio that lasts more
than 3 seconds), technique G60 (playing a sound that turns off automatically within three
seconds). A best practice, reported only when a request asks for best practices.

Sound that starts by itself talks over a screen reader, and for as long as it plays a blind
user must first find the control that stops it. WCAG 1.4.2 accepts long sound when a control
pauses or mutes it, so that verdict stays ``a11y-autoplay-audio``'s; this check answers the
technique's own question, whatever controls the page has: does an ``audio`` or ``video`` element
that plays by itself with its sound on (``autoplay`` without ``muted``) play sound for more than
3 seconds? It reads what the browser decoded, as ``a11y-autoplay-audio`` does (the same
page-side function, ``js/autoplay_audio.js``): no audio, or sound that stops within 3 seconds
(a ``#t=`` fragment counts, ``loop`` never stops), passes; a sound track that decoded to almost
nothing, and media that did not load in time, need review.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-autoplay-audio-brief",
    act_rules=("aaa1bf",),
    criteria=(),
    best_practice=True,
    impact="moderate",
    description="Ensures sound that audio or video plays by itself stops within 3 seconds",
    help="Sound that starts by itself should stop within 3 seconds, or wait until the user starts it",
    messages={
        "pass": "The element plays no sound by itself for more than 3 seconds",
        "fail": "The element plays sound by itself for ${data.seconds} seconds: it talks over screen "
        "readers until someone finds how to stop it",
        "incomplete": "The element plays by itself, and its sound could not be measured: check that "
        "it stops within 3 seconds",
    },
    script=load_script(__package__, "autoplay_audio"),
    matches=load_script(__package__, "autoplay_audio_applies"),
    selector="audio[autoplay], video[autoplay]",
    options={"seconds": 3, "waitMs": 2000, "silentBytes": 512, "durationOnly": True},
    exclude_hidden=False,
)
