"""An HTTP/1.1 upstream for nginx's /upload: reads each request body to the end, keeps none of it,
and answers 200 with the number of body bytes received.

Usage: upload-sink.py UNIX-SOCKET-PATH

nginx proxies /upload here with request buffering off, so an upload over HTTP/1.1, h2 or the unix
socket streams through without touching the disk, and a chunked upload (no Content-Length) is counted
too. The response body is the byte count and a newline; `X-Upload-Framing` says whether the body came
with a Content-Length or chunked. A request with `X-Upload-Digest: sha256` also gets the SHA-256 of
the body, `<count> sha256=<hex>`, so a test can prove the bytes arrived intact and in order (hashing
is opt-in because it would cap the benchmarks' POST rate). With `Content-Encoding: gzip` or
`deflate` (the zlib format, RFC 9110 §8.4.1.2) the digest is of the decoded bytes, and the summary adds
`decoded=<count>`, so a test of request compression proves what the server got after decoding.
Connections are kept alive for nginx's upstream keepalive pool.
"""

import hashlib
import os
import socket
import socketserver
import sys
import zlib

RECEIVE_SIZE = 1 << 20
MAX_HEAD = 64 * 1024


class Closed(Exception):
    """The peer closed the connection."""


class Reader:
    """Buffered reads from a socket, with a discard that bypasses the buffer for bulk bytes."""

    def __init__(self, sock):
        self.sock = sock
        self.digest = None
        self.buffer = bytearray()
        self.scratch = bytearray(RECEIVE_SIZE)
        self.view = memoryview(self.scratch)

    def fill(self):
        count = self.sock.recv_into(self.view)
        if count == 0:
            raise Closed()
        self.buffer += self.view[:count]

    def read_until(self, marker, limit):
        while True:
            index = self.buffer.find(marker)
            if index >= 0:
                line = bytes(self.buffer[:index])
                del self.buffer[: index + len(marker)]
                return line
            if len(self.buffer) > limit:
                raise ValueError("header section too long")
            self.fill()

    def discard(self, count):
        """Consumes `count` body bytes, feeding them to the digest when one was asked for."""
        taken = min(count, len(self.buffer))
        if self.digest is not None:
            self.digest.update(self.buffer[:taken])
        del self.buffer[:taken]
        count -= taken
        while count > 0:
            received = self.sock.recv_into(self.view, min(count, RECEIVE_SIZE))
            if received == 0:
                raise Closed()
            if self.digest is not None:
                self.digest.update(self.view[:received])
            count -= received


def read_chunked(reader):
    total = 0
    while True:
        size_line = reader.read_until(b"\r\n", MAX_HEAD)
        size = int(size_line.split(b";", 1)[0].strip(), 16)
        if size == 0:
            # Trailer section, then the blank line that ends the message.
            while reader.read_until(b"\r\n", MAX_HEAD):
                pass
            return total
        reader.discard(size)
        reader.read_until(b"\r\n", 2)
        total += size


class DecodingDigest:
    """A SHA-256 of a body's decoded bytes, decoded as they arrive."""

    def __init__(self, coding):
        self.sha = hashlib.sha256()
        self.decoder = zlib.decompressobj(16 + zlib.MAX_WBITS if coding == b"gzip" else zlib.MAX_WBITS)
        self.decoded = 0

    def update(self, data):
        out = self.decoder.decompress(bytes(data))
        self.sha.update(out)
        self.decoded += len(out)

    def hexdigest(self):
        out = self.decoder.flush()
        self.sha.update(out)
        self.decoded += len(out)
        complete = "" if self.decoder.eof else " incomplete"
        return f"{self.sha.hexdigest()} decoded={self.decoded}{complete}"


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        reader = Reader(self.request)
        try:
            while self.serve_one(reader):
                pass
        except (Closed, ConnectionError):
            pass
        except ValueError as error:
            self.respond(400, f"bad request: {error}\n".encode(), "none", close=True)

    def serve_one(self, reader):
        head = reader.read_until(b"\r\n\r\n", MAX_HEAD)
        lines = head.split(b"\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        close = headers.get(b"connection", b"").lower() == b"close"
        wants_digest = headers.get(b"x-upload-digest", b"").lower() == b"sha256"
        coding = headers.get(b"content-encoding", b"").lower()
        if wants_digest and coding in (b"gzip", b"deflate"):
            reader.digest = DecodingDigest(coding)
        else:
            reader.digest = hashlib.sha256() if wants_digest else None
        if b"chunked" in headers.get(b"transfer-encoding", b"").lower():
            total, framing = read_chunked(reader), "chunked"
        else:
            total, framing = int(headers.get(b"content-length", b"0")), "length"
            reader.discard(total)
        summary = f"{total} sha256={reader.digest.hexdigest()}" if wants_digest else f"{total}"
        reader.digest = None
        self.respond(200, f"{summary}\n".encode(), framing, close)
        return not close

    def respond(self, status, body, framing, close):
        reason = {200: "OK", 400: "Bad Request"}[status]
        head = (
            f"HTTP/1.1 {status} {reason}\r\n"
            f"Content-Type: text/plain\r\n"
            f"Content-Length: {len(body)}\r\n"
            f"X-Upload-Framing: {framing}\r\n"
            f"Connection: {'close' if close else 'keep-alive'}\r\n\r\n"
        )
        self.request.sendall(head.encode() + body)


class Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    # socketserver's default backlog of 5 refuses bursts of new connections from nginx (502s on a
    # cold start at concurrency 8); the kernel caps this at somaxconn.
    request_queue_size = 1024


def main():
    path = sys.argv[1]
    if os.path.exists(path):
        os.unlink(path)
    with Server(path, Handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
