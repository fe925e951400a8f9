#!/usr/bin/env python3
"""Sends every tool call an agent made in agent A/B runs to two binaries and totals the
characters of their replies: how much of a difference between two arms is the tools'
output, and how much the agents' choice of calls. Each LOG is an `mcpc/log.jsonl` of
`../shared/agent-ab`; its task's calls are replayed in order, in one server session per
binary, on the `repo` directory beside `mcpc`. Prints the tasks whose totals differ, then
the logged, old and new totals.

usage: scripts/replay_calls.py OLD_BIN NEW_BIN LOG [LOG...]"""
import json, subprocess, sys


def replies(binary, repo, calls):
    """The characters of each reply of `binary serve repo` to `calls`, in order."""
    server = subprocess.Popen([binary, "serve", repo], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              bufsize=1)
    next_id = [0]

    def rpc(method, params=None, notify=False):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        if not notify:
            next_id[0] += 1
            message["id"] = next_id[0]
        server.stdin.write(json.dumps(message) + "\n")
        server.stdin.flush()
        if notify:
            return {}
        while True:
            line = server.stdout.readline()
            if not line:
                return {}
            try:
                reply = json.loads(line)
            except ValueError:
                continue
            if reply.get("id") == next_id[0]:
                return reply

    rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "replay", "version": "0"}})
    rpc("notifications/initialized", notify=True)
    sizes = []
    for tool, args in calls:
        result = rpc("tools/call", {"name": tool, "arguments": args}).get("result", {})
        sizes.append(len("".join(c.get("text", "") for c in result.get("content", []))))
    server.kill()
    return sizes


old, new, logs = sys.argv[1], sys.argv[2], sys.argv[3:]
totals = {"logged": 0, "old": 0, "new": 0}
for log in sorted(logs):
    repo = log.replace("/mcpc/log.jsonl", "/repo")
    entries = [json.loads(line) for line in open(log)]
    calls = [(e["tool"], e["args"]) for e in entries]
    a, b = sum(replies(old, repo, calls)), sum(replies(new, repo, calls))
    totals["logged"] += sum(e["chars"] for e in entries)
    totals["old"] += a
    totals["new"] += b
    if a != b:
        print(log, a, b, flush=True)
print(" ".join(f"{k} {v}" for k, v in totals.items()))
