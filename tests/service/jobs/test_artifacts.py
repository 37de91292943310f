"""A stored run's screenshots through the API: ``POST /audit`` stores them with its run,
``?include=screenshots`` names them, ``/artifacts/{name}`` serves exactly those names, the
HTML report inlines them; and a password in the audited URL reaches none of the stored bytes."""

from __future__ import annotations

import re
import struct
from pathlib import Path

from tests.service.conftest import PIXEL, assert_error, client_for, service_for
from tests.support.site import Response

SECRET = "pa55-w0rd-in-url"


async def test_a_stored_run_serves_its_screenshots(chromium, site, tmp_path: Path):
    site.route("/artifacts/", Response(
        f'<!doctype html><html lang=en><title>A</title><main><h1>A</h1>'
        f'<img src="{PIXEL}" style="position:absolute;left:100px;top:100px;width:50px;height:20px">'
        '<button style="position:absolute;left:100px;top:200px;width:80px;height:30px"></button></main></html>'))
    url = site.url("/artifacts/").replace("http://", f"http://user:{SECRET}@")
    async with service_for(chromium, data_dir=str(tmp_path)) as svc, client_for(svc) as client:
        quick = await client.post("/audit", json={"url": url})  # no pictures unless asked
        assert quick.status_code == 200, quick.text
        audited = await client.post("/audit?include=screenshots", json={"url": url})
        assert audited.status_code == 200, audited.text
        assert "screenshot" not in audited.text  # the answer of /audit is unchanged
        run, plain_run = (await client.get("/audits")).json()["runs"]  # newest first
        assert not (await client.get(f"/audits/{plain_run['id']}?include=screenshots")).json()["result"]["findings"][0].get("screenshot")
        plain = (await client.get(f"/audits/{run['id']}")).json()["result"]
        assert all("screenshot" not in f for f in plain["findings"])
        body = (await client.get(f"/audits/{run['id']}?include=screenshots")).json()["result"]

        shots = {f["ruleId"]: f["screenshot"] for f in body["findings"] if "screenshot" in f}
        assert set(shots) >= {"image-alt", "button-name"}
        button = shots["button-name"]
        assert button["href"] == f"/audits/{run['id']}/artifacts/{button['name']}"
        assert (button["mediaType"], button["width"], button["height"]) == ("image/png", 80 + 32, 30 + 32)
        image = await client.get(button["href"])
        assert image.status_code == 200 and image.headers["content-type"] == "image/png"
        assert image.headers["x-content-type-options"] == "nosniff"
        assert struct.unpack(">II", image.content[16:24]) == (112, 62)
        thumb = body["pages"][0]["thumbnail"]
        fetched = await client.get(thumb["href"])
        assert fetched.headers["content-type"] == "image/jpeg" and fetched.content[:2] == b"\xff\xd8"

        report = await client.get(f"/audits/{run['id']}/report?format=html")
        # Every screenshot inline: on its card, and the first instance's again in its problem.
        inline = re.findall(r'src="(data:image/png;base64,[^"]+)"', report.text)
        assert len(set(inline)) == len(shots) and len(inline) <= 2 * len(shots)
        assert "data:image/jpeg;base64," in report.text

        base = f"/audits/{run['id']}/artifacts/"
        for name in ("../../openapi.json", "shot-0-../../../x", "thumb-0.png", "shot-0-x1.png", "shot/0/1.png",
                     "thumb-0.jpg/..", "%2e%2e/%2e%2e/health", "shot-9-f1.png"):
            assert_error(await client.get(base + name), 404, "not_found")
        assert_error(await client.get(f"/audits/{'0' * 26}/artifacts/thumb-0.jpg"), 404, "not_found")

    stored = b"".join(path.read_bytes() for path in tmp_path.rglob("*") if path.is_file())
    assert b"thumb-0.jpg" in stored  # the store is where we looked
    assert SECRET.encode() not in stored
