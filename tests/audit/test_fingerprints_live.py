"""Fingerprints in a real Chromium: two versions of a page that differ only by churn (class
renames, an element inserted above, nth-child shifts, a changed generated id, in the page
and in an out-of-process iframe) give the same fingerprints; real changes give new ones;
identical elements get distinct ones."""

from __future__ import annotations

from audit.engine import EngineLimits, audit_page
from tests.audit.support import make_request
from tests.support.site import Response

FAST = EngineLimits(navigation_timeout=15, audit_timeout=60)

FRAME = """<!doctype html><html lang="en"><title>frame</title><body>
<div class="{cls}"><img src="/fp/in-frame.png" id="{img_id}"></div></body></html>"""

PAGE = """<!doctype html><html><head><title>Fingerprints</title></head><body>
<header class="{cls}-top"><nav aria-label="Primary"><a href="{home}" class="{cls}-link"></a></nav></header>
<main class="{cls}-main">
  {inserted}
  <div class="{cls}-row"><img src="{pet}" class="{cls}-pic"></div>
  <form class="{cls}-form">{control}</form>
  <section aria-label="Gallery"><img src="/fp/dup.png"><img src="/fp/dup.png"></section>
  <iframe src="{frame}" title="Embedded"></iframe>
</main></body></html>"""


class Versions:
    """One page and its frame at fixed URLs, serving whichever version is current (a
    fingerprint includes the page's URL, so the versions must share it)."""

    def __init__(self, site) -> None:
        self.page = self.frame = ""
        self.url = site.route("/fp/page", lambda request: Response(self.page))
        site.route("/fp/frame", lambda request: Response(self.frame))
        self.frame_url = site.cross_site_url("/fp/frame")  # another site: an out-of-process iframe

    def serve(self, *, cls: str = "a", inserted: str = "", pet: str = "/fp/cat.png",
              home: str = "/home", control: str = '<input type="text" name="email" id="input-8f3a2c9d">',
              img_id: str = "pic-a8f3d2c1") -> None:
        self.frame = FRAME.format(cls=cls, img_id=img_id)
        self.page = PAGE.format(cls=cls, inserted=inserted, pet=pet, home=home, control=control,
                                frame=self.frame_url)


async def test_churn_keeps_fingerprints_and_real_changes_do_not(browser, site):
    versions = Versions(site)
    changes = {
        "base": {},
        "churned": {
            "cls": "zz", "img_id": "pic-77e1b2c9",
            "inserted": '<p>Welcome</p><div><img src="/fp/logo.png" alt="Logo"></div>',
            "control": '<input type="text" name="email" id="input-1b7e4f02">',
        },
        "changed": {"pet": "/fp/dog.png", "home": "/start", "control": "<button></button>"},
    }
    results = {}
    for name, change in changes.items():
        versions.serve(**change)
        # The static findings are this test's subject (the interaction phase would add its own
        # on the empty link: focus moves to an element with no size).
        request = make_request(versions.url, checks={"interaction": False})
        results[name] = await audit_page(browser, versions.url, request, FAST)

    def prints(name: str) -> dict[str, list[str]]:
        by_rule: dict[str, list[str]] = {}
        for finding in results[name].findings:
            assert len(finding.fingerprint) == 16, finding
            by_rule.setdefault(finding.rule_id, []).append(finding.fingerprint)
        return by_rule

    def selectors(name: str) -> set[str]:
        return {f.selector for f in results[name].findings}

    base_prints, churned_prints, changed_prints = prints("base"), prints("churned"), prints("changed")
    # The page's and the frame's image, the two duplicates, the empty link, the unlabelled
    # field and the missing lang: the same problems on the same elements...
    assert sorted(base_prints) == ["html-has-lang", "image-alt", "label", "link-name"]
    assert len(base_prints["image-alt"]) == 4
    assert len(set(base_prints["image-alt"])) == 4  # duplicates are told apart
    # ...with selectors that moved, and fingerprints that did not.
    assert selectors("base") != selectors("churned")
    assert churned_prints == base_prints

    # A different image, a different link target, a different rule: new fingerprints there,
    # the same ones elsewhere (the duplicates, the frame's image, the page's language).
    kept = set(base_prints["image-alt"]) & set(changed_prints["image-alt"])
    assert len(kept) == 3 and len(changed_prints["image-alt"]) == 4
    assert set(changed_prints["link-name"]).isdisjoint(base_prints["link-name"])
    assert "label" not in changed_prints and "button-name" in changed_prints
    assert changed_prints["html-has-lang"] == base_prints["html-has-lang"]
    # Every item of the page carries one (an incomplete contrast check is a needs-review item).
    assert all(len(item.fingerprint) == 16 for item in results["base"].needs_review)
