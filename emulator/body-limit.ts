// Request bodies over 20 MiB get a 413 every client can read. Answering while the client is still sending
// and closing the connection (what the framework does alone) makes many clients see a reset instead:
// here the rest of the body is read and thrown away first, for at most DRAIN_LIMIT_MS, then the 413 goes.
import type { FastifyInstance } from 'fastify';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { MAX_BODY_BYTES } from '../src/wire/index.js';

/** How long an oversized body is read and discarded before the 413 is sent regardless. */
export const DRAIN_LIMIT_MS = 10_000;

export class BodyTooLargeError extends Error {
  readonly statusCode = 413;
  constructor() {
    super(`Request body too large: the limit is ${MAX_BODY_BYTES} bytes (20 MiB)`);
  }
}

/** Passes the body through up to the limit; past it, keeps reading but keeps nothing, then fails with 413. */
class CappedBody extends Transform {
  private received = 0;
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly source: Readable,
    private readonly limit: number,
  ) {
    super();
    this.timer = setTimeout(() => this.tooLarge(), DRAIN_LIMIT_MS);
    this.timer.unref();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.limit) done();
    else done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    clearTimeout(this.timer);
    done(this.received > this.limit ? new BodyTooLargeError() : null);
  }

  private tooLarge(): void {
    this.source.unpipe(this);
    this.destroy(new BodyTooLargeError());
  }
}

export function installBodyLimit(app: FastifyInstance, limit = MAX_BODY_BYTES): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const declared = Number(request.headers['content-length']);
    // A declared length within the limit is held to by the HTTP parser: nothing to cap.
    if (declared <= limit) return done(null, payload);
    // The framework refuses a declared oversize before reading a byte; let the capped stream do it after.
    delete request.headers['content-length'];
    const capped = new CappedBody(payload, limit);
    payload.pipe(capped);
    done(null, capped);
  });
}
