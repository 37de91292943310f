import json

import jsonschema
import pytest

from audit.openapi import openapi_schema

from .test_reports import build_result


def _refs(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def _resolve(doc, ref):
    assert ref.startswith("#/"), ref
    node = doc
    for part in ref[2:].split("/"):
        node = node[part]
    return node


@pytest.fixture(scope="module")
def doc():
    return openapi_schema()


def test_document_shape(doc):
    assert doc["openapi"].startswith("3.1")
    assert doc["info"]["title"] and doc["info"]["version"]
    audit = doc["paths"]["/audit"]["post"]
    assert set(audit["responses"]) == {"200", "400", "401", "413", "415", "500", "503"}
    assert "application/json" in audit["requestBody"]["content"]
    assert set(doc["paths"]["/health"]["get"]["responses"]) == {"200", "503"}
    json.dumps(doc)  # serializable


def test_all_refs_resolve(doc):
    refs = list(_refs(doc))
    assert refs
    for ref in refs:
        assert isinstance(_resolve(doc, ref), dict)
    schemas = doc["components"]["schemas"]
    for name in (
        "AuditRequest",
        "AuditResult",
        "HealthStatus",
        "ErrorBody",
        "Finding",
        "CrawlOptions",
        "LlmOptions",
        "Stats",
    ):
        assert name in schemas, sorted(schemas)
    crawl = schemas["CrawlOptions"]["properties"]
    assert crawl["maxPages"]["maximum"] == 500 and crawl["depth"]["maximum"] == 5
    assert schemas["AuditRequest"]["required"] == ["url"]
    assert schemas["AuditRequest"]["additionalProperties"] is False


def _validator(doc, name):
    schema = {"$ref": f"#/components/schemas/{name}", "components": doc["components"]}
    return jsonschema.Draft202012Validator(schema)


def test_schemas_accept_real_bodies(doc):
    _validator(doc, "AuditResult").validate(build_result().model_dump(mode="json"))
    _validator(doc, "AuditRequest").validate(
        {"url": "https://example.com/", "crawl": {"maxPages": 3}}
    )
    assert not _validator(doc, "AuditRequest").is_valid(
        {"url": "https://example.com/", "crawl": {"maxPages": 0}}
    )
    assert not _validator(doc, "AuditRequest").is_valid({"url": "https://example.com/", "nope": 1})
    _validator(doc, "ErrorBody").validate(
        {
            "error": {
                "code": "invalid_request",
                "message": "Bad.",
                "details": [{"field": "url", "message": "This field is required."}],
            }
        }
    )
