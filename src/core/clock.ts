// Time as the core sees it: what time it is, and waiting. Real time by default; tests give a clock that
// moves the emulator's virtual time instead, so that a wait of hours runs in milliseconds.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
