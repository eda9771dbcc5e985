// Drives albert-acp with the official ACP TypeScript client, and validates every
// message the agent sends against the JSON schema shipped in the same package.
// Usage: node client.mjs <albert-acp binary> <workspace folder> <mcp-server-everything binary>
// Prints one JSON summary on stdout; ../../interop_test.go checks it.
import { spawn } from "node:child_process";
import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Writable } from "node:stream";
import { client, ndJsonStream } from "@agentclientprotocol/sdk";
import Ajv2020 from "ajv/dist/2020.js";

const [binary, work, everything] = process.argv.slice(2);
const schemaPath = fileURLToPath(new URL("node_modules/@agentclientprotocol/sdk/schema/v1/schema.json", import.meta.url));
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema(schema, "acp");
const whole = ajv.compile(schema);
const def = (name) => {
  const v = ajv.getSchema(`acp#/$defs/${name}`);
  if (!v) throw new Error(`schema has no $defs/${name}`);
  return v;
};
const responseDefs = {
  initialize: "InitializeResponse", authenticate: "AuthenticateResponse", "session/new": "NewSessionResponse", "session/load": "LoadSessionResponse",
  "session/list": "ListSessionsResponse", "session/prompt": "PromptResponse", "session/set_mode": "SetSessionModeResponse",
  "session/set_config_option": "SetSessionConfigOptionResponse", "session/close": "CloseSessionResponse",
};
const requestDefs = {
  "session/request_permission": "RequestPermissionRequest", "fs/read_text_file": "ReadTextFileRequest",
  "fs/write_text_file": "WriteTextFileRequest", "terminal/create": "CreateTerminalRequest",
};
// session/set_model and the `models` field are the model selector editors such as
// Zed still use; this SDK's schema no longer carries them, so their shape is written
// here as ACP defined it (SessionModelState, ModelInfo, SetSessionModelResponse).
const meta = { type: ["object", "null"] };
const modelState = ajv.compile({
  type: "object", required: ["currentModelId", "availableModels"], additionalProperties: false,
  properties: {
    _meta: meta, currentModelId: { type: "string", minLength: 1 },
    availableModels: { type: "array", items: {
      type: "object", required: ["modelId", "name"], additionalProperties: false,
      properties: { _meta: meta, modelId: { type: "string", minLength: 1 }, name: { type: "string" }, description: { type: ["string", "null"] } },
    } },
  },
});
const localResponseDefs = {
  "session/set_model": ajv.compile({ type: "object", additionalProperties: false, properties: { _meta: meta } }),
};
const sent = new Map(); // our request id -> method
const invalid = [];
let validated = 0;
function check(msg) {
  validated++;
  const problems = [];
  if (!whole(msg)) problems.push({ against: "schema", errors: whole.errors.slice(0, 3) });
  let name;
  if (msg.method && msg.id !== undefined) name = requestDefs[msg.method];
  else if (msg.method === "session/update") name = "SessionNotification";
  else if (msg.result !== undefined) name = responseDefs[sent.get(msg.id)];
  const params = msg.method ? msg.params : msg.result;
  const local = msg.result !== undefined ? localResponseDefs[sent.get(msg.id)] : undefined;
  if (name) {
    const v = def(name);
    if (!v(params)) problems.push({ against: name, errors: v.errors.slice(0, 3) });
    if (params?.models !== undefined && !modelState(params.models)) problems.push({ against: "SessionModelState", errors: modelState.errors.slice(0, 3) });
  } else if (local) {
    if (!local(params)) problems.push({ against: sent.get(msg.id), errors: local.errors.slice(0, 3) });
  } else if (msg.error === undefined) {
    problems.push({ against: "nothing", why: `no definition for ${msg.method ?? sent.get(msg.id)}` });
  }
  if (problems.length) invalid.push({ msg, problems });
}

const child = spawn(binary, ["--trust"], { stdio: ["pipe", "pipe", "inherit"] });
let stdoutBuf = "";
const nonJSON = [];
const agentOut = new ReadableStream({
  start(controller) {
    child.stdout.on("data", (chunk) => {
      stdoutBuf += chunk.toString("utf8");
      let i;
      while ((i = stdoutBuf.indexOf("\n")) >= 0) {
        const line = stdoutBuf.slice(0, i);
        stdoutBuf = stdoutBuf.slice(i + 1);
        try { check(JSON.parse(line)); } catch (e) { nonJSON.push(line); }
      }
      try { controller.enqueue(new Uint8Array(chunk)); } catch { /* the client closed its side */ }
    });
    child.stdout.on("end", () => { try { controller.close(); } catch { /* already closed */ } });
  },
});
const toAgent = Writable.toWeb(child.stdin);
const recordingWriter = new WritableStream({
  async write(chunk) {
    for (const line of new TextDecoder().decode(chunk).split("\n")) {
      if (!line.trim()) continue;
      const m = JSON.parse(line);
      if (m.method && m.id !== undefined) sent.set(m.id, m.method);
    }
    const w = toAgent.getWriter();
    try { await w.write(chunk); } finally { w.releaseLock(); }
  },
  close() { return toAgent.close(); },
});

const updates = [];
const permissionAnswers = ["allow_once", "reject_once"];
const permissions = [];
const questions = [];
let onUpdate = () => {};
const app = client()
  .onRequest("session/request_permission", ({ params }) => {
    const ids = params.options.map((o) => o.optionId);
    if (ids.includes("none_of_these")) {
      // ask_user_question: the question is the title, each choice an option.
      questions.push({ toolCallId: params.toolCall.toolCallId, title: params.toolCall.title, options: params.options.map((o) => o.name) });
      return { outcome: { outcome: "selected", optionId: ids[1] } };
    }
    permissions.push(params.toolCall.toolCallId);
    const optionId = permissionAnswers.shift() ?? "allow_once";
    return { outcome: { outcome: "selected", optionId } };
  })
  .onNotification("session/update", ({ params }) => { updates.push(params.update); onUpdate(params.update); });
const conn = app.connect(ndJsonStream(recordingWriter, agentOut));
const agent = conn.agent;
const kinds = () => updates.map((u) => u.sessionUpdate);

const out = {};
const init = await agent.request("initialize", { protocolVersion: 1,
  clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false, auth: { terminal: true }, _meta: { "terminal-auth": true } } });
out.protocolVersion = init.protocolVersion;
out.agentName = init.agentInfo?.name;
out.loadSession = init.agentCapabilities?.loadSession;
out.authMethods = init.authMethods.map((m) => `${m.type ?? "agent"}:${m.id}:${(m.args ?? []).join(" ")}`);
out.terminalAuthMeta = init.authMethods[0]?._meta?.["terminal-auth"] ?? null;
await agent.request("authenticate", { methodId: "setup" });

const sess = await agent.request("session/new", { cwd: work, mcpServers: [] });
const sessionId = sess.sessionId;
out.modes = sess.modes.availableModes.map((m) => m.id);
out.models = { current: sess.models?.currentModelId, available: (sess.models?.availableModels ?? []).map((m) => m.modelId) };

// A prompt with tool calls: one write granted, one refused.
const p1 = await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write two files" }] });
out.toolPrompt = {
  stopReason: p1.stopReason, permissions: [...permissions],
  aExists: existsSync(`${work}/a.txt`), bExists: existsSync(`${work}/b.txt`),
  statuses: updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.status).map((u) => `${u.toolCallId}:${u.status}`),
  diff: updates.some((u) => u.sessionUpdate === "tool_call_update" && (u.content ?? []).some((c) => c.type === "diff" && c.path.endsWith("a.txt"))),
};

// Modes.
await agent.request("session/set_mode", { sessionId, modeId: "plan" });
out.modeUpdate = kinds().includes("current_mode_update");

// Cancel a running turn.
updates.length = 0;
const firstChunk = new Promise((resolve) => { onUpdate = (u) => { if (u.sessionUpdate === "agent_message_chunk") resolve(); }; });
const p2 = agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "take your time" }] });
await firstChunk;
await agent.notify("session/cancel", { sessionId });
out.cancelStop = (await p2).stopReason;
onUpdate = () => {};

// List, close, load.
const list = await agent.request("session/list", { cwd: work });
out.listed = list.sessions.some((s) => s.sessionId === sessionId);
await agent.request("session/close", { sessionId });
updates.length = 0;
const loaded = await agent.request("session/load", { sessionId, cwd: work, mcpServers: [] });
out.replay = [...new Set(kinds())];
out.loadedMode = loaded.modes?.currentModeId;
const p3 = await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "still there?" }] });
out.afterLoadStop = p3.stopReason;
out.loadModeUpdate = updates.some((u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "plan");

// A session with an MCP server from the editor: a call to one of its tools, then a
// question through session/request_permission.
const mcpSess = await agent.request("session/new", { cwd: work, mcpServers: [{ name: "everything", command: everything, args: ["stdio"], env: [] }] });
updates.length = 0;
permissions.length = 0;
const p4 = await agent.request("session/prompt", { sessionId: mcpSess.sessionId, prompt: [{ type: "text", text: "echo through MCP" }] });
out.mcp = {
  stopReason: p4.stopReason, permissions: [...permissions],
  statuses: updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.status).map((u) => `${u.toolCallId}:${u.status}`),
};
const p5 = await agent.request("session/prompt", { sessionId: mcpSess.sessionId, prompt: [{ type: "text", text: "ask me" }] });
out.question = { stopReason: p5.stopReason, asked: questions };

// The older model selector: session/set_model, reflected in the config option.
updates.length = 0;
await agent.request("session/set_model", { sessionId: mcpSess.sessionId, modelId: "qwen" });
const modelOption = (opts) => opts?.find((o) => o.id === "model")?.currentValue;
out.setModel = {
  optionUpdate: updates.filter((u) => u.sessionUpdate === "config_option_update").map((u) => modelOption(u.configOptions)),
};
try {
  await agent.request("session/set_model", { sessionId: mcpSess.sessionId, modelId: "no-such-model" });
  out.setModel.unknown = "accepted";
} catch (e) {
  out.setModel.unknown = e.code;
}

conn.close();
child.stdin.end();
await new Promise((resolve) => child.on("exit", resolve));
out.validated = validated;
out.invalid = invalid;
out.nonJSON = nonJSON;
console.log(JSON.stringify(out));
