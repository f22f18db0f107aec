// A hostile v2 service made of the emulator's real answers: every request passes to the emulator, and a
// rule may change the answer on its way back (another queue's id, a field missing, a page that never
// ends, a 429 with Retry-After: 0). Every request is recorded, so a test sees what was sent and what not.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The JSON answer, or undefined when it was not JSON. */
  json: unknown;
  text: string;
}

export interface Sent {
  method: string;
  /** The path as sent, query included, before any normalisation. */
  url: string;
  at: number;
}

/** Changes the answer to `sent` (return it changed, or a new one), or leaves it (undefined). */
export type Tamper = (answer: Answer, sent: Sent) => Answer | undefined;

export interface TamperingProxy {
  origin: string;
  sent: Sent[];
  /** The rule for requests whose method and path (query excluded) match, until `reset`; `delayMs` holds each answer back. */
  on(method: string, path: RegExp, tamper: Tamper, delayMs?: number): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startTamperingProxy(target: string): Promise<TamperingProxy> {
  const sent: Sent[] = [];
  let rules: { method: string; path: RegExp; tamper: Tamper; delayMs?: number }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const one: Sent = { method: req.method ?? '', url: req.url ?? '/', at: Date.now() };
      sent.push(one);
      const upstream = httpRequest(
        `${target}${one.url}`,
        { method: one.method, headers: { ...req.headers, host: new URL(target).host } },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(body).toString('utf8');
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            const original: Answer = {
              status: answer.statusCode ?? 502,
              headers: { 'content-type': String(answer.headers['content-type'] ?? 'application/json') },
              json,
              text,
            };
            const path = one.url.split('?')[0] as string;
            const rule = rules.find((r) => r.method === one.method && r.path.test(path));
            let final: Answer;
            try {
              final = (rule && rule.tamper(structuredClone(original), one)) ?? original;
            } catch (error) {
              final = {
                status: 599,
                headers: {},
                json: undefined,
                text: `the rule failed: ${String(error)}`,
              };
            }
            const out =
              final === original || final.json === undefined ? final.text : JSON.stringify(final.json);
            setTimeout(() => {
              res.writeHead(final.status, final.headers);
              res.end(out);
            }, rule?.delayMs ?? 0);
          });
        },
      );
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    on: (method, path, tamper, delayMs) => rules.push({ method, path, tamper, delayMs }),
    reset: () => {
      rules = [];
      sent.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
