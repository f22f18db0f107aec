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
  /**
   * When a response schema's serializer wrote the body: what JSON.stringify would have written for the same
   * value. The two must say the same (the serializer drops fields its schema lacks and coerces types).
   */
  plainJson?: string;
}

export interface EmulatorObserver {
  answer?(answer: ObservedAnswer): void;
  webhook?(payload: Record<string, unknown>): void;
}

const observers = new Set<EmulatorObserver>();
/** Per request (node's IncomingMessage): JSON.stringify of the value its answer was serialized from. */
const schemaAnswers = new WeakMap<object, string>();

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

/** Keeps, for the observers, what JSON.stringify writes for the value a schema serializer answers `request` with. */
export function noteSchemaAnswer(request: object, plainJson: string): void {
  schemaAnswers.set(request, plainJson);
}

/** The JSON.stringify text noted for `request`, if any. */
export function schemaAnswerOf(request: object): string | undefined {
  return schemaAnswers.get(request);
}
