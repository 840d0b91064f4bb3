#!/usr/bin/env python3
"""A TLS server that reports, per connection, whether the handshake completed, whether it resumed a
session and how many application bytes the client sent: the server-side evidence that a client which
rejects the server's certificate sends no request byte.

Usage:
    tls_byte_counter.py (--cert C --key K | --pki DIR --default NAME [--name SNI=NAME ...])
                        --ready-file F --connections N [--timeout S]

With --cert and --key it presents that chain to every client. With --pki it picks the certificate by
the name the client sends (SNI): NAME is a certificate of the test PKI, presented as
DIR/NAME-chain.pem with DIR/NAME.key; a client that sends no name, or one not mapped, gets --default.

It listens on 127.0.0.1 (a free port), writes `PORT=<port>` to the ready file atomically once it
accepts, serves exactly N connections one after the other, and exits. For each connection it prints
one JSON line to stdout: {"connection": i, "sni": "...", "handshake": "ok" | "failed", "resumed":
bool, "error": "...", "bytes": <application bytes received>, "request_line": "..."}. A completed
handshake gets a `200` with `Connection: close` once its request head has arrived, except a request
for /digest without an Authorization header, which gets a 401 Digest challenge with
`Connection: close` (libcurl then answers the challenge on a new connection of the same transfer,
the one place it would resume the first connection's TLS session). It exits with status 2 when no
connection arrives within --timeout seconds (default 20).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import ssl
import sys


def context_for(pki: str, name: str) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(pki, name + "-chain.pem"), os.path.join(pki, name + ".key"))
    return context


def serve(arguments: argparse.Namespace) -> int:
    if arguments.pki:
        default = context_for(arguments.pki, arguments.default)
    else:
        default = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        default.load_cert_chain(arguments.cert, arguments.key)
    by_name: dict[str, ssl.SSLContext] = {}
    for mapping in arguments.name:
        server_name, _, name = mapping.partition("=")
        by_name[server_name] = context_for(arguments.pki, name)
    seen: dict[str, str] = {}

    def pick(tls: ssl.SSLObject, server_name: str | None, _: ssl.SSLContext) -> None:
        seen["sni"] = server_name or ""
        if server_name in by_name:
            tls.context = by_name[server_name]

    default.sni_callback = pick
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
        seen.clear()
        record: dict[str, object] = {"connection": index, "handshake": "ok", "resumed": False, "bytes": 0}
        try:
            tls = default.wrap_socket(connection, server_side=True)
        except (ssl.SSLError, OSError) as error:
            record.update(handshake="failed", error=str(error), sni=seen.get("sni", ""))
            connection.close()
            print(json.dumps(record), flush=True)
            continue
        record.update(sni=seen.get("sni", ""), resumed=tls.session_reused)
        received = b""
        try:
            while b"\r\n\r\n" not in received:
                chunk = tls.recv(65536)
                if not chunk:
                    break
                received += chunk
            challenged = received.startswith(b"GET /digest") and b"\r\nauthorization:" not in received.lower()
            if challenged:
                tls.sendall(
                    b"HTTP/1.1 401 Unauthorized\r\n"
                    b'WWW-Authenticate: Digest realm="courier", nonce="0123456789abcdef", qop="auth"\r\n'
                    b"Content-Length: 0\r\nConnection: close\r\n\r\n"
                )
            elif b"\r\n\r\n" in received:
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
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--pki")
    parser.add_argument("--default", default="leaf")
    parser.add_argument("--name", action="append", default=[])
    parser.add_argument("--ready-file", required=True)
    parser.add_argument("--connections", type=int, required=True)
    parser.add_argument("--timeout", type=float, default=20.0)
    arguments = parser.parse_args(argv)
    if not arguments.pki and not (arguments.cert and arguments.key):
        parser.error("give --cert and --key, or --pki")
    return serve(arguments)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
