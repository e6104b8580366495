#!/usr/bin/env python3
"""Writes scripts/link-order.txt: the functions one translation runs, hottest first.

A cold translation (the first call for a shader, caches and TLB cold) pays for every code line
and page it touches; kiln's translator code is spread over a few MB of .text, so the functions
one shader runs sit on far more pages than their size needs. With -ffunction-sections each
function is a section of its own, and the linker's section ordering (gold's
--section-ordering-file; scripts/cmake/KilnLinkOrder.cmake) puts the listed ones side by side.

The list comes from a callgrind run of `kiln bench` over shader files: one dump per translation
(--dump-before the span overload of Translator::translate, collecting only inside
read_shader_input and the ShaderInput overload), then the functions by the share of one
input kind's translations (one profile per folder) that ran them, most first (the core that
every shader runs, then rarer opcodes' code), ties by instructions. Those that at least 90% of
one kind's translations run go between translator/hot_code.cpp's two markers: the block that
prefetch_hot_code() asks for at once when it finds it cold. Entries that no longer name a
function (renamed, inlined) are ignored by the linker: a stale list costs speed, never a build.

usage: scripts/link_order.py KILN_BINARY SHADER_DIR... [--every N] [--out FILE]
  --every N   take every Nth shader file of each folder (default 3; the full corpus is slow
              under callgrind)
  --out FILE  default scripts/link-order.txt beside this script
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys
import tempfile

# Collected: reading the input (the service reads it at submit) and translating it.
TOGGLES = ("_ZN4kiln17read_shader_inputE*", "_ZN4kiln10Translator9translateERKNS_11ShaderInputE*")
DUMP_BEFORE = "_ZN4kiln10Translator9translateESt4span*"
SIDECARS = (".hlsl", ".txt", ".json", ".tsv", ".md", ".spv")
# translator/hot_code.cpp's markers around the functions nearly every translation runs: the
# block prefetch_hot_code() asks for at once when it finds it cold.
HOT_BEGIN, HOT_END = "kiln_hot_text_begin", "kiln_hot_text_end"
HOT_SHARE = 0.9


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "link-order.txt"))
    args = parser.parse_args()
    # One profile per folder (one input kind each): a function's share is the largest share of
    # one kind's translations that ran it, so each front end's core counts as core.
    share, instructions, shaders = collections.Counter(), collections.Counter(), 0
    for folder in args.dirs:
        sampled = list(sample([folder], args.every))
        shaders += len(sampled)
        with tempfile.TemporaryDirectory() as workdir:
            runs, spent, translations = coverage(profile(args.binary, sampled, workdir),
                                                 args.binary)
        for fn, count in runs.items():
            share[fn] = max(share[fn], count / max(translations, 1))
        instructions.update(spent)
    # Split-off cold parts (.cold) stay where GCC put them: in .text.unlikely.
    hot = [fn for fn in share if not fn.endswith(".cold") and fn not in (HOT_BEGIN, HOT_END)]
    hot.sort(key=lambda fn: (-share[fn], -instructions[fn], fn))
    core = sum(1 for fn in hot if share[fn] >= HOT_SHARE)
    ordered = [HOT_BEGIN] + hot[:core] + [HOT_END] + hot[core:]
    with open(args.out, "w") as out:
        for fn in ordered:
            out.write(f".text.{fn}\n")
    print(f"{args.out}: {len(hot)} functions ({core} between the markers) from {shaders} "
          "shaders", file=sys.stderr)


if __name__ == "__main__":
    main()
