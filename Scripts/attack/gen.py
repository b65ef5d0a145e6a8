#!/usr/bin/env python3
"""Generates the hostile inputs of the hostile-request suite (the rows of Scripts/attack/
rows_*.py call these functions) with the standard library only.

    gen.py png PATH WIDTH HEIGHT [--noise SEED | --colour RRGGBB] [--alpha] [--grey]
                                 [--level L] [--pad-to BYTES]
    gen.py png-header PATH WIDTH HEIGHT     a valid PNG header, then a short truncated body
    gen.py bmp PATH WIDTH HEIGHT            a plain 24-bit BMP (to be renamed .png)
    gen.py svg PATH HREF                    an SVG whose <image> references HREF

PNG rows are streamed through zlib, so a 1x2000000 single-colour PNG costs a few KB on disk
and a few MB while written; a noisy one is random bytes (incompressible: its outputs stay
large). Every generated file is deterministic for a given seed. --pad-to adds a private
ancillary chunk (ignored by decoders) so that the file has exactly BYTES bytes.
"""
import random
import struct
import sys
import zlib


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(path, width, height, noise=None, alpha=False, grey=False, colour="5A80C0", level=None,
        pad_to=None):
    channels = (1 if grey else 3) + (1 if alpha else 0)
    colour_type = {1: 0, 2: 4, 3: 2, 4: 6}[channels]
    out = open(path, "wb")
    out.write(b"\x89PNG\r\n\x1a\n")
    out.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)))
    if level is None:
        level = 1 if noise is not None else 9
    compressor = zlib.compressobj(level)
    rng = random.Random(noise) if noise is not None else None
    rgb = bytes.fromhex(colour)
    pixel = (rgb[:1] if grey else rgb) + (b"\xff" if alpha else b"")
    constant = b"\x00" + pixel * width
    pending = bytearray()
    for _ in range(height):
        if rng is None:
            pending += constant
        else:
            pending += b"\x00" + rng.randbytes(width * channels)
        if len(pending) >= 1 << 20:
            data = compressor.compress(bytes(pending))
            pending.clear()
            if data:
                out.write(chunk(b"IDAT", data))
    data = compressor.compress(bytes(pending)) + compressor.flush()
    out.write(chunk(b"IDAT", data))
    if pad_to is not None:
        missing = pad_to - out.tell() - 12 - 12  # this chunk's and IEND's 12 bytes
        if missing < 0:
            sys.exit(f"gen.py: {path} is already larger than --pad-to {pad_to}")
        out.write(chunk(b"pdDg", b"\x00" * missing))
    out.write(chunk(b"IEND", b""))
    out.close()


def png_header(path, width, height):
    """The header of a WIDTHxHEIGHT RGB PNG and the first compressed rows only."""
    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n")
        out.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        out.write(chunk(b"IDAT", zlib.compress((b"\x00" + b"\x10" * width * 3) * 4)))
        out.write(chunk(b"IEND", b""))


def bmp(path, width, height):
    row = (width * 3 + 3) & ~3
    pixels = bytearray()
    for y in range(height):
        line = bytearray()
        for x in range(width):
            line += bytes(((x * 7) & 255, (y * 5) & 255, 128))
        pixels += line + b"\x00" * (row - len(line))
    header = struct.pack("<2sIHHI", b"BM", 54 + len(pixels), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, len(pixels), 2835, 2835, 0, 0)
    with open(path, "wb") as out:
        out.write(header + info + pixels)


def svg(path, href):
    with open(path, "w") as out:
        out.write(
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
            ' width="64" height="64" viewBox="0 0 64 64">\n'
            '  <rect width="64" height="64" fill="#3366cc"/>\n'
            f'  <image href="{href}" xlink:href="{href}" x="0" y="0" width="64" height="64"/>\n'
            "</svg>\n")


def main(argv):
    kind, path = argv[1], argv[2]
    if kind == "png":
        width, height = int(argv[3]), int(argv[4])
        option = lambda name, kind=str: kind(argv[argv.index(name) + 1]) if name in argv else None
        png(path, width, height, noise=option("--noise", int), alpha="--alpha" in argv,
            grey="--grey" in argv, colour=option("--colour") or "5A80C0",
            level=option("--level", int), pad_to=option("--pad-to", int))
    elif kind == "png-header":
        png_header(path, int(argv[3]), int(argv[4]))
    elif kind == "bmp":
        bmp(path, int(argv[3]), int(argv[4]))
    elif kind == "svg":
        svg(path, argv[3])
    else:
        sys.exit(f"gen.py: unknown kind {kind}")


if __name__ == "__main__":
    main(sys.argv)
