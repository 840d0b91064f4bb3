"""Checks every path of ws_server.py (over ws and wss) and ws_fault_server.py with the `websockets` client.

Run it after `ci/servers start` (it reads COURIER_WS_URL, COURIER_WSS_URL, COURIER_WS_FAULT_URL,
TEST_CA_FILE and, when set, TEST_PROXY_URL and TEST_HTTPS_PROXY_URL from the environment or from
--env FILE); `ci/servers probe` runs it too. Prints one
line per check and ends with "ws-check: N passed, N failed"; exits 1 when a check failed.

The fault server's checks assert what the server sent (the client sees the right failure) and what
it recorded (the close code `websockets` answered with), so they double as examples of the codes a
strict client uses. Where RFC 6455 leaves a choice, every acceptable code is listed.
"""

import argparse
import asyncio
import http.client
import json
import os
import ssl
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit
from urllib.request import urlopen

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory

PASSED: list[str] = []
FAILED: list[str] = []


def check(name: str, condition: bool, detail: object = "") -> None:
    if condition:
        PASSED.append(name)
        print(f"ws-check ok     {name}")
    else:
        FAILED.append(name)
        print(f"ws-check FAILED {name}: {detail}")


async def run(name: str, body: Callable[[], Awaitable[None]]) -> None:
    try:
        await asyncio.wait_for(body(), 20)
    except Exception as error:  # one broken check must not hide the others
        check(name, False, f"{type(error).__name__}: {error}")


def raw_handshake(base: str, path: str, tls: ssl.SSLContext | None) -> http.client.HTTPResponse:
    """The server's answer to an opening handshake, read with http.client (no redirect following)."""
    url = urlsplit(base)
    connection = (
        http.client.HTTPSConnection(url.hostname, url.port, context=tls, timeout=10)
        if url.scheme == "wss"
        else http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    )
    connection.request(
        "GET",
        path,
        headers={
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        },
    )
    response = connection.getresponse()
    response.body = response.read() if response.status != 101 else b""
    connection.close()
    return response


async def good_server(base: str, tls: ssl.SSLContext | None, proxies: dict[str, str]) -> None:
    scheme = urlsplit(base).scheme
    # proxy=None: an http_proxy in the environment must not reroute the direct checks.
    options: dict = {"ssl": tls, "proxy": None} if tls else {"proxy": None}

    async def echo() -> None:
        async with connect(f"{base}/echo", **options) as ws:
            await ws.send("héllo")
            text = await ws.recv()
            await ws.send(b"\x00\x01\xff")
            data = await ws.recv()
            extensions = ws.response.headers.get("Sec-WebSocket-Extensions", "")
        check(f"{scheme} /echo text and binary", (text, data) == ("héllo", b"\x00\x01\xff"), (text, data))
        check(f"{scheme} /echo negotiates permessage-deflate", "permessage-deflate" in extensions, extensions)

    async def echo_parameters() -> None:
        factory = ClientPerMessageDeflateFactory(
            server_max_window_bits=10, client_max_window_bits=True, server_no_context_takeover=True
        )
        async with connect(f"{base}/echo", compression=None, extensions=[factory], **options) as ws:
            await ws.send("x" * 10000)
            text = await ws.recv()
            extensions = ws.response.headers.get("Sec-WebSocket-Extensions", "")
        check(
            f"{scheme} /echo keeps the client's deflate parameters",
            text == "x" * 10000
            and "server_max_window_bits=10" in extensions
            and "server_no_context_takeover" in extensions,
            extensions,
        )

    async def no_compression() -> None:
        async with connect(f"{base}/echo-no-compression", **options) as ws:
            await ws.send("plain")
            text = await ws.recv()
            extensions = ws.response.headers.get("Sec-WebSocket-Extensions")
        check(f"{scheme} /echo-no-compression declines deflate", text == "plain" and extensions is None, extensions)

    async def subprotocol() -> None:
        async with connect(f"{base}/subprotocol", subprotocols=["chat.v1", "chat.v2"], **options) as ws:
            first, selected = await ws.recv(), ws.subprotocol
        async with connect(f"{base}/subprotocol", subprotocols=["chat.v1"], **options) as ws:
            none_first, none_selected = await ws.recv(), ws.subprotocol
        check(
            f"{scheme} /subprotocol selects chat.v2",
            (first, selected, none_first, none_selected) == ("chat.v2", "chat.v2", "", None),
            (first, selected, none_first, none_selected),
        )

    async def close_code() -> None:
        async with connect(f"{base}/close/4000", **options) as ws:
            try:
                await ws.recv()
            except ConnectionClosed:
                pass
            code, reason = ws.close_code, ws.close_reason
        check(f"{scheme} /close/4000", (code, reason) == (4000, "closing with 4000"), (code, reason))
        response = raw_handshake(base, "/close/1005", tls)
        check(f"{scheme} /close/1005 refused (not sendable)", response.status == 400, response.status)

    async def ping() -> None:
        async with connect(f"{base}/ping", **options) as ws:
            report = json.loads(await ws.recv())
        check(f"{scheme} /ping reports the pong", report.get("pong") == "courier-ping", report)

    async def headers() -> None:
        extra = {"X-Courier-Check": "1", "Cookie": "a=1; b=two"}
        async with connect(f"{base}/headers?q=1", additional_headers=extra, **options) as ws:
            report = json.loads(await ws.recv())
        names = {name.lower(): value for name, value in report["headers"]}
        check(
            f"{scheme} /headers echoes headers and cookies",
            names.get("x-courier-check") == "1"
            and report["cookies"] == {"a": "1", "b": "two"}
            and report["path"] == "/headers?q=1"
            and "sec-websocket-key" in names,
            report,
        )

    async def auth() -> None:
        try:
            async with connect(f"{base}/auth", **options):
                status = 101
        except InvalidStatus as error:
            status = error.response.status_code
        async with connect(f"{base}/auth", additional_headers={"Authorization": "Bearer good"}, **options) as ws:
            await ws.send("in")
            text = await ws.recv()
        check(f"{scheme} /auth 401 without, echo with the token", (status, text) == (401, "in"), (status, text))

    async def redirect() -> None:
        response = raw_handshake(base, "/redirect?k=v", tls)
        async with connect(f"{base}/redirect", **options) as ws:
            await ws.send("followed")
            text = await ws.recv()
        check(
            f"{scheme} /redirect 302 to /echo",
            (response.status, response.getheader("Location"), text) == (302, "/echo?k=v", "followed"),
            (response.status, response.getheader("Location"), text),
        )

    async def refuse() -> None:
        try:
            async with connect(f"{base}/refuse", **options):
                status, body = 101, b""
        except InvalidStatus as error:
            status, body = error.response.status_code, error.response.body
        check(f"{scheme} /refuse 403 with a body", status == 403 and body.startswith(b"refused"), (status, body))

    async def flood() -> None:
        count = 0
        async with connect(f"{base}/flood?n=5000&size=32", max_queue=4, **options) as ws:
            try:
                async for message in ws:
                    count += len(message) == 32
                    if count % 1000 == 0:
                        await asyncio.sleep(0.01)  # a slow reader, so that the server meets backpressure
            except ConnectionClosed:
                pass
            code = ws.close_code
        check(f"{scheme} /flood?n=5000 delivers every message, then 1000", (count, code) == (5000, 1000), (count, code))

    async def slow_close() -> None:
        async with connect(f"{base}/slow-close", close_timeout=1, **options) as ws:
            greeting = await ws.recv()
            started = time.monotonic()
            await ws.close()
            waited = time.monotonic() - started
            code = ws.close_code
        check(
            f"{scheme} /slow-close never answers the close",
            greeting == "slow-close" and waited >= 0.9 and code == 1006,
            (greeting, round(waited, 2), code),
        )

    async def big() -> None:
        size = 5 * 1024 * 1024 + 3
        async with connect(f"{base}/big?size={size}", max_size=None, **options) as ws:
            data = await ws.recv()
        expected = (bytes(range(256)) * (size // 256 + 1))[:size]
        check(f"{scheme} /big?size={size}", data == expected, len(data))

    async def through_proxies() -> None:
        for name, proxy in proxies.items():
            proxy_options = (
                {"proxy": proxy, "proxy_ssl": tls_for_proxy} if proxy.startswith("https:") else {"proxy": proxy}
            )
            async with connect(f"{base}/echo", **{**options, **proxy_options}) as ws:
                await ws.send(f"via {name}")
                text = await ws.recv()
            check(f"{scheme} /echo through {name} (CONNECT)", text == f"via {name}", text)

    tls_for_proxy = ssl.create_default_context(cafile=proxies.pop("ca")) if "ca" in proxies else None
    await asyncio.gather(
        *(
            run(f"{scheme} {body.__name__}", body)
            for body in (
                echo,
                echo_parameters,
                no_compression,
                subprotocol,
                close_code,
                ping,
                headers,
                auth,
                redirect,
                refuse,
                flood,
                slow_close,
                big,
                through_proxies,
            )
        )
    )


# Fault paths after a valid handshake: the close codes a strict client may answer with.
FRAME_FAULTS: dict[str, set[int]] = {
    "/masked": {1002},
    "/rsv1": {1002},
    "/rsv2": {1002},
    "/rsv3": {1002},
    "/control-too-long": {1002},
    "/fragmented-control": {1002},
    "/orphan-continuation": {1002},
    "/interleaved-data": {1002},
    "/invalid-utf8": {1007},
    "/invalid-utf8-split": {1007},
    "/close-one-byte": {1002},
    "/close-invalid-utf8": {1007, 1002},
    # A length no client can hold: either a protocol error or "too big".
    "/length-top-bit": {1002, 1009},
    "/oversize?size=2097152": {1009},
    **{f"/opcode/{opcode}": {1002} for opcode in (3, 4, 5, 6, 7, 11, 12, 13, 14, 15)},
    **{f"/close-code/{code}": {1002} for code in (0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535)},
}
HANDSHAKE_FAULTS = [
    "/bad-accept",
    "/missing-upgrade",
    "/wrong-upgrade",
    "/missing-connection",
    "/unoffered-subprotocol",
    "/unoffered-extension",
    "/deflate/window-out-of-range",
    "/deflate/unrequested-client-window",
    "/deflate/unknown-parameter",
    "/deflate/duplicate-parameter",
    "/deflate/value-on-flag",
    "/deflate/twice",
]


def record(control: str, key: str) -> dict:
    with urlopen(f"{control}/closes/{key}?wait=5", timeout=10) as response:
        return json.load(response)


async def fault_server(base: str) -> None:
    control = "http://" + base.removeprefix("ws://")

    async def frame_fault(path: str, codes: set[int]) -> None:
        key = uuid.uuid4().hex
        separator = "&" if "?" in path else "?"
        async with connect(f"{base}{path}{separator}id={key}", max_size=1024 * 1024, close_timeout=2, proxy=None) as ws:
            try:
                message = await ws.recv()
                failed = False
            except ConnectionClosed:
                message, failed = None, True
        seen = await asyncio.to_thread(record, control, key)
        check(
            f"fault {path} -> client closes {sorted(codes)}",
            failed and seen["close_code"] in codes,
            (message, seen["close_code"], seen["close_reason"]),
        )

    async def handshake_fault(path: str) -> None:
        key = uuid.uuid4().hex
        try:
            # A client that offers nothing: any subprotocol or extension in the answer was not offered.
            async with connect(f"{base}{path}?id={key}", compression=None, open_timeout=5, proxy=None):
                failed, detail = False, "the handshake succeeded"
        except InvalidHandshake as error:
            failed, detail = True, f"{type(error).__name__}: {error}"
        seen = await asyncio.to_thread(record, control, key)
        check(
            f"fault {path} -> handshake fails",
            failed and not seen["close_received"] and not seen["frames"],
            (detail, seen),
        )

    async def deflate_fault(path: str) -> None:
        # With permessage-deflate offered, only the answer's parameters are wrong.
        try:
            async with connect(f"{base}{path}", open_timeout=5, proxy=None):
                failed, detail = False, "the handshake succeeded"
        except InvalidHandshake as error:
            failed, detail = True, f"{type(error).__name__}: {error}"
        check(f"fault {path} (deflate offered) -> handshake fails", failed, detail)

    async def control_path(path: str, expected: str) -> None:
        key = uuid.uuid4().hex
        async with connect(f"{base}{path}?id={key}", proxy=None) as ws:
            message = await ws.recv()
            try:
                await ws.recv()
            except ConnectionClosed:
                pass
            code = ws.close_code
        seen = await asyncio.to_thread(record, control, key)
        check(
            f"fault {path} (control) -> {expected!r}, close 1000",
            (message, code, seen["close_code"]) == (expected, 1000, 1000),
            (message, code, seen["close_code"]),
        )

    async def interleaved_pings() -> None:
        key = uuid.uuid4().hex
        async with connect(f"{base}/fragmented-with-pings?id={key}", proxy=None) as ws:
            message = await ws.recv()
        seen = await asyncio.to_thread(record, control, key)
        check(
            "fault /fragmented-with-pings -> message and both pongs",
            (message, seen["pongs"], seen["close_code"]) == ("Hello, WebSocket", ["p1", "p2"], 1000),
            (message, seen["pongs"], seen["close_code"]),
        )

    async def last_close() -> None:
        with urlopen(f"{control}/last-close", timeout=10) as response:
            seen = json.load(response)
        check("fault GET /last-close", "close_code" in seen and "path" in seen, seen)

    jobs = [
        run(f"fault {path}", lambda path=path, codes=codes: frame_fault(path, codes))
        for path, codes in FRAME_FAULTS.items()
    ]
    jobs += [run(f"fault {path}", lambda path=path: handshake_fault(path)) for path in HANDSHAKE_FAULTS]
    jobs += [
        run(f"fault {path} offered", lambda path=path: deflate_fault(path))
        for path in HANDSHAKE_FAULTS
        if path.startswith("/deflate/") and path != "/deflate/unrequested-client-window"
    ]
    jobs += [
        run("fault /ok", lambda: control_path("/ok", "ok")),
        run("fault /valid-utf8-split", lambda: control_path("/valid-utf8-split", "a€b")),
        run("fault /fragmented-with-pings", interleaved_pings),
    ]
    await asyncio.gather(*jobs)
    await run("fault /last-close", last_close)


def load_env(path: str | None) -> dict[str, str]:
    values = dict(os.environ)
    if path:
        with open(path) as env:
            for line in env:
                key, _, value = line.rstrip("\n").partition("=")
                values.setdefault(key, value)
    return values


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", help="a KEY=value file such as .build/ci-state/env")
    env = load_env(parser.parse_args().env)
    tls = ssl.create_default_context(cafile=env["TEST_CA_FILE"])
    started = time.monotonic()
    proxies = {
        name: env[key]
        for name, key in (("tinyproxy", "TEST_PROXY_URL"), ("stunnel https proxy", "TEST_HTTPS_PROXY_URL"))
        if env.get(key)
    }
    await asyncio.gather(
        good_server(env["COURIER_WS_URL"], None, {**proxies, "ca": env["TEST_CA_FILE"]}),
        good_server(env["COURIER_WSS_URL"], tls, {**proxies, "ca": env["TEST_CA_FILE"]}),
        fault_server(env["COURIER_WS_FAULT_URL"]),
    )
    print(f"ws-check: {len(PASSED)} passed, {len(FAILED)} failed ({time.monotonic() - started:.1f}s)")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
