'use strict';
// A minimal Language Server Protocol client over a child's stdio: Content-Length
// framing, requests matched to responses by id, and the few server-to-client
// requests pyright makes (configuration, capability registration, progress).

const { spawn } = require('node:child_process');

class LSPClient {
  /**
   * @param {string} command executable
   * @param {string[]} args its arguments
   * @param {(section: string) => unknown} settings answers workspace/configuration
   */
  constructor(command, args, settings) {
    this.settings = settings;
    this.nextId = 1;
    this.pending = new Map();
    this.buffer = Buffer.alloc(0);
    this.diagnostics = new Map(); // uri -> diagnostics of the last publish
    this.stderr = '';
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk) => this.onData(chunk));
    this.child.stderr.on('data', (chunk) => {
      // Kept short: only the tail helps when the server dies.
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        const err = new Error(`language server exited (code ${code}, signal ${signal}): ${this.stderr}`);
        for (const { reject } of this.pending.values()) reject(err);
        this.pending.clear();
        resolve(code);
      });
    });
  }

  onData(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const match = /Content-Length: *(\d+)/i.exec(header);
      if (!match) throw new Error(`LSP frame without Content-Length: ${header}`);
      const length = Number(match[1]);
      const start = headerEnd + 4;
      if (this.buffer.length < start + length) return;
      const body = this.buffer.subarray(start, start + length).toString('utf8');
      this.buffer = this.buffer.subarray(start + length);
      this.onMessage(JSON.parse(body));
    }
  }

  onMessage(msg) {
    if (msg.id !== undefined && msg.method === undefined) {
      const waiter = this.pending.get(msg.id);
      if (!waiter) return;
      this.pending.delete(msg.id);
      if (msg.error) waiter.reject(new Error(`${waiter.method}: ${msg.error.message}`));
      else waiter.resolve(msg.result);
      return;
    }
    if (msg.id !== undefined) {
      this.answerServerRequest(msg);
      return;
    }
    if (msg.method === 'textDocument/publishDiagnostics') {
      this.diagnostics.set(msg.params.uri, msg.params.diagnostics);
    }
  }

  answerServerRequest(msg) {
    let result = null;
    if (msg.method === 'workspace/configuration') {
      result = msg.params.items.map((item) => this.settings(item.section ?? ''));
    }
    this.send({ jsonrpc: '2.0', id: msg.id, result });
  }

  send(msg) {
    const body = Buffer.from(JSON.stringify(msg), 'utf8');
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Asks the server to stop and waits for it, killing it after graceMs. */
  async shutdown(graceMs = 5000) {
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    try {
      await Promise.race([this.request('shutdown', null), this.exited]);
      this.notify('exit', null);
    } catch {
      this.child.kill('SIGKILL');
    }
    await this.exited;
    clearTimeout(timer);
  }
}

module.exports = { LSPClient };
