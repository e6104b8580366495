#!/usr/bin/env python3
"""The code layout of scripts/link-order.txt reaches the shipped binaries (KilnLinkOrder.cmake).

usage: link_order_test.py LIST BINARY...
For each binary: most of the list's hot head names a function there (else the list is stale:
regenerate it with scripts/link_order.py), and those functions lie in the list's order, side by
side (else the linker did not apply the list). Exits non-zero with the reason.
"""
import subprocess
import sys

HEAD = 150  # the core every translation runs (docs/bench.md "Cold translation")
MIN_FOUND = 0.8
# The head's functions are about 150 KB of code: if laid out together they span well under
# twice that; scattered over the binary's .text they span megabytes.
MAX_SPAN = 2 * 1024 * 1024 // 8
HOT_BEGIN, HOT_END = "kiln_hot_text_begin", "kiln_hot_text_end"
# Inside the hot block: the part every input kind runs, between the front ends' own parts.
COMMON_BEGIN, COMMON_END = "kiln_hot_common_begin", "kiln_hot_common_end"
MAX_HOT_BLOCK = 1 << 20  # kMaxBlock in translator/hot_code.cpp


def functions(binary):
    out = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True,
                         check=True).stdout
    addresses = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tTwW":
            addresses.setdefault(fields[2], int(fields[0], 16))
    return addresses


def check(listed, binary):
    addresses = functions(binary)
    head = listed[:HEAD]
    found = [name for name in head if name in addresses]
    if len(found) < MIN_FOUND * len(head):
        return (f"{binary}: only {len(found)} of the list's first {len(head)} functions are in it; "
                "regenerate scripts/link-order.txt (scripts/link_order.py)")
    places = [addresses[name] for name in found]
    out_of_order = sum(1 for a, b in zip(places, places[1:]) if b < a)
    if out_of_order:
        return f"{binary}: {out_of_order} of the listed functions lie out of the list's order"
    span = places[-1] - places[0]
    if span > MAX_SPAN:
        return f"{binary}: the listed functions span {span} bytes, not laid out together"
    markers = [addresses.get(m) for m in (HOT_BEGIN, COMMON_BEGIN, COMMON_END, HOT_END)]
    if None in markers:
        return (f"{binary}: no {HOT_BEGIN}, {COMMON_BEGIN}, {COMMON_END} or {HOT_END} "
                "(translator/hot_code.cpp)")
    if markers != sorted(markers):
        return f"{binary}: the hot block's markers lie out of order: {markers}"
    begin, end = markers[0], markers[-1]
    common = listed[listed.index(COMMON_BEGIN) + 1:listed.index(COMMON_END)]
    astray = [n for n in common if n in addresses and not markers[1] < addresses[n] < markers[2]]
    if astray:
        return f"{binary}: {len(astray)} functions of the common part lie outside its markers"
    core = [n for n in listed[listed.index(HOT_BEGIN) + 1:listed.index(HOT_END)]
            if n not in (COMMON_BEGIN, COMMON_END)]
    outside = [n for n in core if n in addresses and not begin < addresses[n] < end]
    if outside or not 0 < end - begin <= MAX_HOT_BLOCK:
        return (f"{binary}: the hot block [{begin:#x}, {end:#x}) does not hold the list's core "
                f"({len(outside)} of its functions outside)")
    print(f"{binary}: {len(found)}/{len(head)} listed functions in order over {span} bytes; "
          f"hot block {end - begin} bytes, common part {markers[2] - markers[1]} bytes")
    return None


def main():
    with open(sys.argv[1]) as f:
        listed = [line.strip()[len(".text."):] for line in f if line.startswith(".text.")]
    failures = [reason for reason in (check(listed, b) for b in sys.argv[2:]) if reason]
    for reason in failures:
        print(reason, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
