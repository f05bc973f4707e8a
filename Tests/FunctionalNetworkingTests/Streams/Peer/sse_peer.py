"""A Server-Sent Events peer for ServerSentEventsPeerTests: sse-starlette on uvicorn.

The Swift tests start it on 127.0.0.1 (see Tests/FunctionalNetworkingTests/Support/PythonSSEPeer.swift):

    python3 -m uvicorn sse_peer:app --host 127.0.0.1 --port 0 --app-dir <this folder>

Every event comes from sse-starlette's own `ServerSentEvent`, `JSONServerSentEvent` and
`EventSourceResponse`, so the bytes on the wire are sse-starlette's, not ours. Nothing depends on
the wall clock: keep-alive pings are off (`ping=0`) except on `/pinged`, whose pings are a fixed
comment.

Routes (`key` names a test's own record, so tests running in parallel do not mix):

- `GET /health`: "ok", for the readiness check.
- `GET /fields?sep=crlf|lf|cr`: every field (`event`, `data`, `id`, `retry`), non-ASCII data, a
  value with its own leading space, empty data, an `id` that persists and one that resets, JSON.
- `GET /multiline?sep=…`: data with line breaks of every kind, split into `data:` lines.
- `GET /comments?sep=…`: comments on their own, beside fields, multi-line, and a bare colon.
- `GET /pinged`: three events, each after at least one keep-alive ping comment.
- `GET /resume?key=&count=N&per=P&end=clean|drop&partial=1&retry=MS`: events `1`…`N` (data
  `event <id>`), at most P per connection, continuing after the request's `Last-Event-ID`; each
  connection then ends cleanly (`end=clean`) or is cut without the final chunk (`end=drop`); a
  connection whose `Last-Event-ID` is N or more is answered 204, which tells the client to stop.
  With `partial=1`, the next event's `id:` line and half a `data:` line go out just before the
  end: that event is incomplete, so it is not dispatched and its id is not the last event id. With
  `retry`, each connection's first event carries `retry: MS`.
- `GET /prices?key=`: three JSON events (`{"name":"widget","price":41}`…), type `price`.
- `GET /ticks?key=`: an endless stream of events `tick 1`, `tick 2`… every 20 ms; its record's
  `closed` turns true once sse-starlette sees the client leave.
- `GET /retry?key=&retry=MS`: event `r-1` with `retry: MS`, end; reconnected, event `r-2`, end;
  then 204.
- `GET /headers?key=`: one event `h-1` whose data is the JSON of the request headers the peer
  got (`accept`, `cache-control`, `last-event-id`); reconnected with a `Last-Event-ID`, 204.
- `GET /nocontent?key=`: 204.
- `GET /json?key=`: `application/json`, not an event stream.
- `GET /status/<code>?key=`: that status with a plain-text body.
- `GET /seen?key=`: JSON list of the requests recorded under `key`, in order: `path`,
  `last_event_id`, `accept`, `cache_control` (null when the header was absent), and `closed`.
"""

import asyncio
import json
import os
import threading
import time

from sse_starlette.event import JSONServerSentEvent, ServerSentEvent
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

SEPARATORS = {"crlf": "\r\n", "lf": "\n", "cr": "\r"}

# Requests seen, per key; uvicorn runs one event loop, so no lock is needed.
seen: dict[str, list[dict]] = {}


def _watch_parent(parent: int) -> None:
    """Exits once the test process that started the peer is gone, so a test run that crashed
    or was killed leaves no server behind (the Swift side also stops it: SIGTERM, then
    SIGKILL)."""
    while True:
        time.sleep(0.5)
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:
            pass


# PythonSSEPeer.swift names its own pid here; a peer started by hand is not watched.
if os.environ.get("FUNCTIONAL_NETWORKING_SSE_PEER_PARENT", "").isdigit():
    threading.Thread(
        target=_watch_parent,
        args=(int(os.environ["FUNCTIONAL_NETWORKING_SSE_PEER_PARENT"]),),
        name="parent-watch",
        daemon=True,
    ).start()


def record(request: Request) -> dict:
    entry = {
        "path": request.url.path,
        "last_event_id": request.headers.get("last-event-id"),
        "accept": request.headers.get("accept"),
        "cache_control": request.headers.get("cache-control"),
        "closed": False,
    }
    key = request.query_params.get("key")
    if key is not None:
        seen.setdefault(key, []).append(entry)
    return entry


def separator(request: Request) -> str:
    return SEPARATORS[request.query_params.get("sep", "crlf")]


def last_event_number(request: Request) -> int:
    try:
        return int(request.headers.get("last-event-id", "0"))
    except ValueError:
        return 0


def stream(request: Request, events, **options) -> EventSourceResponse:
    options.setdefault("ping", 0)
    return EventSourceResponse(events, sep=separator(request), **options)


async def health(request: Request) -> Response:
    return PlainTextResponse("ok")


async def fields(request: Request) -> Response:
    record(request)
    sep = separator(request)

    async def events():
        yield ServerSentEvent(data="first", sep=sep)
        yield ServerSentEvent(data="hello", event="greeting", id="g-1", sep=sep)
        yield ServerSentEvent(data="café ☕ 🚀", event="unicode", id="g-2", sep=sep)
        yield ServerSentEvent(data=" leading space kept", event="spacing", sep=sep)
        yield ServerSentEvent(data="", event="empty", sep=sep)
        yield ServerSentEvent(data="done", event="configured", id="g-3", retry=2500, sep=sep)
        # An id without data dispatches nothing but resets the last event id.
        yield ServerSentEvent(id="", sep=sep)
        yield ServerSentEvent(data="after reset", sep=sep)
        yield JSONServerSentEvent({"price": 42, "name": "widget"}, event="json", id="g-4", sep=sep)

    return stream(request, events())


async def multiline(request: Request) -> Response:
    record(request)
    sep = separator(request)

    async def events():
        yield ServerSentEvent(data="line one\nline two\r\nline three\rline four", id="m-1", sep=sep)
        yield ServerSentEvent(data="trailing\n", id="m-2", sep=sep)
        yield ServerSentEvent(data="\n", id="m-3", sep=sep)
        yield ServerSentEvent(data=json.dumps({"a": 1, "b": [1, 2]}, indent=2), event="pretty", id="m-4", sep=sep)

    return stream(request, events())


async def comments(request: Request) -> Response:
    record(request)
    sep = separator(request)

    async def events():
        yield ServerSentEvent(comment="just a comment", sep=sep)
        yield ServerSentEvent(data="a", comment="a comment beside fields", id="c-1", sep=sep)
        yield ServerSentEvent(comment="a comment\nof two lines", sep=sep)
        # Bytes as they are: a bare colon, and a comment line inside an event.
        yield f":{sep}data: b{sep}: inside{sep}id: c-2{sep}{sep}".encode()
        yield ServerSentEvent(data="c", id="c-3", sep=sep)

    return stream(request, events())


async def pinged(request: Request) -> Response:
    record(request)
    pinged_once = asyncio.Event()

    def ping() -> ServerSentEvent:
        pinged_once.set()
        return ServerSentEvent(comment="keep-alive")

    async def events():
        for number in range(1, 4):
            # Each event waits for a ping, so pings always come between events.
            pinged_once.clear()
            await asyncio.wait_for(pinged_once.wait(), timeout=10)
            yield ServerSentEvent(data=f"event {number}", id=str(number))

    return EventSourceResponse(events(), ping=0.05, ping_message_factory=ping)


async def resume(request: Request) -> Response:
    record(request)
    count = int(request.query_params.get("count", "10"))
    per = int(request.query_params.get("per", "3"))
    end = request.query_params.get("end", "clean")
    partial = request.query_params.get("partial") == "1"
    retry = request.query_params.get("retry")
    sep = separator(request)
    after = last_event_number(request)
    if after >= count:
        return Response(status_code=204)

    async def events():
        last = min(after + per, count)
        for number in range(after + 1, last + 1):
            first = number == after + 1
            event = ServerSentEvent(
                data=f"event {number}",
                id=str(number),
                retry=int(retry) if retry is not None and first else None,
                sep=sep,
            )
            if partial and number == last < count:
                # In the same chunk as the connection's last event: the next event's id line
                # and half its data line, without the line end and the blank line.
                yield event.encode() + f"id: {last + 1}{sep}data: event {last + 1} is cut sh".encode()
            else:
                yield event
        if end == "drop":
            # uvicorn closes the connection without the final chunk.
            raise ConnectionAbortedError("the peer cuts the stream")

    return stream(request, events())


async def prices(request: Request) -> Response:
    record(request)

    async def events():
        for number in range(1, 4):
            yield JSONServerSentEvent({"name": "widget", "price": 40 + number}, event="price", id=str(number))

    return stream(request, events())


async def ticks(request: Request) -> Response:
    entry = record(request)

    async def events():
        try:
            number = 0
            while True:
                number += 1
                yield ServerSentEvent(data=f"tick {number}", id=str(number))
                await asyncio.sleep(0.02)
        finally:
            # Runs when sse-starlette sees the client go (or the server stops).
            entry["closed"] = True

    return stream(request, events())


async def retry(request: Request) -> Response:
    record(request)
    milliseconds = int(request.query_params.get("retry", "7000"))
    last = request.headers.get("last-event-id")
    if last is None:
        event = ServerSentEvent(data="before", id="r-1", retry=milliseconds)
    elif last == "r-1":
        event = ServerSentEvent(data="after", id="r-2")
    else:
        return Response(status_code=204)

    async def events():
        yield event

    return stream(request, events())


async def headers(request: Request) -> Response:
    record(request)
    if request.headers.get("last-event-id") is not None:
        return Response(status_code=204)
    got = {name: request.headers.get(name) for name in ("accept", "cache-control", "last-event-id")}

    async def events():
        yield JSONServerSentEvent(got, event="headers", id="h-1")

    return stream(request, events())


async def nocontent(request: Request) -> Response:
    record(request)
    return Response(status_code=204)


async def json_answer(request: Request) -> Response:
    record(request)
    return JSONResponse({"message": "not an event stream"})


async def status(request: Request) -> Response:
    record(request)
    return PlainTextResponse(f"status {request.path_params['code']}", status_code=request.path_params["code"])


async def seen_route(request: Request) -> Response:
    return JSONResponse(seen.get(request.query_params.get("key", ""), []))


app = Starlette(
    routes=[
        Route("/health", health),
        Route("/fields", fields),
        Route("/multiline", multiline),
        Route("/comments", comments),
        Route("/pinged", pinged),
        Route("/resume", resume),
        Route("/prices", prices),
        Route("/ticks", ticks),
        Route("/retry", retry),
        Route("/headers", headers),
        Route("/nocontent", nocontent),
        Route("/json", json_answer),
        Route("/status/{code:int}", status),
        Route("/seen", seen_route),
    ]
)
