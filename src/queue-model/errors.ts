// The one refusal of the queue model, and of the emulator that serves it: thrown anywhere (engine,
// stores, routes) with the status the service answers; the emulator's error handler sends it with the
// message as plain text, as the service answers its errors.
export class QueueModelError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'QueueModelError';
  }
}
