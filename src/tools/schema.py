"""The JSON schemas a client is sent, derived from the pydantic models once per tool.

An agent pays tokens for every byte of every input schema on every session (169 tools), so
an input schema keeps what an agent needs to build a valid call: property names, types,
required fields, defaults, enums and the field descriptions written for it. It drops what
pydantic adds for other readers, and what the rest already says:

- titles (they repeat the field name), ``writeOnly``, a false ``additionalProperties`` and a
  true one (the server refuses unknown fields, naming them; true is JSON Schema's default);
- bounds (``minimum``, ``maxLength``, ``pattern``…): the server checks them and an
  out-of-range value comes back as ``invalid_arguments`` naming the field and the bound;
- ``type`` where an enum or a non-null default already shows it (``{"default": 5000}``);
- ``anyOf: [X, null]`` with a null default, pydantic's spelling of "optional X": leaving
  the field out of ``required`` says the same (an explicit null is still accepted).

The server validates every call with the full pydantic model, so nothing dropped here is
unchecked. Output schemas only lose their titles: clients validate results against them.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

_NOISE = {"title", "writeOnly"}
_BOUNDS = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
           "pattern", "minItems", "maxItems"}
_SCALARS = {"string", "integer", "number", "boolean"}
_SCHEMA_LISTS = {"anyOf", "oneOf", "allOf", "prefixItems"}
_SCHEMA_VALUES = {"items", "additionalProperties", "not"}


def input_schema(model: type[BaseModel]) -> dict[str, Any]:
    """Self-contained and lean: definitions inlined, optional-or-null fields made plain optional."""
    raw = model.model_json_schema()
    definitions = raw.pop("$defs", {})
    schema = _lean(_inline(raw, definitions))
    schema.pop("description", None)  # a model docstring; the tool's description says it better
    if not schema.get("properties"):
        schema.pop("properties", None)
    return schema


def output_schema(model: type[BaseModel]) -> dict[str, Any]:
    return _untitled(model.model_json_schema(mode="serialization"))


def _inline(node: Any, definitions: dict[str, Any]) -> Any:
    """Replace every ``$ref`` by its definition: each definition is used once or twice, and a
    ``$defs`` wrapper plus references costs more than the repetition (measured). A definition's
    description is its model's docstring, written for developers: it goes."""
    if isinstance(node, list):
        return [_inline(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = {k: v for k, v in definitions[node["$ref"].rsplit("/", 1)[-1]].items() if k != "description"}
        return _inline({**target, **{k: v for k, v in node.items() if k != "$ref"}}, definitions)
    return {key: _inline(value, definitions) for key, value in node.items()}


def _lean(node: dict[str, Any]) -> dict[str, Any]:
    lean: dict[str, Any] = {}
    for key, value in node.items():
        if key in _NOISE or key in _BOUNDS or (key == "additionalProperties" and isinstance(value, bool)):
            continue
        if key == "default" and value is None and "anyOf" not in node:
            continue
        lean[key] = _subschemas(key, value, _lean)
    lean = _plain_optional(lean)
    if lean.get("type") in _SCALARS and ("enum" in lean or lean.get("default") is not None):
        del lean["type"]
    return lean


def _subschemas(key: str, value: Any, transform: Any) -> Any:
    """Apply ``transform`` to the schemas under ``key``, never to values (defaults, enums)."""
    if key in ("properties", "$defs"):
        return {name: transform(sub) for name, sub in value.items()}
    if key in _SCHEMA_LISTS:
        return [transform(sub) for sub in value]
    if key in _SCHEMA_VALUES and isinstance(value, dict):
        return transform(value)
    return value


def _plain_optional(node: dict[str, Any]) -> dict[str, Any]:
    """``anyOf: [X, null]`` with a null default is how pydantic spells "optional X"; leaving
    the field out says the same in a quarter of the bytes (an explicit null is still accepted)."""
    alternatives = node.get("anyOf")
    if not alternatives or "default" not in node or node["default"] is not None:
        return node
    kept = [a for a in alternatives if a != {"type": "null"}]
    if len(kept) == len(alternatives):
        return node
    rest = {k: v for k, v in node.items() if k not in ("anyOf", "default")}
    return {**kept[0], **rest} if len(kept) == 1 else {"anyOf": kept, **rest}


def _untitled(node: dict[str, Any]) -> dict[str, Any]:
    return {key: _subschemas(key, value, _untitled) for key, value in node.items() if key != "title"}


#: The argument naming the browser context a call acts on (``tools.contexts``).
CONTEXT_ARGUMENT = "context"


def with_context(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` plus the optional ``context`` handle, which every tool takes over stateless
    HTTP. Added here, once, to the schemas that server lists, rather than to 169 models: the
    server takes the argument out of a call before the tool's model validates the rest, and
    no other server lists it (one client, one context: it would only cost tokens)."""
    return {**schema, "properties": {**schema.get("properties", {}), CONTEXT_ARGUMENT: {"type": "string"}}}
