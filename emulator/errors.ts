// The emulator's one refusal: thrown anywhere (engine, stores, routes), answered by the server's error
// handler with this status and the message as plain text, as the service answers its errors.
export class EmulatorError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'EmulatorError';
  }
}
