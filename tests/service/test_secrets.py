"""A password in an audited URL never reaches the log (#17 item 9)."""

from __future__ import annotations

import logging

from tests.support.site import refused_url


async def test_url_credentials_are_not_logged(client, site, caplog):
    caplog.set_level(logging.DEBUG)
    url = site.route("/secret/page", "<!doctype html><html lang=en><title>t</title><main>x</main>")
    with_password = url.replace("http://", "http://alice:hunter2secret@")
    response = await client.post("/audit", json={"url": with_password})
    assert response.status_code == 200
    failing = refused_url().replace("http://", "http://bob:hunter2secret@")
    response = await client.post("/audit", json={"url": failing})
    assert response.status_code == 500
    assert caplog.records, "the audits were logged"
    for record in caplog.records:
        assert "hunter2secret" not in record.getMessage(), record.getMessage()
