"""A well-behaved WebSocket server (RFC 6455, RFC 7692 permessage-deflate) for the integration tests.

It runs on the `websockets` package, over plain TCP (ws) and, with --cert/--key, over TLS (wss).
Every path is described in Integration/servers/README.md; `--list` prints them.
"""

import argparse
import asyncio
import http
import json
import logging
import os
import signal
import ssl
import tempfile
import time
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.frames import Close, ProtocolError
from websockets.http11 import Request, Response

LOG = logging.getLogger("ws-server")

# Large enough for the tests' big echoes; the server's default (1 MiB) would close them with 1009.
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
# /flood and /big are capped so that a typo cannot exhaust the machine.
MAX_FLOOD_MESSAGES = 1_000_000
MAX_BIG_BYTES = 256 * 1024 * 1024
# /slow-close holds a connection at most this long after the client stops sending.
SLOW_CLOSE_SECONDS = 300
SUBPROTOCOL = "chat.v2"

PATHS = {
    "/echo": "echoes every text and binary message; permessage-deflate accepted with the client's parameters",
    "/echo-no-compression": "as /echo, but declines permessage-deflate",
    "/subprotocol": f"selects {SUBPROTOCOL} if offered, sends the selection (or an empty string) first, then echoes",
    "/close/<code>": "sends a close with <code> and reason 'closing with <code>', then waits for the reply",
    "/ping": "pings the client (payload 'courier-ping'), then sends the pong as JSON; then echoes",
    "/headers": "sends the handshake request's headers and cookies back as one JSON text message, then echoes",
    "/auth": "401 unless 'Authorization: Bearer good'; then echoes",
    "/redirect": "302 to /echo (Location: /echo, keeping the query)",
    "/refuse": "403 with a text body",
    "/flood?n=N[&size=B]": "sends N text messages of B bytes (default 16) as fast as backpressure allows, closes 1000",
    "/slow-close": "sends 'slow-close', then reads and drops everything: the client's close is never answered",
    "/big?size=N": "sends one binary message of N bytes (byte i is i % 256), then echoes",
}


def select_subprotocol(connection: ServerConnection, offered: list[str]) -> str | None:
    """Only /subprotocol selects one; everywhere else an offer is declined (no header in the answer)."""
    if urlsplit(connection.request.path).path == "/subprotocol" and SUBPROTOCOL in offered:
        return SUBPROTOCOL
    return None


def text_response(connection: ServerConnection, status: http.HTTPStatus, body: str, **headers: str) -> Response:
    response = connection.respond(status, body)
    for name, value in headers.items():
        response.headers[name.replace("_", "-")] = value
    return response


def process_request(connection: ServerConnection, request: Request) -> Response | None:
    url = urlsplit(request.path)
    path = url.path
    LOG.info("%s %s", connection.remote_address, request.path)
    if path == "/echo-no-compression":
        # Negotiation happens after this hook; with nothing available, the offer is declined.
        connection.protocol.available_extensions = []
    elif path == "/auth":
        if request.headers.get("Authorization") != "Bearer good":
            return text_response(
                connection,
                http.HTTPStatus.UNAUTHORIZED,
                "bearer token required\n",
                WWW_Authenticate='Bearer realm="courier"',
            )
    elif path == "/redirect":
        location = "/echo" + (f"?{url.query}" if url.query else "")
        return text_response(connection, http.HTTPStatus.FOUND, "moved to /echo\n", Location=location)
    elif path == "/refuse":
        return text_response(connection, http.HTTPStatus.FORBIDDEN, "refused: this endpoint never accepts\n")
    elif path.startswith("/close/"):
        try:
            Close(int(path.removeprefix("/close/")), "").check()
        except (ValueError, ProtocolError):
            return text_response(connection, http.HTTPStatus.BAD_REQUEST, "not a close code a server may send\n")
    elif path not in ("/echo", "/subprotocol", "/ping", "/headers", "/flood", "/slow-close", "/big"):
        return text_response(connection, http.HTTPStatus.NOT_FOUND, "no such WebSocket path\n")
    return None


async def echo(connection: ServerConnection) -> None:
    async for message in connection:
        await connection.send(message)


def query_int(connection: ServerConnection, name: str, default: int, limit: int) -> int:
    values = parse_qs(urlsplit(connection.request.path).query).get(name)
    value = int(values[0]) if values else default
    return max(0, min(value, limit))


def headers_message(request: Request) -> str:
    headers: Headers = request.headers
    cookies: dict[str, str] = {}
    for value in headers.get_all("Cookie"):
        jar = SimpleCookie()
        try:
            jar.load(value)
        except CookieError:
            continue
        cookies.update({name: morsel.value for name, morsel in jar.items()})
    return json.dumps(
        {
            "path": request.path,
            "headers": [[name, value] for name, value in headers.raw_items()],
            "cookies": cookies,
        }
    )


async def handler(connection: ServerConnection) -> None:
    path = urlsplit(connection.request.path).path
    try:
        if path == "/subprotocol":
            await connection.send(connection.subprotocol or "")
            await echo(connection)
        elif path.startswith("/close/"):
            code = int(path.removeprefix("/close/"))
            # close() sends the frame and waits (close_timeout) for the client's reply.
            await connection.close(code, f"closing with {code}")
        elif path == "/ping":
            started = time.monotonic()
            pong = await connection.ping(b"courier-ping")
            latency = await asyncio.wait_for(pong, 10)
            await connection.send(
                json.dumps(
                    {
                        "pong": "courier-ping",
                        "latency_ms": round((time.monotonic() - started) * 1000, 3),
                        "rtt": latency,
                    }
                )
            )
            await echo(connection)
        elif path == "/headers":
            await connection.send(headers_message(connection.request))
            await echo(connection)
        elif path == "/flood":
            count = query_int(connection, "n", 1000, MAX_FLOOD_MESSAGES)
            size = query_int(connection, "size", 16, 1024 * 1024)
            for index in range(count):
                # send() waits while the write buffer is above its high-water mark: backpressure.
                await connection.send(f"{index:0{size}d}"[-size:] if size else "")
            await connection.close(1000, f"sent {count}")
        elif path == "/slow-close":
            await connection.send("slow-close")
            # From now on the connection drops whatever arrives (see SlowCloseConnection), so the close
            # handshake never completes; the TCP connection ends when the client closes it.
            connection.swallow = True
            await asyncio.wait_for(connection.wait_closed(), SLOW_CLOSE_SECONDS)
        elif path == "/big":
            size = query_int(connection, "size", 1024 * 1024, MAX_BIG_BYTES)
            pattern = bytes(range(256))
            await connection.send((pattern * (size // 256 + 1))[:size])
            await echo(connection)
        else:
            await echo(connection)
    except (ConnectionClosed, asyncio.TimeoutError):
        pass


class SlowCloseConnection(ServerConnection):
    """A connection that, once `swallow` is set, reads and discards every byte (for /slow-close)."""

    swallow = False

    def data_received(self, data: bytes) -> None:
        if self.swallow:
            return
        super().data_received(data)


def tls_context(cert: str, key: str) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["http/1.1"])
    return context


def write_ready_file(path: str, values: dict[str, str]) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile("w", dir=directory, delete=False) as handle:
        handle.write("".join(f"{key}={value}\n" for key, value in values.items()))
    os.replace(handle.name, path)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ws-port", type=int, default=0)
    parser.add_argument("--wss-port", type=int, default=0)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--ready-file")
    parser.add_argument("--log-level", default="WARNING")
    parser.add_argument("--list", action="store_true", help="print every path and exit")
    options = parser.parse_args()
    if options.list:
        for path, summary in PATHS.items():
            print(f"{path:24} {summary}")
        return
    logging.basicConfig(level=options.log_level, format="%(asctime)s %(name)s %(levelname)s %(message)s")

    settings = dict(
        process_request=process_request,
        select_subprotocol=select_subprotocol,
        # No constraints of its own: the answer carries exactly the parameters the client asked for.
        compression=None,
        extensions=[ServerPerMessageDeflateFactory()],
        max_size=MAX_MESSAGE_BYTES,
        # The tests send their own pings; unsolicited ones would interleave with what they assert.
        ping_interval=None,
        close_timeout=5,
        create_connection=SlowCloseConnection,
    )
    servers = [await serve(handler, "127.0.0.1", options.ws_port, **settings)]
    values = {"WS_PORT": str(servers[0].sockets[0].getsockname()[1])}
    if options.cert and options.key:
        servers.append(
            await serve(handler, "127.0.0.1", options.wss_port, ssl=tls_context(options.cert, options.key), **settings)
        )
        values["WSS_PORT"] = str(servers[1].sockets[0].getsockname()[1])
    if options.ready_file:
        write_ready_file(options.ready_file, values)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    for server in servers:
        server.close(close_connections=True)
    await asyncio.wait_for(asyncio.gather(*(server.wait_closed() for server in servers)), 3)
    if options.ready_file and os.path.exists(options.ready_file):
        os.unlink(options.ready_file)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except asyncio.TimeoutError:
        pass
