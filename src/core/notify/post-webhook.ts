// POSTs a JSON payload to an incoming webhook (Slack, Teams): bounded (a timeout per attempt, three
// attempts, the answer read to a few hundred bytes at most) and quiet about the URL, which is a secret.
import { realClock, type Clock } from '../clock.js';
import { redactor } from '../report/redact.js';

export interface WebhookResult {
  delivered: boolean;
  attempts: number;
  /** Why it was not delivered, in one line without the URL. */
  problem?: string;
}

const ATTEMPTS = 3;
const ATTEMPT_TIMEOUT_MS = 10_000;
const SHOWN_BODY_CHARS = 200;

export async function postWebhook(
  url: string,
  payload: unknown,
  clock: Clock = realClock,
  backoffMs = 1000,
): Promise<WebhookResult> {
  let problem = '';
  // An answer may echo the URL, in any spelling (percent-encoded, JSON-escaped): none of it is shown.
  const hideUrl = redactor([url]);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        redirect: 'manual',
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      const said = hideUrl(await readSome(response))
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, SHOWN_BODY_CHARS);
      if (response.ok) return { delivered: true, attempts: attempt };
      problem = `the webhook answered ${response.status}${said ? ` (${said})` : ''}`;
      if (response.status !== 429 && response.status < 500)
        return { delivered: false, attempts: attempt, problem };
    } catch (error) {
      problem = `the webhook could not be reached (${error instanceof Error ? error.name : 'error'})`;
    }
    if (attempt < ATTEMPTS) await clock.sleep(backoffMs * 2 ** (attempt - 1));
  }
  return { delivered: false, attempts: ATTEMPTS, problem };
}

/** At most a few KiB of the answer: enough for an error line, never a flood. */
async function readSome(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < 4096) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, 4096);
}
