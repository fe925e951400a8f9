#!/usr/bin/env python3
"""Replays the `explore` calls agents made in agent A/B runs with two binaries and reports
which reports changed: how many, how many changed their first place, and whether the first
place's file changed. Deterministic, so it measures a change to the one-call report on the
queries agents actually write (not commit subjects), without a new A/B round.

usage: scripts/replay_explore.py OLD_BIN NEW_BIN LOG [LOG...]

Each LOG is an `mcpc/log.jsonl` of `../shared/agent-ab` (its repository is the `repo`
directory beside `mcpc`). A query asked twice of one repository is replayed once."""
import json, os, subprocess, sys

old, new, logs = sys.argv[1], sys.argv[2], sys.argv[3:]
seen = set()
changed = first = file_changed = 0
for log in logs:
    repo = os.path.join(os.path.dirname(os.path.dirname(log)), "repo")
    for line in open(log):
        e = json.loads(line)
        query = e["args"].get("query") if e["tool"] == "explore" else None
        intent = e["args"].get("intent", "locate") if query else None
        if not query or (repo, query, intent) in seen:
            continue
        seen.add((repo, query, intent))
        a, b = (subprocess.run([binary, "explore", query, repo, "--intent", intent],
                               capture_output=True, text=True).stdout for binary in (old, new))
        if a == b:
            continue
        changed += 1
        pa, pb = ([l for l in t.splitlines() if l.startswith("1. ")][:1] for t in (a, b))
        if pa != pb:
            first += 1
            fa, fb = (p[0].split(":")[0][3:] if p else None for p in (pa, pb))
            file_changed += fa != fb
            print(f"{query!r}\n  - {pa[0][:150] if pa else '(none)'}\n  + {pb[0][:150] if pb else '(none)'}")
print(f"\n{len(seen)} queries: {changed} reports changed, {first} first places, "
      f"{file_changed} of them to another file")
