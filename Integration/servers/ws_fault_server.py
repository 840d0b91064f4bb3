"""A misbehaving WebSocket server: a valid opening handshake, then one RFC 6455 violation per path.

Plain asyncio streams, no WebSocket library: every byte after the handshake is written by hand, so
the client sees exactly the bytes described in Integration/servers/README.md (`--list` prints the
paths). Paths whose fault is in the handshake itself answer with a crafted 101 instead.

Per connection it records what the client sent back after the crafted bytes (its close frame's code
and reason, pongs, other frames) and serves the records as JSON over plain HTTP on the same port:
  GET /last-close            the most recent finished connection's record
  GET /closes/<id>           the record of the connection whose WebSocket URL had ?id=<id>
  ...?wait=S                 waits up to S seconds (default 0) for that record to exist
  GET /closes                every record, oldest first (the last 1000 are kept)
A record is written when the connection ends (client close answered, TCP closed, or 10 s without a
frame after the crafted bytes).
"""

import argparse
import asyncio
import base64
import collections
import hashlib
import json
import logging
import os
import signal
import struct
import tempfile
import time
from urllib.parse import parse_qs, urlsplit

LOG = logging.getLogger("ws-fault")
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
HEAD_LIMIT = 64 * 1024
# How long the server waits for the client's next frame after the crafted bytes.
READ_TIMEOUT = 10
# A client frame bigger than this ends the connection (the tests' clients send little).
CLIENT_FRAME_LIMIT = 16 * 1024 * 1024
RECORDS_KEPT = 1000

TEXT, BINARY, CONTINUATION, CLOSE, PING, PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA


def frame(
    opcode: int,
    payload: bytes = b"",
    fin: bool = True,
    rsv: int = 0,
    mask: bytes | None = None,
    length: int | None = None,
) -> bytes:
    """One frame; `rsv` is the RSV1-3 bits as 0b100/0b010/0b001; `length` overrides the encoded length."""
    first = (0x80 if fin else 0) | (rsv << 4) | opcode
    size = len(payload) if length is None else length
    mask_bit = 0x80 if mask is not None else 0
    if size < 126:
        head = bytes([first, mask_bit | size])
    elif size < 1 << 16:
        head = bytes([first, mask_bit | 126]) + struct.pack("!H", size)
    else:
        head = bytes([first, mask_bit | 127]) + struct.pack("!Q", size)
    if mask is not None:
        payload = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        head += mask
    return head + payload


def close_frame(code: int, reason: bytes = b"") -> bytes:
    return frame(CLOSE, struct.pack("!H", code) + reason)


# Each fault: (summary, expected client behaviour, bytes after a valid handshake). Handshake faults
# are in HANDSHAKE_FAULTS below.
FAULTS: dict[str, tuple[str, str, bytes]] = {
    "/ok": (
        "control: text 'ok', then close 1000 'done'",
        "message 'ok', clean close 1000",
        frame(TEXT, b"ok") + close_frame(1000, b"done"),
    ),
    "/masked": (
        "text 'hello' with the MASK bit set (key 01 02 03 04)",
        "fail, close 1002 (RFC 6455 §5.1)",
        frame(TEXT, b"hello", mask=b"\x01\x02\x03\x04"),
    ),
    "/rsv1": (
        "text 'hello' with RSV1 set, no extension negotiated",
        "fail, close 1002 (§5.2)",
        frame(TEXT, b"hello", rsv=0b100),
    ),
    "/rsv2": ("text 'hello' with RSV2 set", "fail, close 1002 (§5.2)", frame(TEXT, b"hello", rsv=0b010)),
    "/rsv3": ("text 'hello' with RSV3 set", "fail, close 1002 (§5.2)", frame(TEXT, b"hello", rsv=0b001)),
    "/control-too-long": (
        "ping with a 126-byte payload (16-bit length form)",
        "fail, close 1002 (§5.5)",
        frame(PING, b"p" * 126),
    ),
    "/fragmented-control": (
        "ping 'ab' with FIN clear, then continuation 'cd' with FIN set",
        "fail, close 1002 (§5.5)",
        frame(PING, b"ab", fin=False) + frame(CONTINUATION, b"cd"),
    ),
    "/orphan-continuation": (
        "continuation 'x' (FIN set) with no message open",
        "fail, close 1002 (§5.4)",
        frame(CONTINUATION, b"x"),
    ),
    "/interleaved-data": (
        "text 'hel' FIN clear, then a new text 'lo' instead of a continuation",
        "fail, close 1002 (§5.4)",
        frame(TEXT, b"hel", fin=False) + frame(TEXT, b"lo"),
    ),
    "/invalid-utf8": ("text 'ab' FF 'cd' in one frame", "fail, close 1007 (§8.1)", frame(TEXT, b"ab\xffcd")),
    "/invalid-utf8-split": (
        "text 'ab' E2 82 (FIN clear), continuation 28 'cd': E2 82 28 straddles the boundary",
        "fail, close 1007 (§8.1)",
        frame(TEXT, b"ab\xe2\x82", fin=False) + frame(CONTINUATION, b"\x28cd"),
    ),
    "/valid-utf8-split": (
        "control: text 'a' E2 (FIN clear), continuation 82 AC 'b': 'a€b' split inside the euro sign",
        "message 'a€b', clean close 1000",
        frame(TEXT, b"a\xe2", fin=False) + frame(CONTINUATION, b"\x82\xacb") + close_frame(1000),
    ),
    "/close-one-byte": ("close with a 1-byte payload (03)", "fail, close 1002 (§5.5.1)", frame(CLOSE, b"\x03")),
    "/close-invalid-utf8": (
        "close 1000 with reason FF FE",
        "fail, close 1007 (§8.1; Autobahn 7.5.1)",
        close_frame(1000, b"\xff\xfe"),
    ),
    "/length-top-bit": (
        "binary frame whose 64-bit length has the top bit set (0x8000000000000010), then 16 bytes",
        "fail, close 1002 (§5.2: the most significant bit MUST be 0)",
        frame(BINARY, b"x" * 16, length=(1 << 63) | 16)[:10] + b"x" * 16,
    ),
    "/fragmented-with-pings": (
        "text 'Hello, ' (FIN clear), ping 'p1', continuation 'Web', ping 'p2', continuation 'Socket' (FIN)",
        "message 'Hello, WebSocket', pongs 'p1' and 'p2' (recorded), then its own close",
        frame(TEXT, b"Hello, ", fin=False)
        + frame(PING, b"p1")
        + frame(CONTINUATION, b"Web", fin=False)
        + frame(PING, b"p2")
        + frame(CONTINUATION, b"Socket"),
    ),
}
for _opcode in (3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF):
    FAULTS[f"/opcode/{_opcode}"] = (
        f"a frame with reserved opcode {_opcode:#x}, payload 'x'",
        "fail, close 1002 (§5.2)",
        frame(_opcode, b"x"),
    )
for _code in (0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535):
    FAULTS[f"/close-code/{_code}"] = (
        f"close with code {_code}, reason 'bad code'",
        "fail, close 1002 (§7.4.1, §7.4.2)",
        close_frame(_code, b"bad code"),
    )

DEFLATE_ANSWERS = {
    "/deflate/window-out-of-range": "permessage-deflate; server_max_window_bits=7",
    "/deflate/unrequested-client-window": "permessage-deflate; client_max_window_bits=10",
    "/deflate/unknown-parameter": "permessage-deflate; x-courier=1",
    "/deflate/duplicate-parameter": "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
    "/deflate/value-on-flag": "permessage-deflate; server_no_context_takeover=1",
    "/deflate/twice": "permessage-deflate, permessage-deflate",
}
HANDSHAKE_FAULTS = {
    "/bad-accept": "101 whose Sec-WebSocket-Accept is the hash of another key",
    "/missing-upgrade": "101 without the Upgrade header",
    "/wrong-upgrade": "101 with 'Upgrade: h2c'",
    "/missing-connection": "101 without the Connection header",
    "/unoffered-subprotocol": "101 with 'Sec-WebSocket-Protocol: not-offered'",
    "/unoffered-extension": "101 with 'Sec-WebSocket-Extensions: x-courier-unknown'",
    # RFC 7692 §7.1 and §7.1.1.1 (flags take no value), §7.1.2.1 (8-15), §7.1.2.2 (only if offered).
    **{path: f"101 with 'Sec-WebSocket-Extensions: {answer}'" for path, answer in DEFLATE_ANSWERS.items()},
}


def accept_key(key: str) -> str:
    return base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()


class Records:
    """Finished connections' records, by id and in order, with waiters for ones not yet written."""

    def __init__(self) -> None:
        self.ordered: collections.deque[dict] = collections.deque(maxlen=RECORDS_KEPT)
        self.by_id: dict[str, dict] = {}
        self.changed = asyncio.Condition()

    async def add(self, record: dict) -> None:
        async with self.changed:
            self.ordered.append(record)
            if record.get("id"):
                self.by_id[record["id"]] = record
                while len(self.by_id) > RECORDS_KEPT:
                    self.by_id.pop(next(iter(self.by_id)))
            self.changed.notify_all()

    async def find(self, key: str | None, wait: float) -> dict | None:
        def lookup() -> dict | None:
            if key is None:
                return self.ordered[-1] if self.ordered else None
            return self.by_id.get(key)

        async with self.changed:
            try:
                await asyncio.wait_for(self.changed.wait_for(lambda: lookup() is not None), wait)
            except asyncio.TimeoutError:
                pass
            return lookup()


RECORDS: Records


async def read_head(reader: asyncio.StreamReader) -> tuple[str, str, dict[str, str]] | None:
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), READ_TIMEOUT)
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.TimeoutError, ConnectionError):
        return None
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3:
        return None
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            name = name.strip().lower()
            headers[name] = f"{headers[name]}, {value.strip()}" if name in headers else value.strip()
    return parts[0], parts[1], headers


async def http_answer(writer: asyncio.StreamWriter, status: str, body: bytes, content_type: str = "text/plain") -> None:
    writer.write(
        f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n".encode() + body
    )
    await writer.drain()


async def serve_records(writer: asyncio.StreamWriter, target: str) -> None:
    url = urlsplit(target)
    query = parse_qs(url.query)
    wait = min(float(query.get("wait", ["0"])[0]), 60.0)
    if url.path == "/closes":
        await http_answer(writer, "200 OK", json.dumps(list(RECORDS.ordered)).encode(), "application/json")
        return
    key = url.path.removeprefix("/closes/") if url.path.startswith("/closes/") else None
    record = await RECORDS.find(key, wait)
    if record is None:
        await http_answer(writer, "404 Not Found", b"no such record yet\n")
    else:
        await http_answer(writer, "200 OK", json.dumps(record).encode(), "application/json")


def handshake_answer(path: str, headers: dict[str, str]) -> bytes:
    key = headers.get("sec-websocket-key", "")
    lines = ["HTTP/1.1 101 Switching Protocols"]
    if path != "/missing-upgrade":
        lines.append("Upgrade: h2c" if path == "/wrong-upgrade" else "Upgrade: websocket")
    if path != "/missing-connection":
        lines.append("Connection: Upgrade")
    lines.append(f"Sec-WebSocket-Accept: {accept_key('not the key the client sent' if path == '/bad-accept' else key)}")
    if path == "/unoffered-subprotocol":
        lines.append("Sec-WebSocket-Protocol: not-offered")
    elif path == "/unoffered-extension":
        lines.append("Sec-WebSocket-Extensions: x-courier-unknown")
    elif path in DEFLATE_ANSWERS:
        lines.append(f"Sec-WebSocket-Extensions: {DEFLATE_ANSWERS[path]}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def read_frame(reader: asyncio.StreamReader) -> tuple[int, bool, bool, bytes]:
    """(opcode, fin, masked, unmasked payload) of the client's next frame."""
    first, second = await reader.readexactly(2)
    size = second & 0x7F
    if size == 126:
        (size,) = struct.unpack("!H", await reader.readexactly(2))
    elif size == 127:
        (size,) = struct.unpack("!Q", await reader.readexactly(8))
    if size > CLIENT_FRAME_LIMIT:
        raise ValueError(f"client frame of {size} bytes")
    masked = bool(second & 0x80)
    key = await reader.readexactly(4) if masked else b"\0\0\0\0"
    payload = bytes(byte ^ key[index % 4] for index, byte in enumerate(await reader.readexactly(size)))
    return first & 0x0F, bool(first & 0x80), masked, payload


async def observe_client(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, record: dict, sent_close: bool
) -> None:
    """Reads the client's frames until its close (answered unless ours went first), EOF or silence."""
    while True:
        try:
            opcode, fin, masked, payload = await asyncio.wait_for(read_frame(reader), READ_TIMEOUT)
        except asyncio.TimeoutError:
            record["ended"] = "timeout"
            return
        except (asyncio.IncompleteReadError, ConnectionError):
            record["ended"] = "eof"
            return
        except ValueError as error:
            record["ended"] = str(error)
            return
        record["frames"].append({"opcode": opcode, "fin": fin, "masked": masked, "length": len(payload)})
        if opcode == PONG:
            record["pongs"].append(payload.decode("latin-1"))
        elif opcode in (TEXT, BINARY, CONTINUATION):
            record["data_bytes"] += len(payload)
        elif opcode == CLOSE:
            record["close_received"] = True
            if len(payload) >= 2:
                record["close_code"] = struct.unpack("!H", payload[:2])[0]
                record["close_reason"] = payload[2:].decode("utf-8", "replace")
            elif payload:
                record["close_reason"] = payload.hex()
            if not sent_close:
                # RFC 6455 §5.5.1: answer the close; §7.1.1: the server then closes TCP first.
                writer.write(frame(CLOSE))
                await writer.drain()
            record["ended"] = "close"
            return


async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        head = await read_head(reader)
        if head is None:
            return
        method, target, headers = head
        url = urlsplit(target)
        path = url.path
        if "websocket" not in headers.get("upgrade", "").lower():
            if method == "GET" and (path == "/last-close" or path == "/closes" or path.startswith("/closes/")):
                await serve_records(writer, target)
            else:
                await http_answer(writer, "426 Upgrade Required", b"a WebSocket handshake is expected\n")
            return
        query = parse_qs(url.query)
        record = {
            "id": query.get("id", [None])[0],
            "path": path,
            "started": time.time(),
            "close_received": False,
            "close_code": None,
            "close_reason": None,
            "pongs": [],
            "frames": [],
            "data_bytes": 0,
            "ended": None,
        }
        LOG.info("%s %s", writer.get_extra_info("peername"), target)
        if path in HANDSHAKE_FAULTS:
            writer.write(handshake_answer(path, headers))
            await writer.drain()
            await observe_client(reader, writer, record, sent_close=False)
        elif path in FAULTS or path == "/oversize":
            writer.write(handshake_answer(path, headers))
            sent_close = path.startswith("/close") or path in ("/ok", "/valid-utf8-split")
            if path == "/oversize":
                size = min(int(query.get("size", ["2097152"])[0]), 1 << 30)
                writer.write(frame(BINARY, length=size))
                chunk = b"z" * 65536
                try:
                    for offset in range(0, size, len(chunk)):
                        writer.write(chunk[: size - offset])
                        await writer.drain()
                except ConnectionError:
                    # The client gave up on the frame (1009 expected); its close may still be readable.
                    pass
            else:
                writer.write(FAULTS[path][2])
            try:
                await writer.drain()
            except ConnectionError:
                pass
            await observe_client(reader, writer, record, sent_close)
        else:
            await http_answer(writer, "404 Not Found", b"no such fault\n")
            return
        await RECORDS.add(record)
    except ConnectionError:
        pass
    except Exception:
        LOG.exception("connection failed")
    finally:
        writer.close()


def list_paths() -> None:
    for path, (summary, expected, _) in FAULTS.items():
        print(f"{path:30} {summary}  ->  {expected}")
    oversize = "one binary frame of N bytes (default 2 MiB) of 'z'  ->  with a smaller limit, close 1009"
    print(f"{'/oversize?size=N':30} {oversize}")
    for path, summary in HANDSHAKE_FAULTS.items():
        print(f"{path:30} {summary}  ->  fail the handshake, no WebSocket")


def write_ready_file(path: str, port: int) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile("w", dir=directory, delete=False) as handle:
        handle.write(f"WS_FAULT_PORT={port}\n")
    os.replace(handle.name, path)


async def main() -> None:
    global RECORDS
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--ready-file")
    parser.add_argument("--log-level", default="WARNING")
    parser.add_argument("--list", action="store_true", help="print every path and exit")
    options = parser.parse_args()
    if options.list:
        list_paths()
        return
    logging.basicConfig(level=options.log_level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    RECORDS = Records()
    server = await asyncio.start_server(handle, "127.0.0.1", options.port, limit=HEAD_LIMIT)
    port = server.sockets[0].getsockname()[1]
    if options.ready_file:
        write_ready_file(options.ready_file, port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    server.close()
    if options.ready_file and os.path.exists(options.ready_file):
        os.unlink(options.ready_file)


if __name__ == "__main__":
    asyncio.run(main())
