#!/usr/bin/env python3
"""Lay out a flow-question agent A/B run: "how does X reach Y" questions about the newest
snapshot of evaluation repositories, one copy of each repository per task and arm (without
.git), the questions for the agents in WORKDIR/tasks.json and the gold kept out of it.

usage: scripts/flow_ab/prepare.py WORKDIR ARM [--tasks FILE] [--eval DIR]
  ARM: shell or sightline (the directory each task's copy goes in, as ../shared/agent-ab
  lays them out, so its `sh` and `mcpc.py` work unchanged)

  --tasks: the question set (default tasks.json beside this script; tasks-named.json holds
  16 more, each naming its start and describing its end, written from the code by a helper
  that never ran Sightline)

Score with scripts/flow_ab/score.py [--tasks FILE] WORKDIR... (the gold is the set's file)."""
import argparse, json, os, subprocess, tempfile

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("workdir")
ap.add_argument("arm", choices=["shell", "sightline"])
ap.add_argument("--eval", default=os.path.join(here, "..", "..", "..", "shared", "eval"))
ap.add_argument("--tasks", default=os.path.join(here, "tasks.json"))
a = ap.parse_args()
tasks = json.load(open(a.tasks))
os.makedirs(a.workdir, exist_ok=True)
json.dump([{"id": t["id"], "repo": t["repo"], "question": t["question"]} for t in tasks],
          open(os.path.join(a.workdir, "tasks.json"), "w"), indent=1)
trees = {}
for t in tasks:
    if t["repo"] not in trees:
        tmp = tempfile.mkdtemp(prefix="flow")
        subprocess.run(["git", "clone", "-q", "--mirror",
                        os.path.join(a.eval, "snapshots", t["repo"] + ".bundle"), tmp + "/r"],
                       check=True, capture_output=True)
        # The newest snapshot: the last commit made.
        newest = subprocess.run(["git", "-C", tmp + "/r", "log", "--all", "-1", "--format=%H"],
                                check=True, capture_output=True, text=True).stdout.strip()
        trees[t["repo"]] = (tmp + "/r", newest)
    repo, commit = trees[t["repo"]]
    dest = os.path.join(a.workdir, t["id"], a.arm, "repo")
    os.makedirs(dest)
    archive = subprocess.run(["git", "-C", repo, "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", dest], input=archive, check=True)
print(f"{len(tasks)} tasks in {a.workdir} ({a.arm})")
