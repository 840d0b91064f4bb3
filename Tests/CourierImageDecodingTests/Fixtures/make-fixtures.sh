#!/usr/bin/env bash
# Regenerates the decoder fixtures: one 37 x 23 gradient, written as PNG (RGBA, gray, palette with
# transparency) by make_png.py, and as JPEG and WebP by Debian's libjpeg-turbo-progs and webp.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
python3 make_png.py
cjpeg -quality 90 -outfile gradient.jpg gradient.ppm
cjpeg -quality 90 -progressive -outfile gradient-progressive.jpg gradient.ppm
cjpeg -quality 90 -grayscale -outfile gradient-gray.jpg gradient.ppm
cwebp -quiet -q 90 gradient-rgba.png -o gradient-lossy.webp
cwebp -quiet -lossless gradient-rgba.png -o gradient-lossless.webp
rm gradient.ppm
