// The protocol over stdin and stdout, one JSON-RPC message a line, with a bound on what a line may hold.
// The SDK's own stdio transport closes itself on a message over its buffer's limit, and the server then
// ends with exit code 0, saying nothing. Here a line over the limit is skipped to its end and answered
// with a JSON-RPC error, as is a line that is not a message, and the server goes on.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The most one message may take, its line break excepted. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private chunks: Buffer[] = [];
  private held = 0;
  /** The line being read went over the limit: the rest of it is dropped unread. */
  private skipping = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    /** Told of each message refused, for the server's log. */
    private readonly refused: (why: string) => void,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
    this.input.once('end', this.onEnd);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const text = serializeMessage(message);
    if (this.output.write(text)) return;
    await new Promise<void>((resolve) => this.output.once('drain', resolve));
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    this.input.off('end', this.onEnd);
    this.chunks = [];
    this.onclose?.();
  }

  private readonly onData = (data: Buffer | string) => {
    let chunk = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10)) {
      this.take(chunk.subarray(0, end));
      this.lineEnded();
      chunk = chunk.subarray(end + 1);
    }
    this.take(chunk);
  };

  private readonly onError = (error: Error) => this.onerror?.(error);

  private readonly onEnd = () => void this.close();

  /** Part of the current line: kept while the line is within the limit. */
  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    this.held += part.length;
    if (this.held > MAX_MESSAGE_BYTES) {
      this.skipping = true;
      this.chunks = [];
      return;
    }
    this.chunks.push(part);
  }

  private lineEnded(): void {
    const skipped = this.skipping;
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.held = 0;
    this.skipping = false;
    if (skipped) {
      this.answerError(
        INVALID_REQUEST,
        `The message was over ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB, the most this server reads; it was not read. Send a shorter one.`,
      );
      return;
    }
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      this.answerError(PARSE_ERROR, 'The line was not a JSON-RPC message; it was not read.');
      return;
    }
    this.onmessage?.(message);
  }

  /** An error answer to a message whose id was never read: JSON-RPC says its id is then null. */
  private answerError(code: number, message: string): void {
    this.refused(message);
    const answer = { jsonrpc: '2.0', id: null, error: { code, message } };
    this.output.write(`${JSON.stringify(answer)}\n`);
  }
}
