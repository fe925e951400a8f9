#!/usr/bin/env python3
"""Score flow-question A/B runs (scripts/flow_ab/prepare.py): per workdir, characters and
calls per task from the logs, and the share of each task's gold declarations and files the
agent's chain and files name (a declaration by its last name segment, case-insensitive).

usage: scripts/flow_ab/score.py [--tasks FILE] WORKDIR...  (FILE: the set prepare.py laid out,
default tasks.json beside this script)"""
import glob, json, os, statistics as st, sys

args = sys.argv[1:]
tasks_file = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tasks.json")
if args[:1] == ["--tasks"]:
    tasks_file, args = args[1], args[2:]
gold = {t["id"]: t for t in json.load(open(tasks_file))}
for w in args:
    results = glob.glob(os.path.join(w, "results-*.json"))
    answers = {r["id"]: r for r in json.load(open(results[0]))} if results else {}
    rows = []
    for tid, g in sorted(gold.items()):
        logs = glob.glob(os.path.join(w, tid, "shell", "log.jsonl")) + \
            glob.glob(os.path.join(w, tid, "sightline", "mcpc", "log.jsonl"))
        calls = [json.loads(l) for log in logs for l in open(log)]
        r = answers.get(tid, {})
        names = [c.get("name", "").split(".")[-1].split("(")[0].lstrip("#").lower() for c in r.get("chain", [])]
        files = set(r.get("files", [])) | {c.get("file", "") for c in r.get("chain", [])}
        decls = sum(d.lower() in names for d in g["gold_decls"]) / len(g["gold_decls"])
        found = sum(f in files for f in g["gold_files"]) / len(g["gold_files"])
        rows.append((tid, sum(c["chars"] for c in calls), len(calls), decls, found))
    print(f"{w}: median chars {st.median(r[1] for r in rows):,.0f}, mean {st.mean(r[1] for r in rows):,.0f}, "
          f"calls {st.mean(r[2] for r in rows):.2f}, gold declarations named {st.mean(r[3] for r in rows):.3f}, "
          f"gold files named {st.mean(r[4] for r in rows):.3f}")
    for r in rows:
        print(f"  {r[0]} {r[1]:,} chars, {r[2]} calls, declarations {r[3]:.2f}, files {r[4]:.2f}")
