"""Checks every request passes before the app reads it: the body's size and nesting.

Each check costs time linear in the body, whatever the body holds, so no request can make
one expensive; and a large body is checked on a worker thread, off the event loop, so no
request can stall the others while it is checked.
"""

from __future__ import annotations

import asyncio

import numpy as np
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from splendor.web.errors import error_response

MAX_JSON_DEPTH = 64
"""Deepest nesting of arrays and objects a request body may have (a view nests about 5)."""

OFF_LOOP_BYTES = 16 * 1024
"""Bodies at least this long are checked on a worker thread."""


def json_depth(body: bytes) -> int:
    """How deep ``body``'s arrays and objects nest, brackets inside strings not counted.

    Linear in the body, vectorised: a quote opens or closes a string unless an odd run of
    backslashes precedes it; a bracket counts when an even number of such quotes precede it.
    That is exact for any body the JSON parser accepts (outside strings JSON has no
    backslashes), and any other body is refused by the parser anyway.

    Checked before parsing: whether the parser itself gives up on a deep body depends on
    the interpreter's recursion limit and on how deep its stack already is, which vary
    from process to process, so the limit is the server's own.
    """
    b = np.frombuffer(body, dtype=np.uint8)
    if b.size == 0:
        return 0
    index = np.arange(b.size, dtype=np.int32)  # bodies are far below 2**31 bytes
    backslash = b == ord("\\")
    # The last byte at or before i that is not a backslash; the run of backslashes just
    # before i is then (i - 1) - that index taken at i - 1.
    last_other = np.maximum.accumulate(np.where(backslash, -1, index))
    run_before = np.zeros(b.size, dtype=np.int32)
    run_before[1:] = index[:-1] - last_other[:-1]
    quote = (b == ord('"')) & (run_before % 2 == 0)
    outside = np.cumsum(quote, dtype=np.int32) % 2 == 0
    step = (((b == ord("[")) | (b == ord("{"))) & outside).astype(np.int32)
    step -= ((b == ord("]")) | (b == ord("}"))) & outside
    return int(np.cumsum(step).max(initial=0))


class BodyLimit:
    """Refuses a request body over ``limit`` bytes with a 413, declared or streamed, and one
    nesting deeper than :data:`MAX_JSON_DEPTH` with a 400 ``malformed_json``.

    The body is read here, whole, before the app sees it (it is at most ``limit`` bytes):
    so a streamed body over the limit is a 413 too, never a parse error of the app's.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        too_big = error_response(
            413, "body_too_large", f"request bodies are limited to {self.limit} bytes"
        )
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await too_big(scope, receive, send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before sending its body: nobody to answer
            body += message.get("body", b"")
            if len(body) > self.limit:
                await too_big(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        whole = bytes(body)
        # Fewer brackets than the limit cannot nest deeper than it: most bodies stop here.
        if whole.count(b"[") + whole.count(b"{") > MAX_JSON_DEPTH:
            if len(whole) >= OFF_LOOP_BYTES:
                depth = await asyncio.to_thread(json_depth, whole)
            else:
                depth = json_depth(whole)
            if depth > MAX_JSON_DEPTH:
                too_deep = error_response(
                    400,
                    "malformed_json",
                    f"the request body nests deeper than {MAX_JSON_DEPTH} levels",
                )
                await too_deep(scope, receive, send)
                return
        pending: Message | None = {"type": "http.request", "body": whole, "more_body": False}

        async def replay() -> Message:
            nonlocal pending
            if pending is not None:
                message, pending = pending, None
                return message
            return await receive()

        await self.app(scope, replay, send)
