#!/usr/bin/env python3
"""The one-call `explore` as an A/B arm of its own: for each task of a workdir laid out by
`../shared/agent-ab/prepare.py`, run `BIN explore --json QUERY REPO` once (deterministic: no
model judges) with the task's text as the query, and score the files the report names (its
primary places' files, then its runners-up, `also`) against the gold the way `score.py`
scores an agent's files: hit@1 is the first primary place's file.

usage: scripts/explore_alone.py WORKDIR GOLD BIN

Characters are those of the report text an agent would read (the text of `--json`, which
is the CLI's and the MCP server's text); one call per task. Last, per confidence level the
report said: how many reports, and how many named a right file first."""
import collections, json, statistics, subprocess, sys

workdir, gold_path, binary = sys.argv[1:4]
gold = {g["id"]: set(g["gold_files"]) for g in json.load(open(gold_path))}
hit1 = hit5 = 0
chars = []
levels = collections.defaultdict(lambda: [0, 0])
for task in json.load(open(f"{workdir}/tasks.json")):
    repo = f"{workdir}/{task['id']}/sightline/repo"
    run = subprocess.run([binary, "explore", "--no-cache", "--json", task["query"], repo],
                         capture_output=True, text=True, check=True)
    out = json.loads(run.stdout)
    files = []
    for place in out["report"]["primary"]:
        if place["path"] not in files:
            files.append(place["path"])
    for path in out["report"].get("also", []):
        if path not in files:
            files.append(path)
    g = gold[task["id"]]
    first = bool(files) and files[0] in g
    any5 = any(f in g for f in files[:5])
    hit1 += first
    hit5 += any5
    chars.append(len(out["text"]))
    level = out["report"].get("confidence", "?")
    levels[level][0] += 1
    levels[level][1] += first
    print(f"{task['id']} {len(out['text'])} chars, {level}, first {'right' if first else 'wrong'}: {files[:5]}")
n = len(chars)
print(f"| explore alone | {n} | {hit1 / n:.2f} | {hit5 / n:.2f} | {statistics.median(chars):.0f} | "
      f"{statistics.mean(chars):.0f} | 1.0 |")
for level in ("high", "medium", "low"):
    n_at, right = levels.get(level, (0, 0))
    print(f"{level}: {n_at} reports, first right {right}")
