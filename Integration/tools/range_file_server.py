#!/usr/bin/env python3
"""An HTTP/1.1 server with one resource that serves byte ranges as RFC 9110 says, and prints one line
per request it receives: the server-side count of what a resumed download asks for.

Usage:
    range_file_server.py --ready-file F [--size N] [--first-request S] [--idle S]

Every path is the same resource: N bytes (default 10240), with a strong `ETag: "range-file-1"`.
`GET` and `HEAD` with `Range: bytes=START-` and an `If-Range` that names the entity tag (or none)
get `206` with the rest from START, or `416` with `Content-Range: bytes */N` when START is at or past
the end (RFC 9110 §14.4, §15.5.17); any other `If-Range` gets the whole resource with `200`.

It listens on 127.0.0.1 (a free port), writes `PORT=<port>` to the ready file atomically once it
accepts, and prints `METHOD PATH RANGE` (`-` for no `Range`) to stdout, flushed, for each request.
It serves one connection at a time and exits once no connection has come for --idle seconds
(default 2) after the first, or for --first-request seconds (default 30) before it: it ends on its
own, so that a caller need not signal it (a test runner's children may inherit blocked signals).
"""

from __future__ import annotations

import argparse
import http.server
import os

ENTITY_TAG = '"range-file-1"'


def make_handler(body: bytes) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            self.respond(send_body=True)

        def do_HEAD(self) -> None:
            self.respond(send_body=False)

        def respond(self, send_body: bool) -> None:
            requested = self.headers.get("Range")
            print("%s %s %s" % (self.command, self.path, requested or "-"), flush=True)
            if_range = self.headers.get("If-Range")
            start = None
            if requested and requested.startswith("bytes=") and if_range in (None, ENTITY_TAG):
                first = requested[len("bytes="):].split("-", 1)[0]
                start = int(first) if first.isdigit() else None
            if start is not None and start >= len(body):
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % len(body))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            payload = body if start is None else body[start:]
            self.send_response(200 if start is None else 206)
            if start is not None:
                self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(body) - 1, len(body)))
            self.send_header("ETag", ENTITY_TAG)
            self.send_header("Accept-Ranges", "bytes")
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if send_body:
                self.wfile.write(payload)

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ready-file", required=True)
    parser.add_argument("--size", type=int, default=10240)
    parser.add_argument("--first-request", type=float, default=30)
    parser.add_argument("--idle", type=float, default=2)
    arguments = parser.parse_args()
    body = bytes(index % 251 for index in range(arguments.size))
    server = http.server.HTTPServer(("127.0.0.1", 0), make_handler(body))
    temporary = arguments.ready_file + ".tmp"
    with open(temporary, "w") as ready:
        ready.write("PORT=%d\n" % server.server_address[1])
    os.rename(temporary, arguments.ready_file)
    idle = []
    server.handle_timeout = lambda: idle.append(True)
    server.timeout = arguments.first_request
    while not idle:
        server.handle_request()
        server.timeout = arguments.idle
    server.server_close()

if __name__ == "__main__":
    main()
