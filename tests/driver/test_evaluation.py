"""The session-level script helpers every layer uses: one unwrapping rule, calls with JSON
arguments, isolated worlds and strings that cross CDP in chunks."""

from __future__ import annotations

import math

import pytest

import cdpdriver.evaluation
from cdpdriver import JavaScriptError, call_function, evaluate, isolated_world
from cdpdriver.evaluation import call_function_remote, evaluate_remote, read_string, write_string


async def test_values_and_thrown_errors_follow_one_rule(page):
    session = page.session
    assert await evaluate(session, "({a: [1, 'x', null]})") == {"a": [1, "x", None]}
    assert await evaluate(session, "undefined") is None
    assert math.isnan(await evaluate(session, "NaN"))
    assert math.copysign(1, await evaluate(session, "-0")) == -1
    assert await evaluate(session, "Promise.resolve(7)", await_promise=True) == 7
    world = await isolated_world(session, page.main_frame_id, "t-rule")
    with pytest.raises(JavaScriptError) as thrown:
        await call_function(session, "function () { throw new RangeError('too far'); }", context_id=world)
    assert thrown.value.message == "RangeError: too far"
    assert thrown.value.line is not None and thrown.value.stack
    with pytest.raises(JavaScriptError, match="no way"):
        await evaluate(session, "Promise.reject(new Error('no way'))", await_promise=True)


async def test_arguments_travel_as_values_and_none_is_null(page):
    tricky = "it's \"quoted\" </script> ${x}"
    world = await isolated_world(page.session, page.main_frame_id, "t-args")
    echoed = await call_function(
        page.session, "function (a, b, c) { return [a, b === null, typeof c, c.n]; }",
        tricky, None, {"n": 2}, context_id=world,
    )
    assert echoed == [tricky, True, "object", 2]
    with pytest.raises(TypeError):
        await call_function(page.session, "function () {}")


async def test_handles_and_objects_the_call_is_bound_to(page):
    await page.set_content("<p id=p>para</p>")
    handle = await evaluate_remote(page.session, "document.getElementById('p')", by_value=False)
    assert handle.object_id
    text = await call_function(page.session, "function (suffix) { return this.textContent + suffix; }",
                               "!", object_id=str(handle.object_id))
    assert text == "para!"
    remote = await call_function_remote(page.session, "function () { return this; }",
                                        object_id=str(handle.object_id), by_value=False)
    assert remote.subtype == "node"


async def test_isolated_worlds_are_per_name_and_hidden_from_the_page(page):
    first = await isolated_world(page.session, page.main_frame_id, "t-world")
    await evaluate(page.session, "globalThis.mark = 1", first)
    assert await isolated_world(page.session, page.main_frame_id, "t-world") == first
    other = await isolated_world(page.session, page.main_frame_id, "t-other")
    assert other != first
    assert await evaluate(page.session, "typeof globalThis.mark", other) == "undefined"
    assert await evaluate(page.session, "typeof globalThis.mark") == "undefined"  # main world


async def test_strings_cross_in_chunks_both_ways(page, monkeypatch):
    monkeypatch.setattr(cdpdriver.evaluation, "CHUNK_CHARS", 1000)
    world = await isolated_world(page.session, page.main_frame_id, "t-strings")
    text = "".join(chr(0x41 + n % 26) for n in range(4321)) + "é✓"
    await write_string(page.session, world, "__in", text)
    assert await evaluate(page.session, "globalThis.__in.length", world) == 5  # five chunks
    await evaluate(page.session, "globalThis.__out = Promise.resolve(globalThis.__in.join('')); 0", world)
    assert await read_string(page.session, world, "__out", timeout=10) == text
    await evaluate(page.session, "globalThis.__short = Promise.resolve('tiny'); 0", world)
    assert await read_string(page.session, world, "__short", timeout=10) == "tiny"
