"""a11y-judge-video-captions: does a video's audio reach people who cannot hear it?

ACT rule f51b46 (Video element auditory content has captions); WCAG 1.2.2 Captions
(Prerecorded) (A).

axe-core's ``video-caption`` (mapped to ACT eac66b) looks for a ``<track kind="captions">``; it
cannot tell whether the track's text matches the audio, nor see captions burned into the
picture. This judgment check
asks the LLM judge about every visible video that loads, is not a live stream and has an audio
track (read from ``captureStream()`` once the metadata is in; a video not loaded yet is asked
about too), with its caption and
subtitle tracks (kind, language, label, source) and the text around it; the judge answers from
that evidence, which cannot include the sound itself, so a judge that cannot tell says so and
the item stays for a person.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-judge-video-captions",
    act_rules=("f51b46",),
    criteria=("1.2.2",),
    level="A",
    since="2.0",
    impact="critical",
    description="Asks whether the audio information of each video is available as captions",
    help="Videos with sound must have captions of their audio information",
    messages={
        "pass": "The video's audio information is captioned",
        "fail": "The video's audio information is not captioned",
        "incomplete": "Is the audio information of this video that is not shown visually "
        "available as captions (a captions track, or captions in the picture)?",
    },
    script=load_script(__package__, "judge_question"),
    matches=load_script(__package__, "judge_video_applies"),
    selector="video",
    exclude_hidden=False,
    judgment_context="video",
)
