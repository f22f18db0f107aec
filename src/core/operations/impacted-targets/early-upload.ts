// A large targets file's upload starts before the file has been checked, so that sending it overlaps
// checking it (the check of a 20 MiB list takes about as long as the emulator takes to receive it). The
// request declares the size the body has if the file is already the compact JSON array that would be
// sent (`["a","b"]`, each target once); its bytes go out at once, all but the body's last byte, which
// waits for the check. Once the file is checked, the upload that would be sent is compared with the one
// under way: the same, and the last byte goes; different (duplicates, spaces, escapes) or refused, and
// the request is destroyed, so that the server never gets a whole body, and the checked upload goes as
// it would have without this.
import { Readable } from 'node:stream';
import type { ApiResponse, ServiceClient } from '../../api/client.js';
import { MAX_BODY_BYTES } from '../../../wire/index.js';
import { listBodyEnds, type Envelope } from './request-body.js';
import { jsonArraySpan } from './source.js';
import type { TargetList } from './target-list.js';

/** A smaller list is checked in a few milliseconds: nothing to win by sending it early. */
export const EARLY_MIN_BYTES = 1024 * 1024;
const SLICE_BYTES = 1024 * 1024;

export class EarlyUpload {
  private readonly answer: Promise<ApiResponse>;
  private pass!: () => void;
  private fail!: (reason: Error) => void;

  constructor(
    client: ServiceClient,
    readonly byteLength: number,
    pieces: { head: Buffer; list: Buffer; tail: Buffer },
    private readonly listSpan: { start: number; end: number },
  ) {
    const checked = new Promise<void>((resolve, reject) => {
      this.pass = resolve;
      this.fail = reject;
    });
    // Its rejection is reported by the call it is given to.
    checked.catch(() => undefined);
    const chunks = async function* () {
      yield pieces.head;
      for (let at = 0; at < pieces.list.length; at += SLICE_BYTES) {
        yield pieces.list.subarray(at, at + SLICE_BYTES);
      }
      await checked;
      yield pieces.tail;
    };
    this.answer = client.call('setImpactedTargets', {
      byteLength,
      open: () => Readable.from(chunks()),
      checked,
    });
    // Awaited by send, or settled and dropped by withdraw.
    this.answer.catch(() => undefined);
  }

  /** Whether the checked upload, a list of `byteLength` bytes, is the body under way. */
  carries(targets: TargetList, byteLength: number): boolean {
    return byteLength === this.byteLength && targets.isSpelledBy(this.listSpan.start, this.listSpan.end);
  }

  /** Lets the held byte go: the call's answer, retries and errors as without an early start. */
  send(): Promise<ApiResponse> {
    this.pass();
    return this.answer;
  }

  /** Destroys the request unless sent (then it does nothing), and waits until the call has ended. */
  async withdraw(): Promise<void> {
    this.fail(new Error('the early upload was withdrawn'));
    await this.answer.catch(() => undefined);
  }
}

/**
 * Starts sending a targets file's content as the list of a set-impacted-targets request body, or returns
 * undefined when it is small, not shaped as a JSON array, or would make a body over the service's limit.
 */
export function startEarlyUpload(
  client: ServiceClient,
  envelope: Envelope,
  content: Buffer,
): EarlyUpload | undefined {
  const span = jsonArraySpan(content);
  if (!span || span.end - span.start < EARLY_MIN_BYTES) return undefined;
  const { head, tail } = listBodyEnds(envelope);
  const byteLength = head.length + (span.end - span.start) + tail.length;
  if (byteLength > MAX_BODY_BYTES) return undefined;
  const list = content.subarray(span.start, span.end);
  return new EarlyUpload(client, byteLength, { head, list, tail }, span);
}
