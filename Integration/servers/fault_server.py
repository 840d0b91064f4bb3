#!/usr/bin/env python3
"""A protocol-fault test server for Courier's transport integration tests.

Every path is one protocol violation (or a control). The HTTP/1.1 listener writes raw bytes by
hand so that it can lie about framing; the TLS listener speaks HTTP/2 (ALPN "h2") through the
hyper-h2 state machine, and writes raw frames after the handshake where a fault needs bytes that
h2 would refuse to produce. A TLS client that does not negotiate h2 is served the HTTP/1.1 paths.

Usage:
    fault_server.py [--http-port P1] [--h2-port P2] [--cert server.pem --key server.key]
                    [--ready-file F] [--log-level INFO]

Ports default to 0 (a free port chosen by the kernel). Both listeners bind 127.0.0.1 only. Once
both listen, the ready file is written atomically: `KEY=VALUE` lines (shell-sourceable), or JSON
when its name ends in ".json". The server logs to stderr, exits on SIGTERM or SIGINT and removes
the ready file as it goes. See README.md beside this file for every path.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import os
import re
import resource
import signal
import socket
import ssl
import struct
import sys
import zlib
from typing import Callable
from urllib.parse import parse_qs, urlsplit

log = logging.getLogger("fault_server")

HOST = "127.0.0.1"
# Limits that keep one client from holding resources forever.
REQUEST_HEAD_LIMIT = 64 * 1024
REQUEST_BODY_LIMIT = 64 * 1024 * 1024
IDLE_TIMEOUT = 30.0  # waiting for a request on a kept-alive connection
MAX_HOLD = 300.0  # longest any fault keeps a connection (stall, endless 1xx, trickles)


# --------------------------------------------------------------------------------------------
# The gzip bomb: a gzip stream of N MiB of zeros built from one repeated deflate block, so that
# it costs a few MiB of memory however large the decoded size is.
# --------------------------------------------------------------------------------------------

MIB = 1024 * 1024


class GzipBomb:
    """Produces the gzip encoding of `mib` MiB of zero bytes as a sequence of pieces.

    After a Z_FULL_FLUSH the deflate history is empty, so compressing one more MiB of zeros
    gives the same bytes each time: the body is head + unit * (mib - 1) + tail. The trailer
    (CRC-32 and size mod 2**32) is computed for the full decoded length.
    """

    _zero_mib = bytes(MIB)
    _cache: dict[int, "GzipBomb"] = {}

    def __init__(self, mib: int) -> None:
        compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
        self.head = compressor.compress(self._zero_mib) + compressor.flush(zlib.Z_FULL_FLUSH)
        unit = compressor.compress(self._zero_mib) + compressor.flush(zlib.Z_FULL_FLUSH)
        again = compressor.compress(self._zero_mib) + compressor.flush(zlib.Z_FULL_FLUSH)
        if unit != again:  # pragma: no cover - zlib guarantees this for a full flush
            raise RuntimeError("deflate output of repeated blocks is not stable")
        self.unit = unit
        finish = compressor.flush(zlib.Z_FINISH)
        crc = 0
        for _ in range(mib):
            crc = zlib.crc32(self._zero_mib, crc)
        # Replace the trailer zlib wrote for 3 MiB with the one for `mib` MiB.
        self.tail = finish[:-8] + struct.pack("<II", crc & 0xFFFFFFFF, (mib * MIB) & 0xFFFFFFFF)
        self.mib = mib
        self.length = len(self.head) + len(self.unit) * (mib - 1) + len(self.tail)

    @classmethod
    def get(cls, mib: int) -> "GzipBomb":
        bomb = cls._cache.get(mib)
        if bomb is None:
            bomb = cls(mib)
            cls._cache[mib] = bomb
        return bomb

    def pieces(self):
        yield self.head
        for _ in range(self.mib - 1):
            yield self.unit
        yield self.tail


# --------------------------------------------------------------------------------------------
# Connection helpers
# --------------------------------------------------------------------------------------------


class ClientGone(Exception):
    """The peer closed or reset the connection."""


async def send(writer: asyncio.StreamWriter, data: bytes) -> None:
    if writer.is_closing():
        raise ClientGone()
    writer.write(data)
    try:
        await writer.drain()
    except (ConnectionError, OSError) as error:
        raise ClientGone() from error


async def close(writer: asyncio.StreamWriter) -> None:
    """Closes gracefully (FIN, or close_notify then FIN over TLS)."""
    if writer.is_closing():
        return
    writer.close()
    try:
        await asyncio.wait_for(writer.wait_closed(), 2.0)
    except (asyncio.TimeoutError, ConnectionError, OSError, ssl.SSLError):
        writer.transport.abort()


async def reset(writer: asyncio.StreamWriter) -> None:
    """Closes with an RST: SO_LINGER {on, 0} then close, after the peer had time to read."""
    await asyncio.sleep(0.05)
    send_reset(writer)


def send_reset(writer: asyncio.StreamWriter) -> None:
    """Closes with an RST at once (also used by chaos_proxy.py)."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
    writer.transport.abort()


async def wait_for_peer_close(reader: asyncio.StreamReader, limit: float = MAX_HOLD) -> None:
    """Reads and discards until the peer closes, or `limit` seconds pass. Never busy-waits."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while True:
        remaining = deadline - loop.time()
        if remaining <= 0:
            return
        try:
            data = await asyncio.wait_for(reader.read(65536), remaining)
        except (asyncio.TimeoutError, ConnectionError, OSError, ssl.SSLError):
            return
        if not data:
            return


def query_int(query: dict[str, list[str]], name: str, default: int, low: int, high: int) -> int:
    try:
        value = int(query[name][0])
    except (KeyError, ValueError, IndexError):
        return default
    return max(low, min(high, value))


# --------------------------------------------------------------------------------------------
# HTTP/1.1
# --------------------------------------------------------------------------------------------


class Request:
    def __init__(self, method: str, target: str, headers: list[tuple[str, str]]) -> None:
        self.method = method
        self.target = target
        parts = urlsplit(target)
        self.path = parts.path or "/"
        self.query = parse_qs(parts.query)
        self.headers = headers
        self.body_length = 0

    def header(self, name: str) -> str | None:
        name = name.lower()
        for key, value in self.headers:
            if key.lower() == name:
                return value
        return None


class BadRequest(Exception):
    pass


async def read_request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> Request | None:
    """Reads one request head and discards its body. None when the client closed or idled."""
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), IDLE_TIMEOUT)
    except asyncio.IncompleteReadError:
        return None
    except asyncio.LimitOverrunError as error:
        raise BadRequest("request head too large") from error
    except (asyncio.TimeoutError, ConnectionError, OSError, ssl.SSLError):
        return None
    lines = head[:-4].decode("latin-1").split("\r\n")
    request_line = lines[0].split(" ")
    if len(request_line) != 3 or not request_line[2].startswith("HTTP/1."):
        raise BadRequest("bad request line")
    headers = []
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon:
            raise BadRequest("bad header line")
        headers.append((name.strip(), value.strip()))
    request = Request(request_line[0], request_line[1], headers)
    if (request.header("expect") or "").lower() == "100-continue":
        await send(writer, b"HTTP/1.1 100 Continue\r\n\r\n")
    request.body_length = await discard_body(reader, request)
    return request


async def discard_body(reader: asyncio.StreamReader, request: Request) -> int:
    """Reads the request body to its end, keeping none of it; returns its length."""
    try:
        if (request.header("transfer-encoding") or "").lower() == "chunked":
            total = 0
            while True:
                size_line = await asyncio.wait_for(reader.readuntil(b"\r\n"), IDLE_TIMEOUT)
                size = int(size_line.split(b";")[0].strip(), 16)
                total += size
                if total > REQUEST_BODY_LIMIT:
                    raise BadRequest("request body too large")
                if size == 0:
                    while (await asyncio.wait_for(reader.readuntil(b"\r\n"), IDLE_TIMEOUT)) != b"\r\n":
                        pass
                    return total
                await asyncio.wait_for(reader.readexactly(size + 2), IDLE_TIMEOUT)
        length = int(request.header("content-length") or "0")
        if length < 0 or length > REQUEST_BODY_LIMIT:
            raise BadRequest("bad request content-length")
        declared = length
        while length > 0:
            chunk = await asyncio.wait_for(reader.read(min(length, 65536)), IDLE_TIMEOUT)
            if not chunk:
                raise ClientGone()
            length -= len(chunk)
        return declared
    except (ValueError, asyncio.LimitOverrunError) as error:
        raise BadRequest("bad request body framing") from error
    except (asyncio.IncompleteReadError, asyncio.TimeoutError, ConnectionError, OSError) as error:
        raise ClientGone() from error


def response_head(status_line: str, headers: list[tuple[str, str]]) -> bytes:
    lines = [status_line] + [f"{name}: {value}" for name, value in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def ok_head(length: int, extra: list[tuple[str, str]] | None = None) -> bytes:
    return response_head(
        "HTTP/1.1 200 OK",
        [("Content-Type", "text/plain"), ("Content-Length", str(length))] + (extra or []),
    )


# Each handler returns True to keep serving requests on the connection, False when it has
# closed (or reset) it.
H1Handler = Callable[[Request, asyncio.StreamReader, asyncio.StreamWriter], "asyncio.Future[bool]"]
H1_ROUTES: dict[str, tuple[H1Handler, str]] = {}


def h1(path: str, summary: str):
    def register(function):
        H1_ROUTES[path] = (function, summary)
        return function

    return register


OK_BODY = b"ok\n"


@h1("/ok", "correct 200 with a 3-byte body, keep-alive")
async def h1_ok(request, reader, writer):
    await send(writer, ok_head(len(OK_BODY)) + OK_BODY)
    return True


FLAKY_COUNTS: dict[str, int] = {}


@h1("/flaky", "?id=K&failures=N[&retry_after=S]: 503 (with Retry-After when given) for the first N "
              "requests of id K, then 200 with the attempt number; keep-alive")
async def h1_flaky(request, reader, writer):
    key = (request.query.get("id") or [""])[0][:64]
    failures = query_int(request.query, "failures", 1, 0, 100)
    attempt = FLAKY_COUNTS.get(key, 0) + 1
    FLAKY_COUNTS[key] = attempt
    if attempt <= failures:
        headers = [("Content-Type", "text/plain"), ("Content-Length", "12")]
        if "retry_after" in request.query:
            headers.append(("Retry-After", str(query_int(request.query, "retry_after", 0, 0, 3600))))
        await send(writer, response_head("HTTP/1.1 503 Service Unavailable", headers) + b"unavailable\n")
        return True
    body = f"attempt {attempt}\n".encode()
    await send(writer, ok_head(len(body)) + body)
    return True


SSE_LOG: dict[str, list[str]] = {}


@h1("/sse", "?id=K&events=N&per_connection=M[&retry=MS][&status=S]: Server-Sent Events 1..N, M per "
            "connection, then the connection drops; resumes after the request's Last-Event-ID. Each "
            "connection's Last-Event-ID is kept for /sse-log?id=K. After the last event: 204 (stop)")
async def h1_sse(request, reader, writer):
    key = (request.query.get("id") or [""])[0][:64]
    total = query_int(request.query, "events", 5, 0, 10000)
    per_connection = query_int(request.query, "per_connection", total, 1, 10000)
    status = query_int(request.query, "status", 200, 100, 599)
    last = request.header("Last-Event-ID") or ""
    SSE_LOG.setdefault(key, []).append(last)
    start = int(last) + 1 if last.isdigit() else 1
    if status != 200:
        body = b"no stream\n"
        await send(writer, response_head(f"HTTP/1.1 {status} Status", [("Content-Type", "text/plain"),
                                                                     ("Content-Length", str(len(body)))]) + body)
        return True
    if start > total:
        await send(writer, response_head("HTTP/1.1 204 No Content", [("Content-Length", "0")]))
        return True
    await send(writer, response_head("HTTP/1.1 200 OK", [("Content-Type", "text/event-stream"),
                                                         ("Cache-Control", "no-cache"),
                                                         ("Connection", "close")]))
    chunks = [b": a comment the client ignores\r\n"]
    if "retry" in request.query:
        chunks.append(f"retry: {query_int(request.query, 'retry', 100, 0, 60000)}\n".encode())
    for number in range(start, min(total, start + per_connection - 1) + 1):
        # Mixed line endings and a two-line data field, as the WHATWG parsing rules allow.
        chunks.append(f"id: {number}\r\nevent: tick\ndata: event {number}\rdata: line two\n\n".encode())
    for chunk in chunks:
        await send(writer, chunk)
        await asyncio.sleep(0.005)
    await close(writer)
    return False


@h1("/sse-log", "?id=K: the Last-Event-ID of each /sse connection of id K, one per line ('-' for none)")
async def h1_sse_log(request, reader, writer):
    key = (request.query.get("id") or [""])[0][:64]
    body = "".join((value or "-") + "\n" for value in SSE_LOG.get(key, [])).encode()
    await send(writer, ok_head(len(body)) + body)
    return True


DIGEST_REALM = "courier-faults"
DIGEST_USER = "user"
DIGEST_PASSWORD = "passwd"


def digest_answer_is_valid(request: Request) -> bool:
    """Checks an `Authorization: Digest` answer (RFC 7616 §3.4.1, MD5, qop=auth) for user/passwd."""
    value = request.header("authorization") or ""
    if not value.lower().startswith("digest "):
        return False
    fields = {key.lower(): quoted if quoted else bare
              for key, quoted, bare in re.findall(r'(\w+)=(?:"([^"]*)"|([^,\s]*))', value[7:])}
    needed = ("username", "realm", "nonce", "uri", "response", "qop", "nc", "cnonce")
    if any(name not in fields for name in needed) or fields["username"] != DIGEST_USER:
        return False
    md5 = lambda text: hashlib.md5(text.encode()).hexdigest()
    ha1 = md5(f"{DIGEST_USER}:{fields['realm']}:{DIGEST_PASSWORD}")
    ha2 = md5(f"{request.method}:{fields['uri']}")
    expected = md5(f"{ha1}:{fields['nonce']}:{fields['nc']}:{fields['cnonce']}:{fields['qop']}:{ha2}")
    return fields["response"] == expected


@h1("/digest", "HTTP Digest (MD5, qop=auth) as user/passwd, any method: a 401 challenge, then 200 "
               "with the request body's byte count; keep-alive")
async def h1_digest(request, reader, writer):
    if digest_answer_is_valid(request):
        body = f"{request.method} {request.body_length}\n".encode()
        await send(writer, ok_head(len(body)) + body)
        return True
    page = b"authentication required\n"
    challenge = f'Digest realm="{DIGEST_REALM}", qop="auth", nonce="{os.urandom(16).hex()}", algorithm=MD5'
    head = response_head(
        "HTTP/1.1 401 Unauthorized",
        [("WWW-Authenticate", challenge), ("Content-Type", "text/plain"), ("Content-Length", str(len(page)))],
    )
    await send(writer, head + page)
    return True


@h1("/dup-content-length", "Content-Length: 10 and Content-Length: 5, 10 body bytes, close")
async def h1_dup_content_length(request, reader, writer):
    head = response_head(
        "HTTP/1.1 200 OK",
        [("Content-Type", "text/plain"), ("Content-Length", "10"), ("Content-Length", "5")],
    )
    await send(writer, head + b"0123456789")
    await close(writer)
    return False


@h1("/cl-and-te", "Content-Length: 3 with Transfer-Encoding: chunked (10-byte chunked body), close")
async def h1_cl_and_te(request, reader, writer):
    head = response_head(
        "HTTP/1.1 200 OK",
        [("Content-Type", "text/plain"), ("Content-Length", "3"), ("Transfer-Encoding", "chunked")],
    )
    await send(writer, head + b"a\r\n0123456789\r\n0\r\n\r\n")
    await close(writer)
    return False


@h1("/body-longer", "Content-Length: 10, 20 bytes sent, connection kept open for more requests")
async def h1_body_longer(request, reader, writer):
    await send(writer, ok_head(10) + b"0123456789ABCDEFGHIJ")
    return True


@h1("/redirect-body-longer", "302 to /ok with Content-Length: 10, 20 body bytes sent, kept open")
async def h1_redirect_body_longer(request, reader, writer):
    head = response_head("HTTP/1.1 302 Found", [("Location", "/ok"), ("Content-Length", "10")])
    await send(writer, head + b"0123456789ABCDEFGHIJ")
    return True


@h1("/body-longer-close", "Content-Length: 10, 20 bytes sent, then close")
async def h1_body_longer_close(request, reader, writer):
    await send(writer, ok_head(10) + b"0123456789ABCDEFGHIJ")
    await close(writer)
    return False


@h1("/body-shorter", "Content-Length: 100, 10 bytes sent, then close")
async def h1_body_shorter(request, reader, writer):
    await send(writer, ok_head(100) + b"0123456789")
    await close(writer)
    return False


@h1("/close-delimited", "200 with neither Content-Length nor chunked framing, 10 bytes, then close")
async def h1_close_delimited(request, reader, writer):
    await send(writer, response_head("HTTP/1.1 200 OK", [("Content-Type", "text/plain")]) + b"0123456789")
    await close(writer)
    return False


@h1("/endless-1xx", "100 Continue / 102 Processing every interval_ms (default 5) forever")
async def h1_endless_1xx(request, reader, writer):
    interval = query_int(request.query, "interval_ms", 5, 0, 10_000) / 1000.0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MAX_HOLD
    count = 0
    while loop.time() < deadline:
        if count % 2 == 0:
            interim = b"HTTP/1.1 100 Continue\r\n\r\n"
        else:
            interim = b"HTTP/1.1 102 Processing\r\n\r\n"
        await send(writer, interim)  # raises ClientGone once the client has gone
        count += 1
        await asyncio.sleep(interval)
    await close(writer)
    return False


def huge_header_response(many: bool) -> bytes:
    if many:
        headers = [(f"X-Filler-{i:05d}", "f" * 100) for i in range(3000)]  # ~350 KiB
    else:
        headers = [("X-Huge", "h" * (300 * 1024))]
    return response_head(
        "HTTP/1.1 200 OK",
        [("Content-Type", "text/plain"), ("Content-Length", str(len(OK_BODY)))] + headers,
    ) + OK_BODY


@h1("/huge-header", "one 300 KiB header line, then a correct body, close")
async def h1_huge_header(request, reader, writer):
    await send(writer, huge_header_response(many=False))
    await close(writer)
    return False


@h1("/many-headers", "3000 headers of ~115 bytes (~350 KiB head), then a correct body, close")
async def h1_many_headers(request, reader, writer):
    await send(writer, huge_header_response(many=True))
    await close(writer)
    return False


@h1("/gzip-bomb", "Content-Encoding: gzip, ~1 MiB that decodes to size_mib (default 1024) MiB of zeros")
async def h1_gzip_bomb(request, reader, writer):
    mib = query_int(request.query, "size_mib", 1024, 2, 16 * 1024)
    bomb = await asyncio.get_running_loop().run_in_executor(None, GzipBomb.get, mib)
    head = ok_head(bomb.length, [("Content-Encoding", "gzip")])
    head = head.replace(b"text/plain", b"application/octet-stream")
    await send(writer, head)
    for piece in bomb.pieces():
        await send(writer, piece)
    await close(writer)
    return False


@h1("/reset-mid-body", "Content-Length: 1000, 100 bytes, then RST (SO_LINGER 0)")
async def h1_reset_mid_body(request, reader, writer):
    await send(writer, ok_head(1000) + b"x" * 100)
    await reset(writer)
    return False


@h1("/truncated-chunked", "chunked body that stops inside a chunk, then close")
async def h1_truncated_chunked(request, reader, writer):
    head = response_head(
        "HTTP/1.1 200 OK", [("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")]
    )
    await send(writer, head + b"a\r\n0123456789\r\n14\r\n01234")
    await close(writer)
    return False


@h1("/bad-chunk-size", "chunked body whose second chunk size is 'zz', then close")
async def h1_bad_chunk_size(request, reader, writer):
    head = response_head(
        "HTTP/1.1 200 OK", [("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")]
    )
    await send(writer, head + b"a\r\n0123456789\r\nzz\r\n0123456789\r\n0\r\n\r\n")
    await close(writer)
    return False


@h1("/malformed-status", "status line 'HTTP/1.1 2x0 Bogus' (non-numeric code), then close")
async def h1_malformed_status(request, reader, writer):
    await send(writer, b"HTTP/1.1 2x0 Bogus\r\nContent-Length: 3\r\n\r\nok\n")
    await close(writer)
    return False


@h1("/malformed-status-garbage", "binary garbage instead of a status line, then close")
async def h1_malformed_status_garbage(request, reader, writer):
    await send(writer, b"\x16\x03\x01garbage \xff\xfe not http\r\n\r\nok\n")
    await close(writer)
    return False


@h1("/slow-headers", "a correct response head trickled one byte per interval_ms (default 500)")
async def h1_slow_headers(request, reader, writer):
    interval = query_int(request.query, "interval_ms", 500, 10, 60_000) / 1000.0
    response = ok_head(len(OK_BODY)) + OK_BODY
    head_length = len(response) - len(OK_BODY)
    for index in range(head_length):
        await send(writer, response[index : index + 1])
        await asyncio.sleep(interval)
    await send(writer, OK_BODY)
    await close(writer)
    return False


@h1("/slow-body", "head at once (Content-Length: 20), body one byte per interval_ms (default 500)")
async def h1_slow_body(request, reader, writer):
    interval = query_int(request.query, "interval_ms", 500, 10, 60_000) / 1000.0
    body = b"0123456789ABCDEFGHIJ"
    await send(writer, ok_head(len(body)))
    for index in range(len(body)):
        await asyncio.sleep(interval)
        await send(writer, body[index : index + 1])
    await close(writer)
    return False


@h1("/stall", "reads the request and never answers; holds until the client closes")
async def h1_stall(request, reader, writer):
    await wait_for_peer_close(reader)
    await close(writer)
    return False


@h1("/redirect-loop", "302 Location: /redirect-loop, keep-alive")
async def h1_redirect_loop(request, reader, writer):
    head = response_head(
        "HTTP/1.1 302 Found", [("Location", "/redirect-loop"), ("Content-Length", "0")]
    )
    await send(writer, head)
    return True


@h1("/consent-gate", "302 to itself with Set-Cookie: consent=yes; 200 once the cookie comes back")
async def h1_consent_gate(request, reader, writer):
    cookies = request.header("Cookie") or ""
    if "consent=yes" in [part.strip() for part in cookies.split(";")]:
        body = b"welcome\n"
        head = response_head(
            "HTTP/1.1 200 OK",
            [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))],
        )
        await send(writer, head + body)
        return True
    head = response_head(
        "HTTP/1.1 302 Found",
        [
            ("Location", "/consent-gate"),
            ("Set-Cookie", "consent=yes; Path=/"),
            ("Content-Length", "0"),
        ],
    )
    await send(writer, head)
    return True


@h1("/redirect-to", "302 (or ?status=301|303|307|308) to ?url=..., keep-alive")
async def h1_redirect_to(request, reader, writer):
    target = (request.query.get("url") or ["/ok"])[0]
    status = query_int(request.query, "status", 302, 300, 399)
    if any(ch in target for ch in "\r\n"):
        target = "/ok"
    reasons = {301: "Moved Permanently", 302: "Found", 303: "See Other", 307: "Temporary Redirect",
               308: "Permanent Redirect"}
    head = response_head(
        f"HTTP/1.1 {status} {reasons.get(status, 'Redirect')}",
        [("Location", target), ("Content-Length", "0")],
    )
    await send(writer, head)
    return True


async def h1_not_found(request, reader, writer):
    body = b"unknown fault path\n"
    head = response_head(
        "HTTP/1.1 404 Not Found",
        [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))],
    )
    await send(writer, head + body)
    return True


async def serve_h1(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, peer: str) -> None:
    while True:
        try:
            request = await read_request(reader, writer)
        except BadRequest as error:
            log.info("%s bad request: %s", peer, error)
            body = b"bad request\n"
            head = response_head("HTTP/1.1 400 Bad Request", [("Content-Length", str(len(body))),
                                                             ("Connection", "close")])
            try:
                await send(writer, head + body)
            except ClientGone:
                pass
            return
        if request is None:
            return
        handler, _ = H1_ROUTES.get(request.path, (h1_not_found, ""))
        log.info("%s http/1.1 %s %s", peer, request.method, request.target)
        keep_going = await handler(request, reader, writer)
        if not keep_going:
            return


# --------------------------------------------------------------------------------------------
# HTTP/2 over TLS
# --------------------------------------------------------------------------------------------


def frame(frame_type: int, flags: int, stream_id: int, payload: bytes) -> bytes:
    """One raw HTTP/2 frame (RFC 9113 §4.1)."""
    length = len(payload)
    return struct.pack(">BHBBL", (length >> 16) & 0xFF, length & 0xFFFF, frame_type, flags,
                       stream_id & 0x7FFFFFFF) + payload


FRAME_DATA, FRAME_HEADERS = 0x0, 0x1
FLAG_END_STREAM, FLAG_END_HEADERS = 0x1, 0x4

H2_ROUTES: dict[str, tuple[Callable, str]] = {}


def h2route(path: str, summary: str):
    def register(function):
        H2_ROUTES[path] = (function, summary)
        return function

    return register


class H2Session:
    """One HTTP/2 connection: h2 drives the protocol; per-stream tasks play the faults."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, peer: str) -> None:
        import h2.config
        import h2.connection

        self.reader = reader
        self.writer = writer
        self.peer = peer
        config = h2.config.H2Configuration(
            client_side=False,
            header_encoding="utf-8",
            # Faults send headers h2 would refuse (duplicate content-length); requests are still
            # validated on the way in.
            validate_outbound_headers=False,
            normalize_outbound_headers=False,
        )
        self.conn = h2.connection.H2Connection(config=config)
        self.tasks: dict[int, asyncio.Task] = {}
        # Set when the client ends its request stream: faults play only after the whole request
        # (and its body) has arrived, as on HTTP/1.1.
        self.request_ended: dict[int, asyncio.Event] = {}
        self.window_open = asyncio.Event()
        # Set once raw bytes or a GOAWAY left h2's state machine behind the wire: from then on
        # the session only discards what the client sends until it closes.
        self.broken = False
        self.closing = False

    def flush(self) -> None:
        data = self.conn.data_to_send()
        if data and not self.writer.is_closing():
            self.writer.write(data)

    async def drain(self) -> None:
        self.flush()
        try:
            await self.writer.drain()
        except (ConnectionError, OSError) as error:
            raise ClientGone() from error

    async def write_raw(self, data: bytes) -> None:
        self.flush()
        self.broken = True
        await send(self.writer, data)

    async def send_body(self, stream_id: int, data: bytes, end_stream: bool) -> None:
        """Sends DATA within flow-control windows and the peer's max frame size."""
        view = memoryview(data)
        while True:
            window = min(self.conn.local_flow_control_window(stream_id),
                         self.conn.max_outbound_frame_size)
            if window <= 0 and len(view) > 0:
                self.window_open.clear()
                await self.window_open.wait()
                continue
            piece, view = view[:window], view[window:]
            last = end_stream and len(view) == 0
            self.conn.send_data(stream_id, bytes(piece), end_stream=last)
            await self.drain()
            if len(view) == 0:
                return

    async def run(self) -> None:
        import h2.events
        import h2.exceptions

        self.conn.initiate_connection()
        await self.drain()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + MAX_HOLD
        try:
            while not self.closing:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    break
                try:
                    data = await asyncio.wait_for(self.reader.read(65536), remaining)
                except (asyncio.TimeoutError, ConnectionError, OSError, ssl.SSLError):
                    break
                if not data:
                    break
                if self.broken:
                    continue
                try:
                    events = self.conn.receive_data(data)
                except h2.exceptions.ProtocolError as error:
                    log.info("%s h2 protocol error from client: %s", self.peer, error)
                    self.flush()
                    break
                for event in events:
                    if isinstance(event, h2.events.RequestReceived):
                        self.start_stream(event.stream_id, event.headers)
                    elif isinstance(event, h2.events.StreamEnded):
                        ended = self.request_ended.get(event.stream_id)
                        if ended is not None:
                            ended.set()
                    elif isinstance(event, h2.events.StreamReset):
                        task = self.tasks.pop(event.stream_id, None)
                        if task is not None:
                            task.cancel()
                    elif isinstance(event, h2.events.DataReceived):
                        # Request bodies are discarded, but their bytes must be credited back or
                        # an upload larger than the window would stall.
                        if event.flow_controlled_length:
                            try:
                                self.conn.acknowledge_received_data(
                                    event.flow_controlled_length, event.stream_id)
                            except h2.exceptions.ProtocolError:
                                pass
                    elif isinstance(event, (h2.events.WindowUpdated, h2.events.RemoteSettingsChanged)):
                        self.window_open.set()
                    elif isinstance(event, h2.events.ConnectionTerminated):
                        self.closing = True
                self.flush()
        finally:
            for task in list(self.tasks.values()):
                task.cancel()
            await close(self.writer)

    def start_stream(self, stream_id: int, headers) -> None:
        fields = dict((name, value) for name, value in headers if name.startswith(":"))
        target = fields.get(":path", "/")
        parts = urlsplit(target)
        path = parts.path or "/"
        log.info("%s h2 stream %d %s %s", self.peer, stream_id, fields.get(":method"), target)
        handler, _ = H2_ROUTES.get(path, (h2_not_found, ""))
        self.request_ended[stream_id] = asyncio.Event()
        task = asyncio.create_task(self.play(handler, stream_id, parse_qs(parts.query)))
        self.tasks[stream_id] = task

    async def play(self, handler, stream_id: int, query) -> None:
        import h2.exceptions

        try:
            await asyncio.wait_for(self.request_ended[stream_id].wait(), IDLE_TIMEOUT)
            await handler(self, stream_id, query)
        except (ClientGone, asyncio.CancelledError, asyncio.TimeoutError):
            pass
        except h2.exceptions.StreamClosedError:
            pass
        except Exception:  # one stream's failure must not take down the others
            log.exception("%s h2 stream %d failed", self.peer, stream_id)
        finally:
            self.tasks.pop(stream_id, None)
            self.request_ended.pop(stream_id, None)


def h2_head(status: int, length: int | None, extra: list[tuple[str, str]] | None = None):
    headers = [(":status", str(status)), ("content-type", "text/plain")]
    if length is not None:
        headers.append(("content-length", str(length)))
    return headers + (extra or [])


@h2route("/ok", "correct 200 with a 3-byte body")
async def h2_ok(session: H2Session, stream_id: int, query) -> None:
    session.conn.send_headers(stream_id, h2_head(200, len(OK_BODY)))
    await session.send_body(stream_id, OK_BODY, end_stream=True)


@h2route("/rst-stream", "HEADERS (content-length 100), 10 bytes of DATA, then RST_STREAM INTERNAL_ERROR")
async def h2_rst_stream(session: H2Session, stream_id: int, query) -> None:
    session.conn.send_headers(stream_id, h2_head(200, 100))
    await session.send_body(stream_id, b"0123456789", end_stream=False)
    await asyncio.sleep(0.05)
    session.conn.reset_stream(stream_id, error_code=2)  # INTERNAL_ERROR
    await session.drain()


async def h2_goaway_common(session: H2Session, stream_id: int, close_after: bool) -> None:
    session.conn.send_headers(stream_id, h2_head(200, 100))
    await session.send_body(stream_id, b"0123456789", end_stream=False)
    await asyncio.sleep(0.05)
    session.conn.close_connection(error_code=2, last_stream_id=stream_id)  # INTERNAL_ERROR
    session.broken = True
    await session.drain()
    if close_after:
        await asyncio.sleep(0.1)
        session.closing = True
        await close(session.writer)


@h2route("/goaway", "HEADERS, 10 of 100 bytes, GOAWAY INTERNAL_ERROR; the TCP connection stays open")
async def h2_goaway(session: H2Session, stream_id: int, query) -> None:
    await h2_goaway_common(session, stream_id, close_after=False)


@h2route("/goaway-close", "as /goaway, then the server closes the connection 100 ms later")
async def h2_goaway_close(session: H2Session, stream_id: int, query) -> None:
    await h2_goaway_common(session, stream_id, close_after=True)


@h2route("/goaway-before-head", "GOAWAY INTERNAL_ERROR before any HEADERS, naming the request's stream as "
         "the last processed (?unprocessed=1: naming none); the TCP connection stays open")
async def h2_goaway_before_head(session: H2Session, stream_id: int, query) -> None:
    last = 0 if query_int(query, "unprocessed", 0, 0, 1) else stream_id
    session.conn.close_connection(error_code=2, last_stream_id=last)  # INTERNAL_ERROR
    session.broken = True
    await session.drain()


@h2route("/malformed-frame", "raw DATA frame on stream 0 (RFC 9113 §6.1: connection PROTOCOL_ERROR)")
async def h2_malformed_frame(session: H2Session, stream_id: int, query) -> None:
    session.conn.send_headers(stream_id, h2_head(200, 10))
    await session.drain()
    await session.write_raw(frame(FRAME_DATA, 0, 0, b"0123456789"))


@h2route("/bad-hpack", "raw HEADERS frame whose HPACK block uses index 0 (COMPRESSION_ERROR)")
async def h2_bad_hpack(session: H2Session, stream_id: int, query) -> None:
    # 0x88 is ":status: 200" (static index 8); 0x80 is an indexed field with index 0, which
    # RFC 7541 §6.1 makes a decoding error.
    await session.write_raw(frame(FRAME_HEADERS, FLAG_END_HEADERS, stream_id, b"\x88\x80"))


@h2route("/oversized-frame", "raw DATA frame of 20000 bytes, above the default 16384 max frame size")
async def h2_oversized_frame(session: H2Session, stream_id: int, query) -> None:
    session.conn.send_headers(stream_id, h2_head(200, 20000))
    await session.drain()
    await session.write_raw(frame(FRAME_DATA, FLAG_END_STREAM, stream_id, b"z" * 20000))


@h2route("/dup-content-length", "content-length: 10 and content-length: 5, 10 bytes of DATA")
async def h2_dup_content_length(session: H2Session, stream_id: int, query) -> None:
    headers = h2_head(200, 10, [("content-length", "5")])
    session.conn.send_headers(stream_id, headers)
    await session.send_body(stream_id, b"0123456789", end_stream=True)


@h2route("/body-longer", "content-length: 10, 20 bytes of DATA with END_STREAM")
async def h2_body_longer(session: H2Session, stream_id: int, query) -> None:
    session.conn.send_headers(stream_id, h2_head(200, 10))
    await session.send_body(stream_id, b"0123456789ABCDEFGHIJ", end_stream=True)


@h2route("/body-shorter", "content-length: 100, 10 bytes of DATA with END_STREAM")
async def h2_body_shorter(session: H2Session, stream_id: int, query) -> None:
    session.conn.send_headers(stream_id, h2_head(200, 100))
    await session.send_body(stream_id, b"0123456789", end_stream=True)


async def h2_not_found(session: H2Session, stream_id: int, query) -> None:
    body = b"unknown fault path\n"
    session.conn.send_headers(stream_id, h2_head(404, len(body)))
    await session.send_body(stream_id, body, end_stream=True)


# --------------------------------------------------------------------------------------------
# Server
# --------------------------------------------------------------------------------------------


class FaultServer:
    def __init__(self) -> None:
        self.connections: set[asyncio.Task] = set()

    async def on_plain(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self.guard(reader, writer, tls=False)

    async def on_tls(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self.guard(reader, writer, tls=True)

    async def guard(self, reader, writer, tls: bool) -> None:
        task = asyncio.current_task()
        self.connections.add(task)
        address = writer.get_extra_info("peername") or ("?", 0)
        peer = f"{'tls' if tls else 'tcp'}:{address[0]}:{address[1]}"
        try:
            protocol = None
            if tls:
                ssl_object = writer.get_extra_info("ssl_object")
                protocol = ssl_object.selected_alpn_protocol() if ssl_object else None
            if protocol == "h2":
                await H2Session(reader, writer, peer).run()
            else:
                await serve_h1(reader, writer, peer)
        except (ClientGone, ConnectionError, asyncio.IncompleteReadError, ssl.SSLError):
            log.debug("%s client went away", peer)
        except asyncio.CancelledError:
            writer.transport.abort()
            raise
        except Exception:  # a bug in one fault must not take down the listener
            log.exception("%s connection failed", peer)
        finally:
            if not writer.is_closing():
                writer.transport.abort()
            self.connections.discard(task)


def tls_context(cert: str, key: str) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["h2", "http/1.1"])
    # RFC 9113 §9.2.2: no renegotiation, no compression for h2.
    context.options |= ssl.OP_NO_COMPRESSION | getattr(ssl, "OP_NO_RENEGOTIATION", 0)
    return context


def write_ready_file(path: str, values: dict[str, object]) -> None:
    if path.endswith(".json"):
        text = json.dumps({key.lower(): value for key, value in values.items()}, indent=2) + "\n"
    else:
        text = "".join(f"{key}={value}\n" for key, value in values.items())
    temporary = f"{path}.tmp{os.getpid()}"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(temporary, path)


def raise_file_limit() -> None:
    """Many concurrent fault connections need more than the usual 1024 descriptors."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):
        pass


async def main(arguments: argparse.Namespace) -> int:
    raise_file_limit()
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signal_number, stop.set)

    fault_server = FaultServer()
    servers = []
    plain = await asyncio.start_server(
        fault_server.on_plain, HOST, arguments.http_port, limit=REQUEST_HEAD_LIMIT, backlog=1024,
        reuse_address=True,
    )
    servers.append(plain)
    http_port = plain.sockets[0].getsockname()[1]
    values: dict[str, object] = {
        "FAULT_SERVER_PID": os.getpid(),
        "FAULT_HTTP_PORT": http_port,
        "FAULT_HTTP_URL": f"http://{HOST}:{http_port}",
    }
    log.info("HTTP/1.1 listening on %s:%d", HOST, http_port)

    if arguments.cert:
        import h2  # noqa: F401  - fail at start, not on the first h2 connection

        secure = await asyncio.start_server(
            fault_server.on_tls, HOST, arguments.h2_port, ssl=tls_context(arguments.cert, arguments.key),
            limit=REQUEST_HEAD_LIMIT, backlog=1024, reuse_address=True, ssl_handshake_timeout=10,
        )
        servers.append(secure)
        h2_port = secure.sockets[0].getsockname()[1]
        values.update({"FAULT_H2_PORT": h2_port, "FAULT_H2_URL": f"https://{HOST}:{h2_port}"})
        log.info("HTTP/2 (TLS, ALPN h2) listening on %s:%d", HOST, h2_port)
    else:
        log.info("no --cert given: the HTTP/2 listener is off")

    # Build the default gzip bomb now (about 0.3 s), so the first /gzip-bomb answers at once.
    await loop.run_in_executor(None, GzipBomb.get, 1024)

    if arguments.ready_file:
        write_ready_file(arguments.ready_file, values)
        log.info("ready file %s written", arguments.ready_file)

    try:
        await stop.wait()
    finally:
        log.info("stopping")
        if arguments.ready_file:
            try:
                os.unlink(arguments.ready_file)
            except OSError:
                pass
        for server in servers:
            server.close()
        for task in list(fault_server.connections):
            task.cancel()
        if fault_server.connections:
            await asyncio.wait(list(fault_server.connections), timeout=2)
    return 0


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Protocol-fault HTTP/1.1 and HTTP/2 test server")
    parser.add_argument("--http-port", type=int, default=0, help="plain HTTP/1.1 port (0: pick a free one)")
    parser.add_argument("--h2-port", type=int, default=0, help="TLS HTTP/2 port (0: pick a free one)")
    parser.add_argument("--cert", help="PEM certificate chain for the TLS listener")
    parser.add_argument("--key", help="PEM private key for the TLS listener")
    parser.add_argument("--ready-file", help="written once listening: KEY=VALUE lines, or JSON for *.json")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    parser.add_argument("--list", action="store_true", help="print every fault path and exit")
    arguments = parser.parse_args(argv)
    if bool(arguments.cert) != bool(arguments.key):
        parser.error("--cert and --key go together")
    return arguments


def print_routes() -> None:
    print("HTTP/1.1 (plain TCP, and TLS without h2):")
    for path, (_, summary) in H1_ROUTES.items():
        print(f"  {path:28} {summary}")
    print("HTTP/2 (TLS, ALPN h2):")
    for path, (_, summary) in H2_ROUTES.items():
        print(f"  {path:28} {summary}")


if __name__ == "__main__":
    options = parse_arguments(sys.argv[1:])
    if options.list:
        print_routes()
        sys.exit(0)
    logging.basicConfig(
        stream=sys.stderr, level=getattr(logging, options.log_level),
        format="%(asctime)s fault_server %(levelname)s %(message)s",
    )
    sys.exit(asyncio.run(main(options)))
