"""Unit tests for the generated, sans-IO CDP bindings in ``cdpdriver.protocol`` (no browser)."""

from __future__ import annotations

import dataclasses
import enum
import filecmp
import functools
import importlib
import importlib.util
import inspect
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from cdpdriver.protocol import (
    DOMAINS,
    accessibility,
    dom,
    input_,
    network,
    page,
    runtime,
    service_worker,
    target,
    util,
)

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "scripts" / "gen_protocol.py"
PROTOCOL_DIR = ROOT / "src" / "cdpdriver" / "protocol"


@functools.cache
def load_generator() -> Any:
    spec = importlib.util.spec_from_file_location("gen_protocol", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_protocol"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def run_command(gen: Any, result: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """Drive a command generator like a client would: take the request, send the result."""
    request = next(gen)
    with pytest.raises(StopIteration) as stop:
        gen.send(result)
    return request, stop.value.value


def all_modules() -> list[Any]:
    return [util.domain_module(name) for name in sorted(DOMAINS)]


# --------------------------------------------------------------------------- commands


def test_evaluate_request_drops_none_and_uses_camel_case():
    gen = runtime.evaluate(expression="1 + 1", return_by_value=True, await_promise=None)
    request, result = run_command(
        gen, {"result": {"type": "number", "value": 2, "description": "2"}}
    )
    assert request == {
        "method": "Runtime.evaluate",
        "params": {"expression": "1 + 1", "returnByValue": True},
    }
    assert isinstance(result, runtime.EvaluateResult)
    assert result.result == runtime.RemoteObject(type="number", value=2, description="2")
    assert result.exception_details is None


def test_evaluate_result_with_exception_details():
    _, result = run_command(
        runtime.evaluate("throw 1"),
        {
            "result": {"type": "number", "value": 1},
            "exceptionDetails": {
                "exceptionId": 3,
                "text": "Uncaught",
                "lineNumber": 0,
                "columnNumber": 0,
                "exception": {"type": "number", "value": 1},
            },
        },
    )
    details = result.exception_details
    assert isinstance(details, runtime.ExceptionDetails)
    assert details.exception_id == 3
    assert details.exception == runtime.RemoteObject(type="number", value=1)
    assert details.stack_trace is None


def test_nested_params_are_converted_with_to_json():
    gen = runtime.evaluate(
        "x",
        serialization_options=runtime.SerializationOptions(serialization="deep", max_depth=2),
    )
    assert next(gen)["params"] == {
        "expression": "x",
        "serializationOptions": {"serialization": "deep", "maxDepth": 2},
    }
    gen = runtime.call_function_on(
        "function (a) { return a }",
        object_id="obj-1",
        arguments=[runtime.CallArgument(value=5), runtime.CallArgument(object_id="obj-2")],
    )
    assert next(gen)["params"] == {
        "functionDeclaration": "function (a) { return a }",
        "objectId": "obj-1",
        "arguments": [{"value": 5}, {"objectId": "obj-2"}],
    }


def test_enum_params_are_sent_as_plain_strings():
    gen = network.set_cookie(name="a", value="b", same_site=network.CookieSameSite.LAX)
    params = next(gen)["params"]
    assert params == {"name": "a", "value": "b", "sameSite": "Lax"}
    assert type(params["sameSite"]) is str
    # A raw string is accepted too (e.g. a value newer than the generated enum).
    gen = network.set_cookie(name="a", value="b", same_site="Future")
    assert next(gen)["params"]["sameSite"] == "Future"


def test_single_return_value_is_returned_directly():
    request, session_id = run_command(
        target.attach_to_target(target_id="T1", flatten=True), {"sessionId": "S1"}
    )
    assert request == {
        "method": "Target.attachToTarget",
        "params": {"targetId": "T1", "flatten": True},
    }
    assert session_id == "S1"

    request, root = run_command(
        dom.get_document(depth=1),
        {
            "root": {
                "nodeId": 1,
                "backendNodeId": 2,
                "nodeType": 9,
                "nodeName": "#document",
                "localName": "",
                "nodeValue": "",
                "children": [
                    {
                        "nodeId": 2,
                        "backendNodeId": 3,
                        "nodeType": 1,
                        "nodeName": "HTML",
                        "localName": "html",
                        "nodeValue": "",
                    }
                ],
            }
        },
    )
    assert request == {"method": "DOM.getDocument", "params": {"depth": 1}}
    assert isinstance(root, dom.Node)
    assert root.node_name == "#document"
    assert root.children is not None and root.children[0].local_name == "html"


def test_no_return_value_gives_none_and_empty_params():
    request, result = run_command(page.bring_to_front(), {})
    assert request == {"method": "Page.bringToFront", "params": {}}
    assert result is None


def test_required_params_positional_optional_keyword_only():
    sig = inspect.signature(runtime.evaluate)
    assert sig.parameters["expression"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert sig.parameters["return_by_value"].kind is inspect.Parameter.KEYWORD_ONLY
    assert sig.parameters["return_by_value"].default is None
    with pytest.raises(TypeError):
        runtime.evaluate("1", None)  # type: ignore[misc]


def test_every_command_runs_with_missing_arguments_and_an_empty_result():
    """Smoke test over all 600+ commands: request shape and lenient result parsing."""
    gen = load_generator()
    seen = 0
    for method in util.all_methods():
        domain, _, name = method.partition(".")
        func = getattr(util.domain_module(domain), gen.py_identifier(name))
        required = {
            p.name: None
            for p in inspect.signature(func).parameters.values()
            if p.default is inspect.Parameter.empty
        }
        request, _ = run_command(func(**required), {})
        assert request == {"method": method, "params": {}}
        seen += 1
    assert seen == len(util.all_methods()) > 600


# --------------------------------------------------------------------------- events


def test_known_event_parses():
    event = util.parse_event("Page.loadEventFired", {"timestamp": 12.5})
    assert event == page.LoadEventFired(timestamp=12.5)
    assert page.LoadEventFired.cdp_method == "Page.loadEventFired"
    assert util.event_method(page.LoadEventFired) == "Page.loadEventFired"


def test_console_api_called_with_remote_object_args():
    event = util.parse_event(
        "Runtime.consoleAPICalled",
        {
            "type": "log",
            "args": [
                {"type": "string", "value": "hello"},
                {
                    "type": "object",
                    "subtype": "array",
                    "objectId": "1.2.3",
                    "className": "Array",
                    "description": "Array(2)",
                },
            ],
            "executionContextId": 4,
            "timestamp": 1700000000000.5,
            "stackTrace": {
                "callFrames": [
                    {
                        "functionName": "",
                        "scriptId": "9",
                        "url": "https://example.test/",
                        "lineNumber": 1,
                        "columnNumber": 2,
                    }
                ]
            },
            "someFutureField": {"ignored": True},
        },
    )
    assert isinstance(event, runtime.ConsoleAPICalled)
    assert event.type == "log"
    assert event.args == [
        runtime.RemoteObject(type="string", value="hello"),
        runtime.RemoteObject(
            type="object",
            subtype="array",
            object_id="1.2.3",
            class_name="Array",
            description="Array(2)",
        ),
    ]
    assert event.execution_context_id == 4
    assert event.stack_trace is not None
    assert event.stack_trace.call_frames[0].url == "https://example.test/"
    assert event.context is None


def test_unknown_event_method():
    for method in ("Page.somethingNew", "NoSuchDomain.event", "nodot", ""):
        event = util.parse_event(method, {"a": 1})
        assert event == util.UnknownEvent(method, {"a": 1})
        assert event.error is None


def test_event_without_params_and_with_none_params():
    cleared = util.parse_event("Runtime.executionContextsCleared", {})
    assert cleared == runtime.ExecutionContextsCleared()
    assert util.parse_event("Runtime.executionContextsCleared", None) == cleared


def test_missing_required_field_becomes_none():
    event = util.parse_event("Runtime.consoleAPICalled", {"type": "error"})
    assert isinstance(event, runtime.ConsoleAPICalled)
    assert event.args is None
    assert event.execution_context_id is None
    assert event.timestamp is None


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("Runtime.consoleAPICalled", {"type": "log", "args": "not-a-list-of-objects"}),
        ("Runtime.consoleAPICalled", {"type": "log", "args": [1, 2]}),
        ("Runtime.consoleAPICalled", {"type": "log", "args": [], "stackTrace": "oops"}),
        ("Runtime.executionContextCreated", {"context": ["not", "an", "object"]}),
        ("Page.loadEventFired", "a string instead of an object"),
        ("Page.loadEventFired", ["a", "list"]),
        ("Runtime.executionContextsCleared", 42),
    ],
)
def test_malformed_payload_gives_unknown_event(method, params):
    event = util.parse_event(method, params)
    assert isinstance(event, util.UnknownEvent)
    assert event.method == method
    assert event.params == params
    assert event.error


def test_malformed_method_never_raises():
    event = util.parse_event(None, {})  # type: ignore[arg-type]
    assert isinstance(event, util.UnknownEvent)
    assert event.error


def test_every_event_is_registered_and_parses_an_empty_payload():
    for method in util.all_events():
        event = util.parse_event(method, {})
        assert not isinstance(event, util.UnknownEvent), (method, event)
        assert type(event).cdp_method == method
    assert len(util.all_events()) > 200


# --------------------------------------------------------------------------- types and enums


def test_unknown_enum_value_stays_a_string():
    assert accessibility.AXPropertyName.from_json("busy") is accessibility.AXPropertyName.BUSY
    assert accessibility.AXPropertyName.from_json("notARealProperty") == "notARealProperty"
    assert not isinstance(accessibility.AXPropertyName.from_json("zzz"), enum.Enum)
    # Unhashable garbage does not raise either.
    assert accessibility.AXPropertyName.from_json(["x"]) == ["x"]

    prop = accessibility.AXProperty.from_json(
        {"name": "somePropertyFromTheFuture", "value": {"type": "boolean", "value": True}}
    )
    assert prop.name == "somePropertyFromTheFuture"
    assert prop.value == accessibility.AXValue(type=accessibility.AXValueType.BOOLEAN, value=True)


def test_enum_members_are_strings():
    assert accessibility.AXValueType.BOOLEAN == "boolean"
    assert isinstance(accessibility.AXValueType.BOOLEAN, str)
    assert accessibility.AXValueType.BOOLEAN.to_json() == "boolean"


def test_keyword_fields_are_escaped_in_service_worker_router_condition():
    cond_cls = service_worker.ServiceWorkerRouterCondition
    names = {f.name for f in dataclasses.fields(cond_cls)}
    assert {"or_", "not_"} <= names
    assert "or" not in names and "not" not in names
    raw = {
        "urlPattern": "/a/*",
        "or": [{"requestMethod": "GET"}, {"requestMode": "cors"}],
        "not": {"runningStatus": "running"},
    }
    cond = cond_cls.from_json(raw)
    assert cond.or_ == [cond_cls(request_method="GET"), cond_cls(request_mode="cors")]
    assert cond.not_ == cond_cls(
        running_status=service_worker.ServiceWorkerVersionRunningStatus.RUNNING
    )
    assert cond.to_json() == raw


def test_to_json_round_trip_and_none_fields_omitted():
    obj = runtime.RemoteObject(
        type="object",
        object_id="1",
        preview=runtime.ObjectPreview(
            type="object",
            overflow=False,
            properties=[runtime.PropertyPreview(name="a", type="number", value="1")],
        ),
    )
    raw = obj.to_json()
    assert raw == {
        "type": "object",
        "objectId": "1",
        "preview": {
            "type": "object",
            "overflow": False,
            "properties": [{"name": "a", "type": "number", "value": "1"}],
        },
    }
    assert runtime.RemoteObject.from_json(raw) == obj


def test_dataclass_features_still_work():
    obj = runtime.RemoteObject(type="number", value=1)
    assert dataclasses.is_dataclass(obj)
    assert dataclasses.replace(obj, value=2).value == 2
    assert dataclasses.asdict(obj)["value"] == 1
    assert "value=1" in repr(obj)
    assert obj != runtime.RemoteObject(type="number", value=2)
    with pytest.raises(AttributeError):
        obj.not_a_field = 1  # type: ignore[attr-defined]


def test_every_object_type_parses_an_empty_payload():
    count = 0
    for module in all_modules():
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__ or not dataclasses.is_dataclass(cls):
                continue
            obj = cls.from_json({})
            assert all(getattr(obj, f.name) is None for f in dataclasses.fields(cls))
            if hasattr(cls, "to_json"):
                assert obj.to_json() == {}
            count += 1
    assert count > 600


def test_primitive_aliases_are_plain_types():
    assert page.FrameId is str
    assert dom.NodeId is int
    assert runtime.Timestamp is float


# --------------------------------------------------------------------------- package


def test_every_generated_module_imports():
    modules = all_modules()
    assert len(modules) == len(DOMAINS) == 59
    for domain, module in zip(sorted(DOMAINS), modules, strict=True):
        assert module.__name__ == f"cdpdriver.protocol.{DOMAINS[domain]}"


def test_each_module_imports_first_in_a_clean_state():
    """Cross-domain imports are circular (page <-> dom <-> network); any module must be
    importable first.  Checked in one fresh interpreter by unloading between imports."""
    code = textwrap.dedent(
        """
        import importlib, sys
        from cdpdriver.protocol import DOMAINS
        for module in sorted(DOMAINS.values()):
            for name in [m for m in sys.modules if m.startswith("cdpdriver.protocol.")]:
                if not name.endswith(("._index", ".util")):
                    del sys.modules[name]
            importlib.import_module("cdpdriver.protocol." + module)
        """
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_module_naming():
    assert DOMAINS["Input"] == "input_"
    assert DOMAINS["DOMSnapshot"] == "dom_snapshot"
    assert DOMAINS["ServiceWorker"] == "service_worker"
    assert DOMAINS["CSS"] == "css"
    assert util.domain_module("Input") is input_
    assert util.domain_module("input_") is input_
    assert util.domain_module("DOMSnapshot").__name__ == "cdpdriver.protocol.dom_snapshot"
    with pytest.raises(KeyError):
        util.domain_module("NoSuchDomain")


def test_all_methods_table():
    methods = util.all_methods()
    assert "Runtime.evaluate" in methods
    assert "Target.attachToTarget" in methods
    assert len(set(methods)) == len(methods)
    assert "Page.loadEventFired" in util.all_events()


def test_generated_files_have_header():
    generated = sorted(p for p in PROTOCOL_DIR.glob("*.py") if p.name != "util.py")
    assert len(generated) == len(DOMAINS) + 2
    for path in generated:
        head = path.read_text(encoding="utf-8").splitlines()[:2]
        assert head[0] == (
            "# Generated by scripts/gen_protocol.py from devtools-protocol 0.0.1734725."
        ), path
        assert "DO NOT EDIT BY HAND" in head[1]


def test_package_import_is_lazy():
    """``import cdpdriver.protocol`` loads no domain; ``parse_event`` loads only what it needs.

    Runs in a fresh interpreter, with ``cdpdriver`` itself stubbed as a bare namespace so the
    driver package's own imports do not interfere.
    """
    spec = importlib.util.find_spec("cdpdriver")
    assert spec is not None and spec.submodule_search_locations is not None
    code = textwrap.dedent(
        f"""
        import sys, types
        pkg = types.ModuleType("cdpdriver")
        pkg.__path__ = {list(spec.submodule_search_locations)!r}
        sys.modules["cdpdriver"] = pkg

        def loaded():
            return sorted(m.rpartition(".")[2] for m in sys.modules
                          if m.startswith("cdpdriver.protocol."))

        import cdpdriver.protocol as protocol
        assert loaded() == ["_index"], loaded()
        from cdpdriver.protocol import runtime
        assert loaded() == ["_index", "runtime", "util"], loaded()
        assert protocol.input_.__name__ == "cdpdriver.protocol.input_"
        from cdpdriver.protocol import util
        event = util.parse_event("Inspector.detached", {{"reason": "target_closed"}})
        assert type(event).__name__ == "Detached", event
        assert loaded() == ["_index", "input_", "inspector", "runtime", "util"], loaded()
        try:
            protocol.not_a_domain
        except AttributeError:
            pass
        else:
            raise AssertionError("expected AttributeError")
        """
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def _protocol_json_available() -> bool:
    cached = ROOT / ".cache" / "devtools-protocol" / "package" / "json"
    return all((cached / name).is_file() for name in ("js_protocol.json", "browser_protocol.json"))


@pytest.mark.skipif(
    not _protocol_json_available() and shutil.which("npm") is None,
    reason="no cached devtools-protocol JSON and npm is not installed",
)
def test_regeneration_reproduces_committed_files(tmp_path):
    # Without a cached copy the generator fetches the package with ``npm pack``.
    out = tmp_path / "protocol"
    subprocess.run([sys.executable, str(GENERATOR), "--out", str(out)], check=True, cwd=ROOT)
    committed = sorted(p.name for p in PROTOCOL_DIR.glob("*.py") if p.name != "util.py")
    regenerated = sorted(p.name for p in out.glob("*.py"))
    assert regenerated == committed
    match, mismatch, errors = filecmp.cmpfiles(out, PROTOCOL_DIR, committed, shallow=False)
    assert mismatch == [] and errors == []
    assert len(match) == len(committed)
    check = subprocess.run(
        [sys.executable, str(GENERATOR), "--check", "--out", str(PROTOCOL_DIR)], cwd=ROOT
    )
    assert check.returncode == 0
