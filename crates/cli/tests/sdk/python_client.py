"""Drives `sightline serve` with the official MCP Python SDK, which validates every tool
result's structuredContent against the tool's outputSchema. Exits non-zero on any problem.

usage: python_client.py <sightline binary> <repository>
"""
import asyncio
import json
import re
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

NON_PORTABLE = ("$ref", "$defs", "definitions", "oneOf", "anyOf", "allOf")


def walk(schema, path="schema"):
    if isinstance(schema, dict):
        for key, value in schema.items():
            assert key not in NON_PORTABLE, f"{path} uses {key}"
            if key == "type":
                assert isinstance(value, str), f"{path} has a type list {value}"
            walk(value, f"{path}.{key}")
    elif isinstance(schema, list):
        for i, item in enumerate(schema):
            walk(item, f"{path}[{i}]")


def text_of(result):
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def check_same_information(tool, result):
    assert not result.is_error, f"{tool} failed: {text_of(result)}"
    structured = json.dumps(result.structured_content)
    for line in text_of(result).splitlines():
        if line.strip():
            assert json.dumps(line)[1:-1] in structured, f"{tool}: {line!r} missing from structuredContent"


async def main(binary, repo):
    params = StdioServerParameters(command=binary, args=["serve", "--no-cache", "--tools", "all", repo])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.server_info.name == "sightline"
            tools = (await session.list_tools()).tools
            names = {t.name for t in tools}
            assert {"explore_code", "grep", "read_file", "definition", "references", "outline", "submit_report"} <= names, names
            for t in tools:
                walk(t.input_schema, f"{t.name}.input")
                walk(t.output_schema or {}, f"{t.name}.output")
                assert t.annotations and t.annotations.read_only_hint, f"{t.name} is not read-only"
            first = await session.call_tool("explore_code", {"query": "validateDraft"})
            check_same_information("explore_code", first)
            sid = first.structured_content["session"]
            found = await session.call_tool("definition", {"session": sid, "name": "validateDraft"})
            check_same_information("definition", found)
            place = re.search(r"^(\S+):\d+(?:-\d+)? \[(c\d+)\]", text_of(found), re.M)
            assert place, text_of(found)
            cand = {"path": place.group(1), "id": place.group(2)}
            read = await session.call_tool("read_file", {"session": sid, "path": cand["path"]})
            check_same_information("read_file", read)
            for tool, args in [("references", {"name": cand["id"]}), ("outline", {"path": "src"})]:
                check_same_information(tool, await session.call_tool(tool, {"session": sid, **args}))
            grep = await session.call_tool("grep", {"session": sid, "pattern": "validateDraft", "context": 1})
            check_same_information("grep", grep)
            report = await session.call_tool("submit_report", {
                "session": sid, "primary": [cand["id"]], "action": "read_targets", "confidence": "medium",
                "read_targets": [{"candidate": cand["id"], "purpose": "the change", "required": True}]})
            check_same_information("submit_report", report)
            prompts = (await session.list_prompts()).prompts
            assert any(p.name == "map_code" for p in prompts), prompts
    print("ok")


asyncio.run(main(sys.argv[1], sys.argv[2]))
