// Usage: node client.mjs <albert-code binary> <repository>
// Spawns `albert-code graph mcp --repo <repository>` over stdio with the official
// TypeScript SDK, indexes, searches and asks for one symbol, and prints what it
// saw, with the prompts it lists and one it gets, as one JSON object for
// interop_test.go to check.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [binary, repo] = process.argv.slice(2);
const transport = new StdioClientTransport({ command: binary, args: ["graph", "mcp", "--repo", repo], stderr: "inherit" });
const client = new Client({ name: "albert-code-interop", version: "1.0.0" });
await client.connect(transport);

const text = (res) => JSON.parse(res.content[0].text);
const out = { protocolVersion: transport._protocolVersion ?? null };
out.tools = (await client.listTools()).tools.map((t) => t.name).sort();
out.analyze = text(await client.callTool({ name: "analyze_codebase", arguments: {} }));
// A first index answers from its first pass; the type checker's lands in the
// background, and health_check says when (bounded: the Go test's timeout).
out.healthWhilePending = null;
for (let i = 0; i < 1200; i++) {
  const health = text(await client.callTool({ name: "health_check", arguments: {} }));
  if (!health.types_pending) break;
  out.healthWhilePending = health.types_pending;
  await new Promise((r) => setTimeout(r, 100));
}
const search = await client.callTool({ name: "search_codebase", arguments: { query: "Describe", limit: 3 } });
out.search = text(search);
out.searchStructured = search.structuredContent ?? null;
out.symbol = text(await client.callTool({ name: "get_symbol", arguments: { symbol: "example.com/fixture/shapes.Register" } }));
const unknown = await client.callTool({ name: "get_symbol", arguments: { symbol: "Describ" } });
out.unknown = { isError: unknown.isError === true, ...text(unknown) };
out.prompts = (await client.listPrompts()).prompts.map((p) => ({ name: p.name, args: (p.arguments ?? []).map((a) => a.name) }));
const explore = await client.getPrompt({ name: "explore_codebase", arguments: { focus: "Register" } });
out.explore = explore.messages.map((m) => m.content.text).join("\n");
try {
  await client.callTool({ name: "no_such_tool", arguments: {} });
  out.noSuchTool = "answered";
} catch (e) {
  out.noSuchTool = String(e.message);
}
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
