"""The request's ``auth``, ``viewport`` and ``viewports`` (#14 items 3-4) as data: bad input is
a typed error naming the field, and no secret is ever part of an error, a repr or a message."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError

from audit.models import AuditRequest, request_errors
from audit.openapi import openapi_schema
from audit.request_options import redact, requested_viewports

URL = "https://app.example.org/home"
SECRET = "s3cret-canary-value"


def errors_of(body: dict[str, Any]) -> list[dict[str, str]]:
    with pytest.raises(ValidationError) as caught:
        AuditRequest.model_validate({"url": URL, **body})
    assert SECRET not in str(caught.value)  # the input is never echoed, even in the text
    return request_errors(caught.value)


@pytest.mark.parametrize(("body", "field", "words"), [
    ({"viewport": "tablet"}, "viewport", "Unknown viewport 'tablet'"),
    ({"viewport": 7}, "viewport", "Must be 'desktop', 'mobile' or an object"),
    ({"viewport": {"width": 100000, "height": 800}}, "viewport.width", "at most 3840"),
    ({"viewport": {"width": 320, "height": 640, "deviceScaleFactor": 9}}, "viewport.deviceScaleFactor", "at most 4"),
    ({"viewport": {"width": 320, "height": 640, "zoom": 2}}, "viewport.zoom", "Unknown field"),
    ({"viewport": "mobile", "viewports": ["desktop"]}, "viewports", "either viewport or viewports"),
    ({"viewports": ["mobile", "mobile"]}, "viewports[1]", "already listed"),
    ({"viewports": []}, "viewports", "at least 1"),
    ({"auth": {"headers": {"Authorization": f"Bearer {SECRET}\r\nX-Evil: 1"}}},
     "auth.headers.Authorization", "line breaks"),
    ({"auth": {"headers": {"Bad Name": SECRET}}}, "auth.headers", "Header names are"),
    ({"auth": {"headers": {"X-Name\n": SECRET}}}, "auth.headers", "Header names are"),
    ({"auth": {"headers": {"Host": SECRET}}}, "auth.headers", "'Host' is set by the browser"),
    ({"auth": {"headers": {"Cookie": SECRET}}}, "auth.headers", "auth.cookies"),
    ({"auth": {"headers": {"X-A": "1", "x-a": SECRET}}}, "auth.headers", "given twice"),
    ({"auth": {"cookies": [{"value": SECRET}]}}, "auth.cookies[0].name", "required"),
    ({"auth": {"cookies": [{"name": "a b", "value": SECRET}]}}, "auth.cookies[0].name", "cookie name"),
    ({"auth": {"cookies": [{"name": "sid", "value": SECRET + ";x"}]}}, "auth.cookies[0].value", "';'"),
    ({"auth": {"cookies": [{"name": "sid", "value": SECRET, "domain": "evil.example.com"}]}},
     "auth.cookies[0].domain", "audited URL's host"),
    ({"auth": {"cookies": [{"name": "sid", "value": SECRET, "url": "https://evil.example.com/"}]}},
     "auth.cookies[0].url", "audited URL's host"),
    ({"auth": {"cookies": [{"name": "sid", "value": SECRET, "sameSite": "None"}]}},
     "auth.cookies[0]", "secure: true"),
    ({"auth": {"storageState": {"origins": [{"origin": "ftp://x", "localStorage": {"k": SECRET}}]}}},
     "auth.storageState.origins[0].origin", "http(s) origin"),
    ({"auth": {"storageState": "{not json"}}, "auth.storageState", "JSON"),
    ({"auth": {"login": [{"tool": "element_set_files", "args": {"paths": [SECRET]}}]}},
     "auth.login[0].tool", "Must be one of"),
    ({"auth": {"login": [{"tool": "element_fill", "args": {"value": SECRET}, "when": 1}]}},
     "auth.login[0].when", "Unknown field"),
    ({"auth": {"passwords": SECRET}}, "auth.passwords", "Unknown field"),
])
def test_bad_input_is_a_typed_error_naming_the_field(body, field, words):
    problems = errors_of(body)
    assert [p["field"] for p in problems] == [field], problems
    assert words in problems[0]["message"], problems
    assert all(SECRET not in p["message"] for p in problems)


def full_request() -> AuditRequest:
    return AuditRequest.model_validate({
        "url": URL,
        "viewports": ["desktop", "mobile", {"width": 320, "height": 640, "deviceScaleFactor": 2}],
        "auth": {
            "cookies": [{"name": "sid", "value": SECRET + "-1", "domain": ".example.org", "secure": True,
                         "sameSite": "None", "httpOnly": True}],
            "headers": {"Authorization": f"Bearer {SECRET}-2"},
            # storage_get_state's `state` string, as the tool returns it.
            "storageState": json.dumps({
                "cookies": [{"name": "s", "value": f"{SECRET}-3", "domain": "app.example.org", "path": "/",
                             "expires": -1, "session": True}],
                "origins": [{"origin": "https://app.example.org/", "localStorage": {"t": f"{SECRET}-4"},
                             "sessionStorage": [{"name": "u", "value": f"{SECRET}-5"}]}],
            }),
            "login": [{"tool": "page_navigate", "args": {"url": "https://app.example.org/login"}},
                      {"tool": "element_fill", "args": {"selector": "#password", "value": SECRET + "-6"}},
                      {"tool": "element_click", "args": {"selector": "#submit"}}],
        },
    })


def test_a_valid_request_round_trips_and_never_shows_its_secrets():
    request = full_request()
    assert SECRET not in repr(request) and SECRET not in str(request)
    assert "headers=['Authorization']" in repr(request.auth)
    dumped = request.model_dump(mode="json")
    assert AuditRequest.model_validate(dumped) == request  # what a job stores and merges back
    assert dumped["viewports"][2] == {"width": 320, "height": 640, "deviceScaleFactor": 2.0, "mobile": False}
    origin = request.auth.storage_state.origins[0]
    assert origin.origin == "https://app.example.org" and origin.session_storage == {"u": SECRET + "-5"}

    secrets = request.auth.secrets()
    assert {f"{SECRET}-{n}" for n in range(1, 7)} <= set(secrets)
    assert "#password" not in secrets and "#submit" not in secrets  # locators stay readable
    text = f"element '#password' rejected {SECRET}-6 (header Bearer {SECRET}-2; token {SECRET}-2)"
    assert redact(text, secrets) == "element '#password' rejected [redacted] (header [redacted]; token [redacted])"


def test_viewports_resolve_to_labelled_screens():
    request = full_request()
    screens = requested_viewports(request.viewport, request.viewports)
    assert [(s.label, s.width, s.height, s.device_scale_factor, s.mobile) for s in screens] == [
        ("desktop", 1280, 800, 1.0, False), ("mobile", 390, 844, 3.0, True), ("320x640@2", 320, 640, 2.0, False),
    ]
    assert requested_viewports(None, None) is None
    phone = AuditRequest.model_validate({"url": URL, "viewport": {"width": 500, "height": 900, "mobile": True}})
    assert [s.label for s in requested_viewports(phone.viewport, None)] == ["500x900-mobile"]


def test_openapi_describes_the_new_fields():
    doc = openapi_schema()
    schemas = doc["components"]["schemas"]
    properties = schemas["AuditRequest"]["properties"]
    assert {"auth", "viewport", "viewports"} <= set(properties)
    assert "viewport" in schemas["Finding"]["properties"]
    validator = jsonschema.Draft202012Validator(
        {"$ref": "#/components/schemas/AuditRequest", "components": doc["components"]}
    )
    validator.validate(full_request().model_dump(mode="json", exclude_none=True))
    assert not validator.is_valid({"url": URL, "viewport": "tablet"})
    assert not validator.is_valid({"url": URL, "auth": {"login": [{"tool": "http_request"}]}})
    assert "login_failed" in doc["paths"]["/audit"]["post"]["responses"]["500"]["description"]
