// Drives the OpenAI-compatible endpoint with the official openai SDK: plain chat,
// streamed chat with usage, a tool call round trip and json_schema; then, on a CLI
// agent's endpoint, an image as a data URL with a run header, a malformed header and
// a remote image. Prints one JSON line of what it saw; interop_test.go checks it.
// Usage: node client.mjs BASE_URL TOKEN CLI_BASE_URL
import OpenAI from "openai";

const [baseURL, apiKey, cliURL] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 20000 });
const out = {};

const plain = await client.chat.completions.create({
  model: "", messages: [{ role: "user", content: "Salut" }],
});
out.plain = { id: plain.id, object: plain.object, content: plain.choices[0].message.content, finish: plain.choices[0].finish_reason, usage: plain.usage };

const stream = await client.chat.completions.create({
  model: "", messages: [{ role: "user", content: "Count" }], stream: true, stream_options: { include_usage: true },
});
let text = "", chunks = 0, usage = null, finish = null;
for await (const c of stream) {
  chunks++;
  if (c.usage) usage = c.usage;
  for (const ch of c.choices) {
    text += ch.delta?.content ?? "";
    if (ch.finish_reason) finish = ch.finish_reason;
  }
}
out.stream = { text, chunks, usage, finish };

const tools = [{ type: "function", function: { name: "get_weather", description: "Weather of a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } }];
const messages = [{ role: "user", content: "Weather in Lyon?" }];
const runner = client.chat.completions.stream({ model: "", messages, tools, tool_choice: "auto" });
const first = await runner.finalChatCompletion();
const call = first.choices[0].message.tool_calls[0];
messages.push(first.choices[0].message);
messages.push({ role: "tool", tool_call_id: call.id, content: "18C" });
const second = await client.chat.completions.create({ model: "", messages, tools });
out.tools = { finish: first.choices[0].finish_reason, name: call.function.name, args: JSON.parse(call.function.arguments), id: call.id, answer: second.choices[0].message.content };

const structured = await client.chat.completions.create({
  model: "", messages: [{ role: "user", content: "Weather in Lyon as JSON" }],
  response_format: { type: "json_schema", json_schema: { name: "weather", strict: true, schema: {
    type: "object", properties: { city: { type: "string" }, temp: { type: "integer" } }, required: ["city", "temp"], additionalProperties: false } } },
});
out.schema = JSON.parse(structured.choices[0].message.content);

try {
  await client.chat.completions.create({ model: "gpt-9", messages: [{ role: "user", content: "x" }] });
  out.notFound = "no error";
} catch (e) {
  out.notFound = { status: e.status, code: e.code, param: e.param, cls: e.constructor.name };
}
const cli = new OpenAI({ baseURL: cliURL, apiKey, maxRetries: 0, timeout: 20000 });
const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ";
const seen = await cli.chat.completions.create({ model: "", messages: [{ role: "user", content: [
  { type: "text", text: "What is this?" }, { type: "image_url", image_url: { url: `data:image/png;base64,${png}` } }] }] },
  { headers: { "x-aicodebox-timeout-seconds": "30" } });
out.image = seen.choices[0].message.content;
const refused = async (body, options) => {
  try {
    await cli.chat.completions.create(body, options);
    return "no error";
  } catch (e) {
    return { status: e.status, code: e.code, param: e.param, cls: e.constructor.name };
  }
};
out.badHeader = await refused({ model: "", messages: [{ role: "user", content: "x" }] }, { headers: { "x-aicodebox-no-tools": "maybe" } });
out.remote = await refused({ model: "", messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://example.com/cat.png" } }] }] });
console.log(JSON.stringify(out));
