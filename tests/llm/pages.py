"""Test pages for LLM assistance, served by the shared ``site`` fixture."""

from __future__ import annotations

#: One real contrast failure (axe finding), an image whose alt repeats its caption (static
#: checks leave it; a file-name alt would be a11y-image-name-meaningful's finding) and a
#: "click here" link (both PASS axe), plus a good image and a good link that must be left alone.
REVIEW_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Park project</title></head>
<body>
<main>
  <h1>Our park project</h1>
  <p>Volunteers planted 200 trees this spring.</p>
  <figure><img id="photo" src="/audit/pixel.png" alt="Volunteers in the park" width="160" height="90"
       style="background:#2a7"><figcaption>Volunteers in the park</figcaption></figure>
  <p>Our annual report is out. <a id="report" href="/report.pdf">click here</a></p>
  <p id="low" style="color:#aaa;background:#fff">Light grey text on white.</p>
  <p><a id="good" href="/about">About the park project</a></p>
  <img id="fine" src="/audit/pixel.png" alt="Map of the park with the new trees marked"
       width="50" height="50">
  <div id="host"></div>
  <script>
    document.getElementById('host').attachShadow({mode: 'open'}).innerHTML =
      '<p>Events calendar: <a href="/events">read more</a></p>';
  </script>
</main>
</body>
</html>"""
