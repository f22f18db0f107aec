// Webhook delivery, Svix-style: each registered endpoint gets the events it asked for as JSON, signed
// with its `whsec_` secret (headers svix-id, svix-timestamp, svix-signature), and a delivery the
// receiver refuses (non-2xx, network error, timeout) is retried with growing delays. Each endpoint gets
// its events one at a time, in the order they happened. Delivery is real
// HTTP on real time, outside the deterministic engine; the payloads carry the virtual time.
import { createHmac } from 'node:crypto';
import { reportWebhook } from './observe.js';
import { SeededRandom } from '../src/queue-model/index.js';
import type { WebhookPayload } from './merge-queue/webhook-events.js';

/** Delays before the 2nd, 3rd, ... attempts. */
export const DEFAULT_RETRY_DELAYS_MS = [500, 2_000, 8_000, 30_000, 120_000];
const ATTEMPT_TIMEOUT_MS = 10_000;

export interface WebhookOptions {
  retryDelaysMs?: readonly number[];
  seed?: number;
}

export interface Delivery {
  messageId: string;
  type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastResponseStatus?: number;
  lastError?: string;
}

interface Endpoint {
  id: string;
  url: string;
  secret: string;
  eventTypes?: string[];
  deliveries: Delivery[];
  /** Events waiting for the one being delivered. */
  backlog: { delivery: Delivery; body: string }[];
  busy: boolean;
}

export class WebhookDispatcher {
  private readonly registered: Endpoint[] = [];
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly random: SeededRandom;
  private readonly retryDelaysMs: readonly number[];
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(options: WebhookOptions = {}) {
    this.random = new SeededRandom((options.seed ?? 1) ^ 0x5bd1e995);
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  }

  register(request: { url: string; secret?: string; eventTypes?: string[] }) {
    const endpoint: Endpoint = {
      id: `ep_${this.random.hex(24)}`,
      url: request.url,
      secret: request.secret ?? `whsec_${Buffer.from(this.random.hex(48), 'hex').toString('base64')}`,
      ...(request.eventTypes ? { eventTypes: [...request.eventTypes] } : {}),
      deliveries: [],
      backlog: [],
      busy: false,
    };
    this.registered.push(endpoint);
    return {
      id: endpoint.id,
      url: endpoint.url,
      secret: endpoint.secret,
      eventTypes: endpoint.eventTypes ?? null,
    };
  }

  endpoints() {
    return this.registered.map(({ id, url, eventTypes, deliveries }) => ({
      id,
      url,
      eventTypes: eventTypes ?? null,
      deliveries: deliveries.map((delivery) => ({ ...delivery })),
    }));
  }

  /** Sends an event to every endpoint that wants it. The flaky-tests store publishes `test_case.*` here. */
  publish(payload: WebhookPayload): void {
    if (this.closed) return;
    reportWebhook(payload);
    for (const endpoint of this.registered) {
      if (endpoint.eventTypes && !endpoint.eventTypes.some((type) => matches(type, payload.type))) continue;
      const delivery: Delivery = {
        messageId: `msg_${this.random.hex(26)}`,
        type: payload.type,
        status: 'pending',
        attempts: 0,
      };
      endpoint.deliveries.push(delivery);
      endpoint.backlog.push({ delivery, body: JSON.stringify(payload) });
      this.inFlight++;
      this.pump(endpoint);
    }
  }

  private pump(endpoint: Endpoint): void {
    if (endpoint.busy || this.closed) return;
    const next = endpoint.backlog.shift();
    if (!next) return;
    endpoint.busy = true;
    void this.attempt(endpoint, next.delivery, next.body);
  }

  /** Resolves once every delivery has been delivered or has given up. */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.inFlight = 0;
    this.settle();
  }

  private async attempt(endpoint: Endpoint, delivery: Delivery, body: string): Promise<void> {
    if (this.closed) return;
    delivery.attempts++;
    const timestamp = Math.floor(Date.now() / 1000).toString();
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'svix-id': delivery.messageId,
          'svix-timestamp': timestamp,
          'svix-signature': sign(endpoint.secret, delivery.messageId, timestamp, body),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      await response.arrayBuffer().catch(() => undefined);
      delivery.lastResponseStatus = response.status;
      if (response.ok) return this.finish(endpoint, delivery, 'delivered');
      delivery.lastError = `the receiver answered ${response.status}`;
    } catch (error) {
      delivery.lastError = (error as Error).message;
    }
    const delay = this.retryDelaysMs[delivery.attempts - 1];
    if (delay === undefined || this.closed) return this.finish(endpoint, delivery, 'failed');
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(endpoint, delivery, body);
    }, delay);
    this.timers.add(timer);
  }

  private finish(endpoint: Endpoint, delivery: Delivery, status: 'delivered' | 'failed'): void {
    if (delivery.status !== 'pending') return;
    delivery.status = status;
    this.inFlight = Math.max(0, this.inFlight - 1);
    endpoint.busy = false;
    this.pump(endpoint);
    this.settle();
  }

  private settle(): void {
    if (this.inFlight > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** `pull_request.*` matches every pull_request event; anything else matches exactly. */
function matches(pattern: string, type: string): boolean {
  return pattern.endsWith('.*') ? type.startsWith(pattern.slice(0, -1)) : pattern === type;
}

/** The Svix signature: HMAC-SHA256 over `id.timestamp.body` with the secret's base64 key. */
export function sign(secret: string, messageId: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`;
}
