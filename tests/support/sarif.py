"""Validate a SARIF log against the official SARIF 2.1.0 JSON schema.

The schema is not in git: scripts/install.sh fetches the version pinned in
vendor/sarif/sarif.lock.json into vendor/sarif/ (see vendor/sarif/NOTICE.md).
Validation never touches the network: the schema resolves only its own
internal references, and any other reference is an error.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import referencing
import referencing.exceptions

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "vendor" / "sarif" / "sarif-2.1.0-rtm.5.json"


def _no_remote(uri: str) -> referencing.Resource:
    raise referencing.exceptions.NoSuchResource(ref=uri)


@functools.cache
def _validator() -> jsonschema.protocols.Validator:
    try:
        schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    except FileNotFoundError:
        pytest.fail(
            f"the official SARIF 2.1.0 schema is missing ({SCHEMA_PATH.relative_to(ROOT)}); "
            "run `bash scripts/install.sh` to fetch it",
            pytrace=False,
        )
    # The class for the draft the schema declares in "$schema" (draft-04 for this one).
    cls = jsonschema.validators.validator_for(schema, default=None)
    if cls is None:
        raise RuntimeError(f"{SCHEMA_PATH}: unknown $schema {schema.get('$schema')!r}")
    cls.check_schema(schema)
    # No format checker, like jsonschema.validate(): whether "uri" and "date-time" get
    # checked would depend on optional packages being installed.
    return cls(schema, registry=referencing.Registry(retrieve=_no_remote))


def validate_sarif(log: dict[str, Any]) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``log`` is a valid SARIF 2.1.0 log."""
    _validator().validate(log)
