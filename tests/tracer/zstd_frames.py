#!/usr/bin/env python3
"""zstd_frames.py FILE -- walks the zstd frames of a trace written with
WIP15_STREAM=zstd (RFC 8878: frame header, block headers, checksum; no
decompression) and prints "frames N compressed M": M frames hold at least
one compressed block (the others are data frames of raw blocks).  Exits 1
when FILE is not a whole sequence of zstd frames."""
import struct
import sys


def main(path):
    d = open(path, 'rb').read()
    p = frames = compressed = 0
    while p < len(d):
        if p + 5 > len(d) or struct.unpack_from('<I', d, p)[0] != 0xFD2FB528:
            sys.exit(f'{path}: byte {p}: expected a zstd frame magic')
        fhd = d[p + 4]
        single, did, fcs = (fhd >> 5) & 1, fhd & 3, fhd >> 6
        q = p + 5 + (0 if single else 1) + (0, 1, 2, 4)[did] + ((1 if single else 0), 2, 4, 8)[fcs]
        has_compressed = False
        while True:
            if q + 3 > len(d):
                sys.exit(f'{path}: byte {q}: the frame at {p} ends inside a block header')
            bh = d[q] | d[q + 1] << 8 | d[q + 2] << 16
            q += 3
            kind, size = (bh >> 1) & 3, bh >> 3
            q += 1 if kind == 1 else size
            has_compressed |= kind == 2
            if bh & 1:
                break
        q += 4 if (fhd >> 2) & 1 else 0
        if q > len(d):
            sys.exit(f'{path}: the frame at byte {p} is cut')
        frames += 1
        compressed += has_compressed
        p = q
    print(f'frames {frames} compressed {compressed}')


if __name__ == '__main__':
    main(sys.argv[1])
