"""Script in a page, from any session: evaluation, calls, isolated worlds, large strings.

Page-side JavaScript goes through these functions (``Page.evaluate`` too), so a result is
unwrapped by one rule: a thrown exception or rejected promise becomes
:class:`~cdpdriver.errors.JavaScriptError` (message, location, stack), a by-value result
becomes its Python value, and anything else comes back as the browser's ``RemoteObject``.
They take a :class:`~cdpdriver.session.Session` rather than a page, since a frame may be
rendered by an out-of-process child target with a session of its own; ``context_id``
picks the execution context (an isolated world, a frame's main world) within it.
"""

from __future__ import annotations

from typing import Any

from .errors import JavaScriptError
from .protocol import page as page_domain
from .protocol import runtime
from .scripts import load_script
from .session import Session

#: Characters per CDP message when a large string crosses in either direction; one message
#: never grows with the data (read at call time, so a test can shrink it).
CHUNK_CHARS = 4_000_000

_UNSERIALIZABLE = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf"), "-0": -0.0}


# --------------------------------------------------------------------------- the rule


def script_error(details: runtime.ExceptionDetails) -> JavaScriptError:
    """The exception a page script threw, as the driver's error.

    The message is the first line of the exception's description (``TypeError: x``); the
    rest of it, or else the reported call frames, is the stack.
    """
    exception = details.exception
    description = (exception.description if exception is not None else None) or details.text
    message, _, stack = str(description).partition("\n")
    if not stack and details.stack_trace is not None:
        stack = "\n".join(
            f"    at {f.function_name or '<anonymous>'} ({f.url}:{f.line_number}:{f.column_number})"
            for f in details.stack_trace.call_frames or []
        )
    return JavaScriptError(
        message,
        url=details.url,
        line=details.line_number,
        column=details.column_number,
        stack=stack or None,
    )


def remote_value(remote: runtime.RemoteObject) -> Any:
    """The Python value of a by-value result: ``undefined`` is None, and the numbers JSON
    cannot carry (``NaN``, ``±Infinity``, ``-0``) are floats; a BigInt stays its text."""
    if remote.type == "undefined":
        return None
    if remote.value is not None:
        return remote.value
    special = remote.unserializable_value
    if special is None:
        return None
    return _UNSERIALIZABLE.get(str(special), str(special))


def unwrap_evaluation(
    result: runtime.EvaluateResult | runtime.CallFunctionOnResult, by_value: bool = True
) -> Any:
    """The value (``by_value``) or the RemoteObject of a reply; a thrown exception raises."""
    if result.exception_details is not None:
        raise script_error(result.exception_details)
    return remote_value(result.result) if by_value else result.result


# --------------------------------------------------------------------------- evaluation


def _run_options(
    *,
    by_value: bool = True,
    await_promise: bool = False,
    user_gesture: bool = False,
    object_group: str | None = None,
) -> dict[str, Any]:
    """The parameters ``Runtime.evaluate`` and ``Runtime.callFunctionOn`` share.

    ``by_value``: the result's JSON value rather than a handle to it; ``await_promise``: the
    settled value of a returned promise (a rejection raises); ``user_gesture``: run as if the
    user acted (a popup may open); ``object_group``: where a handle stays alive.
    """
    params: dict[str, Any] = {"returnByValue": by_value}
    if await_promise:
        params["awaitPromise"] = True
    if user_gesture:
        params["userGesture"] = True
    if object_group is not None:
        params["objectGroup"] = object_group
    return params


async def evaluate_remote(
    session: Session,
    expression: str,
    context_id: int | None = None,
    *,
    timeout: float | None = None,
    **options: Any,
) -> runtime.RemoteObject:
    """``Runtime.evaluate`` in ``context_id`` (the target's main world when None).

    The RemoteObject as the browser sent it: with ``by_value`` (the default; ``options`` are
    those of :func:`_run_options`) its JSON value is in ``.value``, else it is a handle
    (``.object_id``).
    """
    params = {"expression": expression, **_run_options(**options)}
    if context_id is not None:
        params["contextId"] = context_id
    reply = await session.send("Runtime.evaluate", params, timeout=timeout)
    return unwrap_evaluation(runtime.EvaluateResult.from_json(reply), by_value=False)


async def evaluate(session: Session, expression: str, context_id: int | None = None, **options: Any) -> Any:
    """The Python value of ``expression`` (:func:`remote_value`); ``options`` as for
    :func:`evaluate_remote`, which this calls by value."""
    return remote_value(await evaluate_remote(session, expression, context_id, **options))


async def call_function_remote(
    session: Session,
    function: str,
    *args: Any,
    object_id: str | None = None,
    context_id: int | None = None,
    timeout: float | None = None,
    **options: Any,
) -> runtime.RemoteObject:
    """``Runtime.callFunctionOn``: ``function`` with JSON ``args``, ``this`` bound to the object
    ``object_id``, or called in the context ``context_id`` when there is no object.

    Arguments travel as values, never as source text, so no quoting can go wrong; a None
    argument arrives as ``null`` (the generated ``CallArgument`` would drop it, making it
    ``undefined``, which is why these requests are built here). ``options`` and the
    RemoteObject are as in :func:`evaluate_remote`.
    """
    if object_id is None and context_id is None:
        raise TypeError("call_function needs the object_id to call on or a context_id to call in")
    params = {"functionDeclaration": function, **_run_options(**options)}
    if object_id is not None:
        params["objectId"] = object_id
    if context_id is not None:
        params["executionContextId"] = context_id
    if args:
        params["arguments"] = [{"value": arg} for arg in args]
    reply = await session.send("Runtime.callFunctionOn", params, timeout=timeout)
    return unwrap_evaluation(runtime.CallFunctionOnResult.from_json(reply), by_value=False)


async def call_function(session: Session, function: str, *args: Any, **options: Any) -> Any:
    """The Python value of a call (:func:`remote_value`); ``options`` as for
    :func:`call_function_remote`, which this calls by value."""
    return remote_value(await call_function_remote(session, function, *args, **options))


async def isolated_world(
    session: Session, frame_id: str, name: str, *, timeout: float | None = None
) -> int:
    """The isolated world ``name`` in ``frame_id`` (a frame the session's target renders).

    Page scripts can neither see what runs there nor patch the built-ins it uses. Chromium
    keeps one world per name for the frame's window, so calls with the same name share it
    (and what earlier calls left in it), while another name, or a new document, gives a
    clean one. Universal access is granted, so it may reach cross-origin frames' documents.
    """
    context_id = await session.execute(
        page_domain.create_isolated_world(
            frame_id=page_domain.FrameId(frame_id), world_name=name, grant_univeral_access=True
        ),
        timeout=timeout,
    )
    return int(context_id)


# --------------------------------------------------------------------------- large strings


async def read_string(
    session: Session, context_id: int, promise_name: str, *, timeout: float | None = None
) -> str:
    """Await the string promise ``globalThis[promise_name]`` in ``context_id`` and read it.

    A string up to :data:`CHUNK_CHARS` comes back with the awaiting call; a longer one is
    kept as ``globalThis[promise_name + 'Text']`` and read a chunk per message, so no reply
    grows with the data. ``timeout`` bounds the wait for the promise.
    """
    chunk = CHUNK_CHARS
    head = await call_function(
        session,
        load_script("cdpdriver", "string_promise_head"),
        promise_name,
        chunk,
        context_id=context_id,
        await_promise=True,
        timeout=timeout,
    )
    if isinstance(head, str):
        return head
    parts: list[str] = []
    for start in range(0, int(head), chunk):
        parts.append(
            await call_function(
                session,
                "function (name, start, end) { return globalThis[name + 'Text'].slice(start, end); }",
                promise_name,
                start,
                start + chunk,
                context_id=context_id,
            )
        )
    return "".join(parts)


async def write_string(session: Session, context_id: int, name: str, text: str) -> None:
    """Leave ``text`` in ``context_id`` as ``globalThis[name]``, an array of chunks in order
    (join them there), sent a chunk per message."""
    chunk = CHUNK_CHARS
    for start in range(0, max(len(text), 1), chunk):
        await call_function(
            session,
            "function (name, chunk) { (globalThis[name] ||= []).push(chunk); }",
            name,
            text[start : start + chunk],
            context_id=context_id,
        )
