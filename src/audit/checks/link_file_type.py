"""a11y-link-file-type: a link to a PDF, an office document or a media file says so.

A best practice, reported only when a request asks for best practices: WCAG techniques G197,
H30 and the advice of the Understanding document for 2.4.4 suggest telling users when a link
opens a file rather than a page, but no success criterion fails without it, so this check never
fails: it asks for review.

Following a link into a PDF or a Word file leaves the browser's reading mode for another
application (or starts a download), which is a surprise to a screen reader user who was not
told, and media files start playing. The check applies to an exposed link whose address's
path ends in a document (PDF, Word, Excel, PowerPoint, OpenDocument, RTF, e-book), archive,
audio or video extension, and asks for review when neither its accessible name, its
``aria-describedby`` description, its ``title``, its ``type`` nor the text right after it
("Annual report (PDF, 2 MB)") names that kind of file.
"""

from cdpdriver.scripts import load_script

from .spec import Check

_TEXT_AFTER = load_script(__package__, "text_after_link")
_FILE_TYPE = load_script(__package__, "link_file_type")

CHECK = Check(
    rule_id="a11y-link-file-type",
    act_rules=(),
    criteria=(),
    best_practice=True,
    impact="minor",
    description="Ensures a link to a document or media file says what kind of file it opens",
    help="Say the file type of a link to a document, archive, audio or video file",
    messages={
        "pass": "The link, or the text beside it, says what kind of file it opens",
        "fail": "The link does not say what kind of file it opens",
        "incomplete": "The link opens a ${data.kind} file and nothing in its text or beside it "
        'says so; consider adding the file type (and size), e.g. "(${data.kind}, 2 MB)"',
    },
    script=f"({_FILE_TYPE})('evaluate', {_TEXT_AFTER})",
    matches=f"({_FILE_TYPE})('matches')",
    selector="a[href]",
)
