#!/usr/bin/env python3
"""Writes scripts/link-order.txt: the functions one translation runs, hottest first.

A cold translation (the first call for a shader, caches and TLB cold) pays for every code line
and page it touches; kiln's translator code is spread over a few MB of .text, so the functions
one shader runs sit on far more pages than their size needs. With -ffunction-sections each
function is a section of its own, and the linker's section ordering (gold's
--section-ordering-file; scripts/cmake/KilnLinkOrder.cmake) puts the listed ones side by side.

The list comes from a callgrind run of `kiln bench` per input kind (one folder each, named dxbc
and d3d9) over every Nth shader file: one dump per translation (--dump-before the span overload
of Translator::translate, collecting only inside read_shader_input and the ShaderInput overload);
a function's share is the share of one kind's translations that ran it. The functions that at
least 5% of one kind's translations run form the hot block, between translator/hot_code.cpp's
markers: DXBC's own part (the functions D3D9 translations run less often), the part both kinds
run, then D3D9's own part, each most-run first (ties by instructions). prefetch_hot_code() asks
for the input's own part and the common one when it finds them cold, not for the other front
end's. The functions outside the block follow, by share. Entries that no longer name a function
(renamed, inlined) are ignored by the linker: a stale list costs speed, never a build.
(Ordering each part by first use instead, the order a translation first reaches the functions,
measured slower: docs/bench.md "The block's size and order".)

usage: scripts/link_order.py KILN_BINARY DXBC_DIR D3D9_DIR [--every N] [--profile FILE]
                             [--out FILE]
  --every N       callgrind over every Nth shader file of each folder (default 3; the full corpus
                  is slow under callgrind)
  --profile FILE  keep the profiles in FILE (JSON); when it exists, lay out from it without
                  profiling again
  --out FILE      default scripts/link-order.txt beside this script
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

# Collected: reading the input (the service reads it at submit) and translating it.
TOGGLES = ("_ZN4kiln17read_shader_inputE*", "_ZN4kiln10Translator9translateERKNS_11ShaderInputE*")
DUMP_BEFORE = "_ZN4kiln10Translator9translateESt4span*"
SIDECARS = (".hlsl", ".txt", ".json", ".tsv", ".md", ".spv")
# translator/hot_code.cpp's markers around the functions translations run: the block whose
# parts prefetch_hot_code() asks for at once when it finds them cold. A block of the functions
# that 90% of one kind's translations run (195 KB) measured slower than this share's (370 KB).
HOT_BEGIN, HOT_END = "kiln_hot_text_begin", "kiln_hot_text_end"
HOT_SHARE = 0.05
# Inside the hot block, around the part that every input kind's translations run.
COMMON_MARKERS = ("kiln_hot_common_begin", "kiln_hot_common_end")
# The input kinds (one folder each, named so), in the order of their parts of the hot block.
KINDS = ("dxbc", "d3d9")


def sample(dirs, every):
    for d in dirs:
        files = sorted(f for f in os.listdir(d) if not f.endswith(SIDECARS))
        for i, name in enumerate(files):
            if i % every == every - 1:
                yield os.path.join(d, name)


def profile(binary, shaders, workdir):
    links = os.path.join(workdir, "shaders")
    os.mkdir(links)
    for i, path in enumerate(shaders):
        os.symlink(os.path.abspath(path), os.path.join(links, f"{i:05d}_{os.path.basename(path)}"))
    out = os.path.join(workdir, "cg.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", "--dump-instr=no",
                    *(f"--toggle-collect={t}" for t in TOGGLES), f"--dump-before={DUMP_BEFORE}",
                    f"--callgrind-out-file={out}", binary, "bench", links, "--reps", "1",
                    "--no-service", "--quiet"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    parts = glob.glob(out + ".*")
    return sorted(parts, key=lambda p: int(p.rsplit(".", 1)[1]))


def coverage(parts, binary):
    """(translations that ran it, self instructions) per function of BINARY."""
    names = {"ob": {}, "fn": {}}
    compressed = re.compile(r"\((\d+)\)(?: (.*))?")

    def name(kind, text):
        m = compressed.match(text)
        if not m:
            return text
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind].get(m.group(1), "?")

    runs, instructions = collections.Counter(), collections.Counter()
    translations = 0
    target = os.path.realpath(binary)
    for part in parts:
        ob = fn = None
        skip_call_cost = False
        ran = collections.Counter()
        with open(part, errors="replace") as f:
            for line in f:
                if skip_call_cost:  # the inclusive cost line after calls=
                    skip_call_cost = False
                    continue
                head = line[:1]
                if head.isdigit() or head in "+-*":
                    fields = line.split()
                    if fn is not None and len(fields) >= 2 and ob == target:
                        ran[fn] += int(fields[1])
                elif line.startswith("ob="):
                    ob = os.path.realpath(name("ob", line[3:].strip()))
                elif line.startswith("fn="):
                    fn = name("fn", line[3:].strip())
                elif line.startswith("cob="):
                    name("ob", line[4:].strip())
                elif line.startswith("cfn="):
                    name("fn", line[4:].strip())
                elif line.startswith("calls="):
                    skip_call_cost = True
        translations += 1 if ran else 0
        for fn, count in ran.items():
            if count > 0:
                runs[fn] += 1
                instructions[fn] += count
    return runs, instructions, translations


def measure(args):
    """The profiles: per folder (one input kind each), the share of its translations that ran
    each function and the instructions spent in it."""
    kinds = {}
    for folder in args.dirs:
        sampled = list(sample([folder], args.every))
        with tempfile.TemporaryDirectory() as workdir:
            runs, spent, translations = coverage(profile(args.binary, sampled, workdir),
                                                 args.binary)
        kinds[os.path.basename(os.path.normpath(folder))] = {
            "shaders": len(sampled),
            "share": {fn: count / max(translations, 1) for fn, count in runs.items()},
            "instructions": dict(spent),
        }
    return kinds


def layout(kinds):
    """The list: the hot block (DXBC's own part, the part both kinds run, D3D9's own part), then
    the rest of the functions the profiles ran. Each part most-run first."""
    if sorted(kinds) != sorted(KINDS):
        sys.exit(f"profiles of {sorted(kinds)}: the hot block's parts need one folder per kind, "
                 f"named {' and '.join(KINDS)}")
    share, instructions = collections.Counter(), collections.Counter()
    for profile_of_kind in kinds.values():
        for fn, s in profile_of_kind["share"].items():
            share[fn] = max(share[fn], s)
        instructions.update(profile_of_kind["instructions"])
    markers = {HOT_BEGIN, HOT_END, *COMMON_MARKERS}
    # Split-off cold parts (.cold) stay where GCC put them: in .text.unlikely. Callgrind names a
    # recursive call's inner levels fn'2, fn'3: the function itself is listed under its name.
    ran = [fn for fn in share if not fn.endswith(".cold") and "'" not in fn and fn not in markers]

    def hot_for(kind, fn):
        return kinds[kind]["share"].get(fn, 0.0) >= HOT_SHARE

    def most_run_first(fns, key_share):
        return sorted(fns, key=lambda fn: (-key_share(fn), -instructions[fn], fn))

    common = [fn for fn in ran if all(hot_for(k, fn) for k in KINDS)]
    own = [[fn for fn in ran if hot_for(k, fn) and fn not in common] for k in KINDS]
    in_block = set(common).union(*own)
    rest = [fn for fn in ran if fn not in in_block]
    # DXBC's own part before the common one, D3D9's after it (translator/hot_code.cpp).
    ordered = [HOT_BEGIN]
    ordered += most_run_first(own[0], lambda fn: kinds[KINDS[0]]["share"].get(fn, 0.0))
    ordered += [COMMON_MARKERS[0]] + most_run_first(common, share.get) + [COMMON_MARKERS[1]]
    ordered += most_run_first(own[1], lambda fn: kinds[KINDS[1]]["share"].get(fn, 0.0))
    ordered += [HOT_END] + most_run_first(rest, share.get)
    return ordered, len(common), [len(fns) for fns in own]


def section_of(fn):
    """The section -ffunction-sections gives FN: a complete-object constructor or destructor (C1,
    D1) is an alias of the base-object one (C2, D2), whose section holds the code."""
    if fn.startswith("_ZN"):
        fn = re.sub(r"(?<=[A-Za-z0-9_])([CD])1E", r"\g<1>2E", fn, count=1)
    return f".text.{fn}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--profile")
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "link-order.txt"))
    args = parser.parse_args()
    if args.profile and os.path.exists(args.profile):
        with open(args.profile) as f:
            kinds = json.load(f)
    else:
        kinds = measure(args)
        if args.profile:
            with open(args.profile, "w") as f:
                json.dump(kinds, f)
    ordered, common, own = layout(kinds)
    with open(args.out, "w") as out:
        for section in dict.fromkeys(section_of(fn) for fn in ordered):
            out.write(f"{section}\n")
    print(f"{args.out}: {len(ordered) - 4} functions; in the hot block {common} that both kinds "
          f"run, {own[0]} {KINDS[0]} only, {own[1]} {KINDS[1]} only", file=sys.stderr)


if __name__ == "__main__":
    main()
