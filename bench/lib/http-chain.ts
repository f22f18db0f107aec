// The cheapest client for a chain of requests where each needs the answer before it (a listing's pages):
// node:http with one kept-alive connection, each POST sent the moment the previous answer is in. What
// it takes beyond the server's own latency is what loopback HTTP and the machine add.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * POSTs `first`, then whatever `next` makes of each answer, until it returns undefined; returns the
 * chain's wall time in milliseconds. Throws one line when an answer is not 2xx.
 */
export async function timeChain(
  url: string,
  headers: Record<string, string>,
  first: string,
  next: (answer: string) => string | undefined,
): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const started = performance.now();
    for (let body: string | undefined = first; body !== undefined;) {
      body = next(await post(agent, url, headers, body));
    }
    return performance.now() - started;
  } finally {
    agent.destroy();
  }
}

function post(agent: Agent, url: string, headers: Record<string, string>, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sent = request(url, {
      method: 'POST',
      agent,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    sent.on('error', reject);
    sent.on('response', (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('error', reject);
      answer.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = answer.statusCode ?? 0;
        if (status < 200 || status >= 300)
          reject(new Error(`POST ${url} answered ${status}: ${text.slice(0, 200)}`));
        else resolve(text);
      });
    });
    sent.end(body);
  });
}
