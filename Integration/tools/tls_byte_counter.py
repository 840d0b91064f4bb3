#!/usr/bin/env python3
"""A TLS server that reports, per connection, whether the handshake completed and how many
application bytes the client sent: the server-side evidence that a client which rejects the
server's certificate sends no request byte.

Usage:
    tls_byte_counter.py --cert server.pem --key server.key --ready-file F --connections N [--timeout S]

It listens on 127.0.0.1 (a free port), writes `PORT=<port>` to the ready file atomically once it
accepts, serves exactly N connections one after the other, and exits. For each connection it prints
one JSON line to stdout: {"connection": i, "handshake": "ok" | "failed", "error": "...",
"bytes": <application bytes received>, "request_line": "..."}. A connection that completes the
handshake gets a `200` with `Connection: close` once its request head has arrived. It exits with
status 2 when no connection arrives within --timeout seconds (default 20).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import ssl
import sys


def serve(arguments: argparse.Namespace) -> int:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(arguments.cert, arguments.key)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(arguments.timeout)
    temporary = arguments.ready_file + ".tmp"
    with open(temporary, "w") as ready:
        ready.write("PORT=%d\n" % listener.getsockname()[1])
    os.rename(temporary, arguments.ready_file)
    for index in range(arguments.connections):
        try:
            connection, _ = listener.accept()
        except socket.timeout:
            print(json.dumps({"connection": index, "handshake": "none", "error": "no connection"}), flush=True)
            return 2
        connection.settimeout(5)
        record: dict[str, object] = {"connection": index, "handshake": "ok", "bytes": 0}
        try:
            tls = context.wrap_socket(connection, server_side=True)
        except (ssl.SSLError, OSError) as error:
            record["handshake"] = "failed"
            record["error"] = str(error)
            connection.close()
            print(json.dumps(record), flush=True)
            continue
        received = b""
        try:
            while b"\r\n\r\n" not in received:
                chunk = tls.recv(65536)
                if not chunk:
                    break
                received += chunk
            if b"\r\n\r\n" in received:
                tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok\n")
        except (ssl.SSLError, OSError) as error:
            record["error"] = str(error)
        finally:
            tls.close()
        record["bytes"] = len(received)
        record["request_line"] = received.split(b"\r\n", 1)[0].decode("latin-1")
        print(json.dumps(record), flush=True)
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--ready-file", required=True)
    parser.add_argument("--connections", type=int, required=True)
    parser.add_argument("--timeout", type=float, default=20.0)
    return serve(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
