#!/usr/bin/env python3
"""What a Sightline agent spends after its first `explore`, by the report's confidence and
by where the changed file was in it: first, listed (a later place or `also:`), or absent.
Says whether agents act on the report's level and how often the answer was on its list.

Reads the Sightline arms of agent A/B runs laid out by ../shared/agent-ab/prepare.py
(WORKDIR/<id>/sightline/mcpc/log.jsonl) and their gold files.

usage: scripts/ab_after_explore.py WORKDIR:GOLD [WORKDIR:GOLD ...]
"""
import collections, json, os, re, statistics, sys

rows = collections.defaultdict(list)
for arg in sys.argv[1:]:
    workdir, gold_path = arg.split(":", 1)
    gold = {g["id"]: set(g["gold_files"]) for g in json.load(open(gold_path))}
    for tid, files in gold.items():
        log = os.path.join(workdir, tid, "sightline", "mcpc", "log.jsonl")
        if not os.path.exists(log):
            continue
        calls = [json.loads(line) for line in open(log)]
        for i, call in enumerate(calls):
            if call["tool"] != "explore":
                continue
            text = call.get("text", "")
            level = re.match(r"confidence: (\w+)", text)
            places = re.findall(r"^\d+\. (\S+?):", text, re.M)
            also = re.search(r"^also: (.*)$", text, re.M)
            listed = places + (also.group(1).split(", ") if also else [])
            where = ("first" if listed and listed[0] in files
                     else "listed" if any(f in files for f in listed) else "absent")
            after = calls[i + 1:]
            rows[(level.group(1) if level else "?", where)].append(
                (sum(c["chars"] for c in after), len(after)))
            break
print("| confidence | changed file | tasks | characters after (median) | calls after (mean) |")
print("|---|---|---|---|---|")
for (level, where), v in sorted(rows.items()):
    print(f"| {level} | {where} | {len(v)} | {statistics.median(c for c, _ in v):,.0f} | "
          f"{statistics.mean(n for _, n in v):.2f} |")
