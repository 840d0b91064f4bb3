"""Writes the compressed-JSON fixture that nginx serves at /compressed/large.json.

About 200 MiB of JSON (one record with a long string field, repeated) gzip-compressed at level 9,
roughly 1000:1 (deflate's ceiling is about 1032:1, for runs at distances 1 to 4): the case a
slow reader of a compressed response must survive. Only the .gz file is written; the decoded size
and SHA-256 go to stdout as `size sha256`, for the tests to compare with what they decoded.

Usage: make-compressed-json.py OUTPUT.gz
"""

import hashlib
import os
import sys
import zlib

RECORD = b'{"id":1,"name":"courier","note":"' + b"a" * 8000 + b'","ok":true},'
HEAD = b'{"items":['
TAIL = b'{"id":0}]}\n'
TARGET = 200 << 20
BLOCK = RECORD * ((1 << 20) // len(RECORD))


def main(path):
    digest = hashlib.sha256()
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    size = 0
    with open(path + ".part", "wb") as out:
        def put(data):
            nonlocal size
            digest.update(data)
            size += len(data)
            out.write(compressor.compress(data))

        put(HEAD)
        while size + len(BLOCK) <= TARGET:
            put(BLOCK)
        put(TAIL)
        out.write(compressor.flush())
    os.replace(path + ".part", path)
    print(size, digest.hexdigest())


if __name__ == "__main__":
    main(sys.argv[1])
