// A JSON-RPC client over stdio with no SDK in between: the built server (`merge-queue-action mcp`) in a
// child process, fed bytes as written, its answers read line by line as it sends them. For what an SDK
// client would not send: a message over the server's limit, a cancellation at a chosen moment, a bare
// request with no progress token.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from './mcp-client.js';

export interface RpcMessage {
  jsonrpc: '2.0';
  id?: number | string | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export class RawMcp {
  readonly messages: RpcMessage[] = [];
  /** Every line the server wrote to stdout, as written (before parsing). */
  readonly lines: string[] = [];
  readonly exited: Promise<number | null>;
  private stderrText = '';
  private buffered = '';
  private nextId = 1;
  private readonly waiters = new Set<() => void>();
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [CLI, 'mcp', ...args], {
      env,
      cwd: mkdtempSync(join(tmpdir(), 'mcp-raw-')),
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.read(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderrText += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  stderr(): string {
    return this.stderrText;
  }

  /** Writes bytes as they are: a message, part of one, or several. */
  write(bytes: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) =>
      this.child.stdin.write(bytes, (error) => (error ? reject(error) : resolve())),
    );
  }

  send(message: Omit<RpcMessage, 'jsonrpc'>): Promise<void> {
    return this.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  /** Sends a request and returns its id; `answer(id)` waits for the answer. */
  async request(method: string, params: Record<string, unknown> = {}): Promise<number> {
    const id = this.nextId++;
    await this.send({ id, method, params });
    return id;
  }

  answer(id: number | string | null): Promise<RpcMessage> {
    return this.until((m) => m.id === id && (m.result !== undefined || m.error !== undefined));
  }

  /** The first message (already received or still to come) that `test` accepts. */
  async until(test: (message: RpcMessage) => boolean): Promise<RpcMessage> {
    for (;;) {
      const found = this.messages.find(test);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
  }

  /** initialize and its notification, as a client opens a session. */
  async open(): Promise<void> {
    const id = await this.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw-json-rpc', version: '1.0.0' },
    });
    await this.answer(id);
    await this.send({ method: 'notifications/initialized' });
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<number> {
    return this.request('tools/call', { name, arguments: args });
  }

  cancel(requestId: number): Promise<void> {
    return this.send({
      method: 'notifications/cancelled',
      params: { requestId, reason: 'the agent gave up' },
    });
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    const exited = await Promise.race([this.exited, new Promise((r) => setTimeout(r, 5000, 'running'))]);
    if (exited === 'running') this.child.kill();
  }

  private read(chunk: string): void {
    this.buffered += chunk;
    let newline: number;
    while ((newline = this.buffered.indexOf('\n')) >= 0) {
      const line = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      this.lines.push(line);
      try {
        this.messages.push(JSON.parse(line) as RpcMessage);
      } catch {
        // Kept in `lines`: a test says what it expected of them.
      }
    }
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }
}
