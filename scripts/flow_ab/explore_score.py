#!/usr/bin/env python3
"""What the one-call `explore` answers to the flow questions, with no agent: for each
question of a set, `BIN explore QUESTION TREE --intent INTENT` on the newest snapshot of its
repository, and how many of the question's gold declarations (distinct, by their last name
segment) and gold files the report names, its characters, and whether it shows a flow.
Deterministic: the figure to compare two builds by, before an agent A/B.

usage: scripts/flow_ab/explore_score.py BIN [BIN...] [--tasks FILE]... [--intent I] [--eval DIR]
  --tasks: question sets (default tasks.json and tasks-named.json beside this script)
  --intent: explain (default), locate, edit or debug
Trees are extracted once under $TMPDIR/sightline-flow-trees (by the snapshot's commit)."""
import argparse, json, os, re, subprocess, tempfile

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("bins", nargs="+")
ap.add_argument("--tasks", action="append")
ap.add_argument("--intent", default="explain")
ap.add_argument("--eval", default=os.path.join(here, "..", "..", "..", "shared", "eval"))
ap.add_argument("-v", "--verbose", action="store_true")
a = ap.parse_args()
sets = a.tasks or [os.path.join(here, "tasks.json"), os.path.join(here, "tasks-named.json")]
cache = os.path.join(tempfile.gettempdir(), "sightline-flow-trees")


def tree(repo):
    """The newest snapshot of `repo`, extracted once."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["git", "clone", "-q", "--mirror",
                        os.path.join(a.eval, "snapshots", repo + ".bundle"), tmp + "/r"],
                       check=True, capture_output=True)
        newest = subprocess.run(["git", "-C", tmp + "/r", "log", "--all", "-1", "--format=%H"],
                                check=True, capture_output=True, text=True).stdout.strip()
        dest = os.path.join(cache, f"{repo}-{newest[:12]}")
        if not os.path.isdir(dest):
            os.makedirs(dest + ".part", exist_ok=True)
            archive = subprocess.run(["git", "-C", tmp + "/r", "archive", newest],
                                     check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", dest + ".part"], input=archive, check=True)
            os.rename(dest + ".part", dest)
    return dest


trees = {}
for bin_ in a.bins:
    total = named = files = files_total = chars = flows = 0
    for path in sets:
        for t in json.load(open(path)):
            if t["repo"] not in trees:
                trees[t["repo"]] = tree(t["repo"])
            out = subprocess.run([bin_, "explore", t["question"], trees[t["repo"]], "--intent", a.intent],
                                 capture_output=True, text=True).stdout
            words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", out))
            gold = {d.split(".")[-1].split("::")[-1] for d in t["gold_decls"]}
            n = sum(d in words for d in gold)
            f = sum(g in out for g in t["gold_files"])
            flow = "\nflow:" in out
            total += len(gold); named += n; files += f; files_total += len(t["gold_files"])
            chars += len(out); flows += flow
            print(f"{os.path.basename(path)} {t['id']} {t['repo']}: declarations {n}/{len(gold)}, "
                  f"files {f}/{len(t['gold_files'])}, {len(out):,} chars{', flow' if flow else ''}")
            if a.verbose:
                print(out)
    print(f"{bin_}: gold declarations named {named}/{total}, gold files {files}/{files_total}, "
          f"{chars:,} characters, {flows} reports with a flow")
