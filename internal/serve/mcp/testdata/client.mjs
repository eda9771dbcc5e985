// Usage: MCP_SDK=<folder of @modelcontextprotocol/sdk> node client.mjs <url> <token>
// Connects to the serve layer's /mcp with the official TypeScript SDK's Streamable
// HTTP client, calls list_files, write_file, read_file and run_prompt, and prints
// what it saw as one JSON object for interop_test.go to check. The SDK is the one
// pinned for the code graph's interop test (internal/graph/mcpserver/testdata/client).
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const sdk = process.env.MCP_SDK;
const { Client } = await import(pathToFileURL(join(sdk, "dist/esm/client/index.js")).href);
const { StreamableHTTPClientTransport } = await import(pathToFileURL(join(sdk, "dist/esm/client/streamableHttp.js")).href);

const [url, token] = process.argv.slice(2);
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: "albert-code-serve-interop", version: "1.0.0" });
await client.connect(transport);

const text = (res) => res.content.map((c) => c.text).join("");
const out = { sessionId: transport.sessionId ?? null };
out.tools = (await client.listTools()).tools.map((t) => t.name).sort();
out.write = JSON.parse(text(await client.callTool({ name: "write_file", arguments: { path: "ts/hello.txt", content: "bonjour" } })));
out.read = JSON.parse(text(await client.callTool({ name: "read_file", arguments: { path: "ts/hello.txt" } })));
out.list = JSON.parse(text(await client.callTool({ name: "list_files", arguments: { path: "ts" } })));
const escape = await client.callTool({ name: "read_file", arguments: { path: "../outside" } });
out.escape = { isError: escape.isError === true, text: text(escape) };
const run = await client.callTool({ name: "run_prompt", arguments: { prompt: "say hi", workspace: "ts" } });
out.run = { isError: run.isError === true, text: text(run), structured: run.structuredContent ?? null };
await transport.terminateSession();
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
