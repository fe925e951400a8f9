#!/usr/bin/env python3
"""Pools several agent A/B sets of one arm (each a WORKDIR laid out by `../shared/agent-ab`
prepare.py, with its gold file) per task: the median and mean characters, the mean calls,
how many tasks named a changed file first, and, for a Sightline arm, how many tasks called
`explore` and opened with it, and each tool's calls and characters. Twelve tasks are too
few to compare arms; a round's sets pooled are less so.

usage: scripts/pool_ab.py WORKDIR:GOLD [WORKDIR:GOLD...]"""
import collections, json, os, statistics, sys

chars, calls, hits = [], [], 0
explored = opened = 0
tools = collections.Counter()
tool_chars = collections.Counter()
arm = None
for pair in sys.argv[1:]:
    workdir, gold_path = pair.split(":", 1)
    gold = {g["id"]: set(g["gold_files"]) for g in json.load(open(gold_path))}
    for name, log in (("shell", "shell/log.jsonl"), ("sightline", "sightline/mcpc/log.jsonl")):
        results = os.path.join(workdir, f"results-{name}.json")
        if os.path.exists(results):
            arm = name
            break
    else:
        sys.exit(f"{workdir}: no results-shell.json or results-sightline.json")
    answers = {r["id"]: r["files"] for r in json.load(open(results))}
    for task, changed in gold.items():
        path = os.path.join(workdir, task, log)
        entries = [json.loads(l) for l in open(path)] if os.path.exists(path) else []
        entries = [e for e in entries if e.get("tool") != "tools"]
        chars.append(sum(e["chars"] for e in entries))
        calls.append(len(entries))
        files = answers.get(task, [])
        hits += bool(files) and files[0] in changed
        used = [e.get("tool") for e in entries]
        explored += "explore" in used
        opened += bool(used) and used[0] == "explore"
        for e in entries:
            tools[e.get("tool", "sh")] += 1
            tool_chars[e.get("tool", "sh")] += e["chars"]
print(f"{arm}: {len(chars)} tasks, characters median {statistics.median(chars):,.0f} "
      f"mean {statistics.mean(chars):,.0f}, calls {statistics.mean(calls):.2f}, "
      f"changed file first {hits}")
if arm == "sightline":
    print(f"explore called in {explored} tasks, first in {opened}")
    for tool, n in tools.most_common():
        print(f"  {tool}: {n} calls, {tool_chars[tool]:,} characters")
