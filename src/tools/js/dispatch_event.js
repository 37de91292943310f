// Function expression (event type, init; this = element): dispatches a synthetic event of the matching class; returns {event_class, default_prevented}.
function (type, init) {
  const CLASSES = [
    [/^(click|dblclick|auxclick|contextmenu|mouse(down|up|move|over|out|enter|leave))$/, 'MouseEvent'],
    [/^(pointer\w+|gotpointercapture|lostpointercapture)$/, 'PointerEvent'],
    [/^key(down|up|press)$/, 'KeyboardEvent'], [/^(focus|blur|focusin|focusout)$/, 'FocusEvent'],
    [/^(input|beforeinput)$/, 'InputEvent'], [/^(drag\w*|drop)$/, 'DragEvent'], [/^wheel$/, 'WheelEvent'],
    [/^touch(start|end|move|cancel)$/, 'TouchEvent'], [/^composition(start|update|end)$/, 'CompositionEvent'],
    [/^(copy|cut|paste)$/, 'ClipboardEvent'], [/^animation\w+$/, 'AnimationEvent'],
    [/^transition\w+$/, 'TransitionEvent'], [/^submit$/, 'SubmitEvent'],
  ];
  const options = Object.assign({bubbles: true, cancelable: true, composed: true}, init || {});
  let name = 'detail' in options ? 'CustomEvent' : 'Event';
  for (const [pattern, cls] of CLASSES) if (pattern.test(type) && window[cls]) { name = cls; break; }
  if (name === 'DragEvent' && options.dataTransfer && !(options.dataTransfer instanceof DataTransfer)) {
    const data = new DataTransfer();
    for (const [k, v] of Object.entries(options.dataTransfer)) data.setData(k, String(v));
    options.dataTransfer = data;
  }
  const event = new window[name](type, options);
  const notCancelled = this.dispatchEvent(event);
  return {event_class: name, default_prevented: !notCancelled};
}
