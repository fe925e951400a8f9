// Drives `sightline serve` with the official MCP TypeScript SDK (npm
// @modelcontextprotocol/sdk), whose client compiles every tool's outputSchema with Ajv and
// rejects a result whose structuredContent does not validate, or that has an output schema
// and no structuredContent. Exits non-zero on any problem.
//
// usage: node node_client.mjs <sdk prefix> <sightline binary> <repository>
// where <sdk prefix> is the directory `npm install --prefix` installed the SDK under.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";

const [prefix, binary, repo] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(prefix), "client.cjs"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

const NON_PORTABLE = ["$ref", "$defs", "definitions", "oneOf", "anyOf", "allOf"];

function walk(schema, at) {
  if (Array.isArray(schema)) {
    schema.forEach((item, i) => walk(item, `${at}[${i}]`));
  } else if (schema && typeof schema === "object") {
    for (const [key, value] of Object.entries(schema)) {
      assert.ok(!NON_PORTABLE.includes(key), `${at} uses ${key}`);
      if (key === "type") assert.equal(typeof value, "string", `${at} has a type list`);
      walk(value, `${at}.${key}`);
    }
  }
}

const textOf = (result) =>
  result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

// The SDK has validated structuredContent against the schema by now; a client that forwards
// only structuredContent must also lose nothing the text says.
function sameInformation(tool, result) {
  assert.ok(!result.isError, `${tool} failed: ${textOf(result)}`);
  const structured = JSON.stringify(result.structuredContent);
  for (const line of textOf(result).split("\n")) {
    if (line.trim()) {
      assert.ok(
        structured.includes(JSON.stringify(line).slice(1, -1)),
        `${tool}: ${JSON.stringify(line)} missing from structuredContent`,
      );
    }
  }
  return result;
}

const client = new Client({ name: "sightline-sdk-test", version: "0.0.0" });
await client.connect(
  new StdioClientTransport({
    command: binary,
    args: ["serve", "--no-cache", "--tools", "all", repo],
    stderr: "ignore",
  }),
);
assert.equal(client.getServerVersion().name, "sightline");
const { tools } = await client.listTools();
const names = new Set(tools.map((t) => t.name));
for (const name of ["explore", "explore_code", "grep", "read_file", "definition", "references", "outline", "submit_report"]) {
  assert.ok(names.has(name), `no ${name} in ${[...names]}`);
}
for (const t of tools) {
  walk(t.inputSchema, `${t.name}.input`);
  walk(t.outputSchema ?? {}, `${t.name}.output`);
  assert.ok(t.annotations?.readOnlyHint, `${t.name} is not read-only`);
}
const call = async (name, args) => sameInformation(name, await client.callTool({ name, arguments: args }));

await call("explore", { query: "validateDraft" });
const first = await call("explore_code", { query: "validateDraft" });
const session = first.structuredContent.session;
const found = await call("definition", { session, name: "validateDraft" });
const place = /^(\S+):\d+(?:-\d+)? \[(c\d+)\]/m.exec(textOf(found));
assert.ok(place, textOf(found));
const [, file, id] = place;
await call("read_file", { session, path: `${file} ${file}:1-3` });
await call("references", { session, name: id });
await call("outline", { session, path: "src" });
await call("grep", { session, pattern: "validateDraft", context: 1 });
await call("submit_report", {
  session,
  primary: [id],
  action: "read_targets",
  confidence: "medium",
  read_targets: [{ candidate: id, purpose: "the change", required: true }],
});
// A tool's own failure is a result marked isError, which the SDK accepts without
// structuredContent; it must not be a protocol error.
const missing = await client.callTool({ name: "read_file", arguments: { path: "no/such/file.ts" } });
assert.ok(missing.isError, "a missing file is a tool error");
const { prompts } = await client.listPrompts();
assert.ok(prompts.some((p) => p.name === "map_code"), JSON.stringify(prompts));
await client.close();
console.log("ok");
