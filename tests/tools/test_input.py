"""input_: real keyboard, mouse and touch events, checked by what the page recorded."""

from __future__ import annotations

RECORDER = """<title>Input</title>
<style>body { margin: 0; height: 3000px } #pad { position: absolute; left: 0; top: 100px; width: 400px; height: 300px }
#drag { position: absolute; left: 450px; top: 100px; width: 60px; height: 60px; background: red }
#drop { position: absolute; left: 450px; top: 300px; width: 120px; height: 120px; background: blue }</style>
<input id=field style="position:absolute; left:10px; top:10px; width:300px">
<div id=pad></div><div id=drag draggable=true></div><div id=drop></div>
<script>
window.log = [];
const keys = (e) => ({t: e.type, key: e.key, code: e.code, shift: e.shiftKey, ctrl: e.ctrlKey, trusted: e.isTrusted});
const mouse = (e) => ({t: e.type, x: e.clientX, y: e.clientY, button: e.button, buttons: e.buttons,
                       shift: e.shiftKey, detail: e.detail});
const touch = (e) => ({t: e.type, points: [...e.changedTouches].map((p) => [p.clientX, p.clientY])});
for (const t of ['keydown', 'keyup']) document.addEventListener(t, (e) => log.push(keys(e)));
for (const t of ['mousedown', 'mouseup', 'click', 'dblclick', 'contextmenu', 'mousemove'])
  document.addEventListener(t, (e) => log.push(mouse(e)));
document.addEventListener('contextmenu', (e) => e.preventDefault());
document.addEventListener('wheel', (e) => log.push({t: 'wheel', dx: e.deltaX, dy: e.deltaY, x: e.clientX, y: e.clientY}));
for (const t of ['touchstart', 'touchmove', 'touchend']) document.addEventListener(t, (e) => log.push(touch(e)));
const drag = document.getElementById('drag'), drop = document.getElementById('drop');
drag.addEventListener('dragstart', (e) => { e.dataTransfer.setData('text/plain', 'card-7'); log.push({t: 'dragstart'}); });
drop.addEventListener('dragover', (e) => e.preventDefault());
drop.addEventListener('drop', (e) => { e.preventDefault(); log.push({t: 'drop', data: e.dataTransfer.getData('text/plain'), x: e.clientX, y: e.clientY}); });
</script>"""


async def _open(mcp, site, path="/input/recorder"):
    await mcp.ok("page_navigate", {"url": site.route(path, RECORDER)})


async def _take(mcp, kinds=None):
    """The recorded events (optionally only some types), clearing the log."""
    events = await mcp.js("(() => { const l = log.slice(); log.length = 0; return l; })()")
    return [e for e in events if kinds is None or e["t"] in kinds]


async def test_keyboard_press_type_and_combos(mcp, site):
    await _open(mcp, site)
    await mcp.ok("input_mouse_click", {"x": 50, "y": 20})  # focus the field
    assert await mcp.js("document.activeElement.id") == "field"
    await _take(mcp)
    data = await mcp.ok("input_keyboard_press", {"key": "a"})
    assert data["message"] == "pressed a"
    await mcp.ok("input_keyboard_press", {"key": "Shift+b"})
    await mcp.ok("input_keyboard_type", {"text": "c1!"})
    assert await mcp.js("field.value") == "aBc1!"
    downs = await _take(mcp, {"keydown"})
    assert [(e["key"], e["code"], e["shift"]) for e in downs] == [
        ("a", "KeyA", False), ("Shift", "ShiftLeft", True), ("B", "KeyB", True),
        ("c", "KeyC", False), ("1", "Digit1", False), ("!", "Digit1", False)]
    assert all(e["trusted"] for e in downs)
    # Control+A selects all, so typing replaces the value.
    await mcp.ok("input_keyboard_press", {"key": "Control+a"})
    await mcp.ok("input_keyboard_type", {"text": "new"})
    assert await mcp.js("field.value") == "new"
    await mcp.ok("input_keyboard_press", {"key": "Backspace"})
    assert await mcp.js("field.value") == "ne"


async def test_keyboard_hold_modifies_later_keys_and_clicks(mcp, site):
    await _open(mcp, site, "/input/hold")
    await mcp.ok("input_mouse_click", {"x": 50, "y": 20})
    await _take(mcp)
    held = await mcp.ok("input_keyboard_down", {"key": "Shift"})
    assert held["message"] == "holding Shift"
    await mcp.ok("input_keyboard_press", {"key": "x"})
    await mcp.ok("input_mouse_click", {"x": 100, "y": 200})
    released = await mcp.ok("input_keyboard_up", {"key": "Shift"})
    assert released["message"] == "released Shift"
    await mcp.ok("input_keyboard_press", {"key": "x"})
    await mcp.ok("input_mouse_click", {"x": 50, "y": 20})
    await mcp.ok("input_keyboard_press", {"key": "y"})
    assert await mcp.js("field.value") == "Xy"
    events = await _take(mcp, {"keydown", "keyup", "click"})
    xs = [(e["t"], e["key"], e["shift"]) for e in events if e.get("key") in ("X", "x")]
    assert xs == [("keydown", "X", True), ("keyup", "X", True), ("keydown", "x", False), ("keyup", "x", False)]
    clicks = [e for e in events if e["t"] == "click"]
    assert [c["shift"] for c in clicks] == [True, False]  # at (100, 200) with Shift held, then the field
    shift_up = [e for e in events if e["t"] == "keyup" and e["key"] == "Shift"]
    assert len(shift_up) == 1 and shift_up[0]["shift"] is False
    note = await mcp.ok("input_keyboard_up", {"key": "Alt"})
    assert "had not been held" in note["message"]


async def test_keyboard_bad_keys(mcp, site):
    await _open(mcp, site, "/input/bad-keys")
    err = await mcp.fail("input_keyboard_press", {"key": "Hyper+a"})
    assert err["code"] == "invalid_arguments" and "unknown key" in err["message"]
    err = await mcp.fail("input_keyboard_down", {"key": ""})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "key"


async def test_mouse_click_buttons_and_counts(mcp, site):
    await _open(mcp, site, "/input/click")
    await _take(mcp)
    data = await mcp.ok("input_mouse_click", {"x": 120, "y": 150})
    assert data["message"] == "left-clicked at (120, 150)"
    events = await _take(mcp, {"mousedown", "mouseup", "click"})
    assert [(e["t"], e["x"], e["y"], e["button"]) for e in events] == [
        ("mousedown", 120, 150, 0), ("mouseup", 120, 150, 0), ("click", 120, 150, 0)]
    await mcp.ok("input_mouse_click", {"x": 130, "y": 160, "button": "right"})
    events = await _take(mcp, {"mousedown", "contextmenu"})
    assert [(e["t"], e["button"], e["buttons"]) for e in events] == [("mousedown", 2, 2), ("contextmenu", 2, 2)]
    await mcp.ok("input_mouse_click", {"x": 140, "y": 170, "click_count": 2})
    events = await _take(mcp, {"click", "dblclick"})
    assert [(e["t"], e["detail"]) for e in events] == [("click", 1), ("click", 2), ("dblclick", 2)]
    err = await mcp.fail("input_mouse_click", {"x": 1, "y": 1, "button": "side"})
    assert err["code"] == "invalid_arguments" and err["details"][0]["field"] == "button"
    err = await mcp.fail("input_mouse_click", {"x": 1, "y": 1, "click_count": 5})
    assert err["details"][0]["field"] == "click_count"
    err = await mcp.fail("input_mouse_click", {"x": 1})
    assert err["details"][0]["field"] == "y"


async def test_mouse_move_down_up_make_a_drag(mcp, site):
    await _open(mcp, site, "/input/move")
    await mcp.ok("input_mouse_move", {"x": 20, "y": 120})
    await _take(mcp)
    await mcp.ok("input_mouse_down", {})
    await mcp.ok("input_mouse_move", {"x": 200, "y": 250})
    up = await mcp.ok("input_mouse_up", {"button": "left"})
    assert up["message"] == "left button up at (200, 250)"
    events = await _take(mcp, {"mousedown", "mousemove", "mouseup"})
    assert [(e["t"], e["x"], e["y"], e["buttons"]) for e in events] == [
        ("mousedown", 20, 120, 1), ("mousemove", 200, 250, 1), ("mouseup", 200, 250, 0)]
    await mcp.ok("input_mouse_down", {"button": "middle"})
    await mcp.ok("input_mouse_up", {"button": "middle"})
    events = await _take(mcp, {"mousedown", "mouseup"})
    assert [(e["t"], e["button"]) for e in events] == [("mousedown", 1), ("mouseup", 1)]
    note = await mcp.ok("input_mouse_up", {"button": "right"})
    assert "it was not held" in note["message"]


async def test_mouse_wheel_scrolls(mcp, site):
    await _open(mcp, site, "/input/wheel")
    await mcp.ok("input_mouse_move", {"x": 100, "y": 200})
    await _take(mcp)
    await mcp.ok("input_mouse_wheel", {"delta_y": 300, "delta_x": 0})
    await mcp.ok("wait_for_function", {"function": "log.some((e) => e.t === 'wheel')", "timeout_ms": 30000})
    events = await _take(mcp, {"wheel"})
    assert [(e["dx"], e["dy"], e["x"], e["y"]) for e in events] == [(0, 300, 100, 200)]
    data = await mcp.ok("wait_for_function", {"function": "window.scrollY >= 300 && window.scrollY", "timeout_ms": 30000})
    assert data["value"] >= 300


async def test_mouse_drag_plain_and_html_drag_and_drop(mcp, site):
    await _open(mcp, site, "/input/drag")
    await _take(mcp)
    data = await mcp.ok("input_mouse_drag", {"start_x": 10, "start_y": 110, "end_x": 110, "end_y": 210, "steps": 4})
    assert "HTML drag" not in data["message"]
    events = await _take(mcp, {"mousedown", "mousemove", "mouseup"})
    assert [(e["t"], e["x"], e["y"]) for e in events] == [
        ("mousemove", 10, 110), ("mousedown", 10, 110), ("mousemove", 35, 135), ("mousemove", 60, 160), ("mousemove", 85, 185),
        ("mousemove", 110, 210), ("mouseup", 110, 210)]
    assert all(e["buttons"] == 1 for e in events[1:-1])
    data = await mcp.ok("input_mouse_drag", {"start_x": 480, "start_y": 130, "end_x": 510, "end_y": 360})
    assert "an HTML drag and drop was dropped there" in data["message"]
    drops = await _take(mcp, {"dragstart", "drop"})
    assert drops == [{"t": "dragstart"}, {"t": "drop", "data": "card-7", "x": 510, "y": 360}]
    err = await mcp.fail("input_mouse_drag", {"start_x": 0, "start_y": 0, "end_x": 1, "end_y": 1, "steps": 0})
    assert err["details"][0]["field"] == "steps"


async def test_touch_tap_and_swipe(mcp, site):
    await _open(mcp, site, "/input/touch")
    await _take(mcp)
    data = await mcp.ok("input_touch_tap", {"x": 60, "y": 180})
    assert data["message"] == "tapped at (60, 180)"
    events = await _take(mcp, {"touchstart", "touchend", "click"})
    assert [e["t"] for e in events] == ["touchstart", "touchend", "click"]
    assert events[0]["points"] == [[60, 180]] and events[1]["points"] == [[60, 180]]
    assert (events[2]["x"], events[2]["y"]) == (60, 180)
    await mcp.ok("input_touch_swipe", {"start_x": 200, "start_y": 350, "end_x": 200, "end_y": 150})
    events = await _take(mcp, {"touchstart", "touchmove", "touchend"})
    assert events[0] == {"t": "touchstart", "points": [[200, 350]]}
    moves = [e for e in events if e["t"] == "touchmove"]
    assert 1 <= len(moves) <= 10
    assert moves[-1]["points"] == [[200, 150]]
    assert events[-1]["t"] == "touchend"
