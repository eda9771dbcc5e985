// Drives the fake model with the official Anthropic TypeScript SDK and prints
// what the SDK made of each answer, one JSON line each.
// usage: node anthropic-sdk.cjs NODE_MODULES_DIR BASE_URL
const { createRequire } = require("node:module");
const path = require("node:path");
const load = createRequire(path.join(process.argv[2], "noop.js"));
const Anthropic = load("@anthropic-ai/sdk");

const client = new Anthropic({ baseURL: process.argv[3], apiKey: "fake", maxRetries: 0 });
const params = { model: "claude-test", max_tokens: 1024, messages: [{ role: "user", content: "hi" }] };

async function main() {
  const stream = client.messages.stream(params);
  let text = "";
  stream.on("text", (t) => { text += t; });
  const streamed = await stream.finalMessage();
  console.log(JSON.stringify({ kind: "stream", text, message: streamed }));

  const whole = await client.messages.create(params);
  console.log(JSON.stringify({ kind: "create", message: whole }));

  try {
    await client.messages.create({ ...params, stream: true });
    console.log(JSON.stringify({ kind: "error", error: "no error thrown" }));
  } catch (e) {
    console.log(JSON.stringify({ kind: "error", status: e.status, type: e.error && e.error.error && e.error.error.type, errMessage: e.error && e.error.error && e.error.error.message, sdkError: e.constructor.name }));
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
