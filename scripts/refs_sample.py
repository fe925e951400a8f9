#!/usr/bin/env python3
"""Sends `sightline refs NAME REPO` for a sample of each repository's method names to two
binaries and counts the answers that differ: what a change to `references` does beyond
the case it was made for. Names are taken from indented `name(...)` declarations of
non-test source files (methods, mostly), 40 per repository, shuffled with a fixed seed.
Prints the names sampled, how many answers changed, both binaries' characters, then each
changed answer's line counts.

usage: scripts/refs_sample.py OLD_BIN NEW_BIN REPO [REPO...]"""
import glob, os, random, re, subprocess, sys

DECLARATION = re.compile(
    r"^\s+(?:(?:public|private|protected|static|async)\s+)*(?:def\s+)?([a-z]\w{4,})\s*"
    r"\([^)]*\)\s*(?::|\{|->)", re.M)
KEYWORDS = {"while", "switch", "catch", "return", "function"}

random.seed(7)
old, new, repos = sys.argv[1], sys.argv[2], sys.argv[3:]
sizes, changed, sampled = [0, 0], [], 0
for repo in repos:
    names = set()
    for path in glob.glob(os.path.join(repo, "**", "*.*"), recursive=True):
        if "test" in path or not path.endswith((".ts", ".tsx", ".py", ".java", ".go", ".rs")):
            continue
        try:
            text = open(path, errors="ignore").read()
        except OSError:
            continue
        names.update(m.group(1) for m in DECLARATION.finditer(text))
    names = sorted(names - KEYWORDS)
    random.shuffle(names)
    for name in names[:40]:
        a = subprocess.run([old, "refs", name, repo], capture_output=True, text=True).stdout
        b = subprocess.run([new, "refs", name, repo], capture_output=True, text=True).stdout
        sampled += 1
        sizes[0] += len(a)
        sizes[1] += len(b)
        if a != b:
            changed.append((repo, name, a.count("\n"), b.count("\n")))
print(f"{sampled} names, {len(changed)} answers changed, characters {sizes[0]} -> {sizes[1]}")
for repo, name, a, b in changed:
    print(f"  {repo} {name}: {a} -> {b} lines")
