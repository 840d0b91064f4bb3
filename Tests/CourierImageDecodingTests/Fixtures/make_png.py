"""Writes the PNG fixtures and the PPM that cjpeg reads, from one 37 x 23 gradient."""
import struct
import zlib

WIDTH, HEIGHT = 37, 23


def pixel(x, y):
    return (x * 255 // (WIDTH - 1), y * 255 // (HEIGHT - 1), (x + y) * 4 % 256, 255 - x * 3)


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def png(color_type, rows, extra=b""):
    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, color_type, 0, 0, 0)
    raw = b"".join(b"\x00" + row for row in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


rgba = [bytes(v for x in range(WIDTH) for v in pixel(x, y)) for y in range(HEIGHT)]
gray = [bytes(pixel(x, y)[0] for x in range(WIDTH)) for y in range(HEIGHT)]
palette_colors = [(i * 16, 255 - i * 16, 128) for i in range(16)]
palette_rows = [bytes((x + y) % 16 for x in range(WIDTH)) for y in range(HEIGHT)]
palette_chunks = chunk(b"PLTE", bytes(v for c in palette_colors for v in c)) + chunk(b"tRNS", bytes([0, 128]))

with open("gradient-rgba.png", "wb") as f:
    f.write(png(6, rgba))
with open("gradient-gray.png", "wb") as f:
    f.write(png(0, gray))
with open("gradient-palette.png", "wb") as f:
    f.write(png(3, palette_rows, palette_chunks))
with open("gradient.ppm", "wb") as f:
    f.write(b"P6 %d %d 255\n" % (WIDTH, HEIGHT))
    f.write(bytes(v for y in range(HEIGHT) for x in range(WIDTH) for v in pixel(x, y)[:3]))
