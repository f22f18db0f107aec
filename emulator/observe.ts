// Lets a test (or any tool in the same process) see every answer and webhook payload of every emulator
// started after it subscribed, to check them against the service's spec. Nothing is recorded, and no
// hook is installed, unless someone subscribed before the emulator started.

export interface ObservedAnswer {
  method: string;
  /** The path without the query string, e.g. `/v1/getQueue`. */
  path: string;
  status: number;
  contentType: string;
  body: string;
}

export interface EmulatorObserver {
  answer?(answer: ObservedAnswer): void;
  webhook?(payload: Record<string, unknown>): void;
}

const observers = new Set<EmulatorObserver>();

/** Subscribes; returns the unsubscribe function. */
export function observeEmulators(observer: EmulatorObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

export function observed(): boolean {
  return observers.size > 0;
}

export function reportAnswer(answer: ObservedAnswer): void {
  for (const observer of observers) observer.answer?.(answer);
}

export function reportWebhook(payload: Record<string, unknown>): void {
  for (const observer of observers) observer.webhook?.(payload);
}
