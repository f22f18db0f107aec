// A Clock for the action that moves the emulator's virtual time instead of waiting: each sleep advances
// the emulator by exactly that long, and scripted events (an urgent PR, a pause, a push) happen at their
// virtual minute on the way. A wait of hours runs in milliseconds, and every run is the same.
import type { Clock } from '../../src/core/clock.js';
import type { EmulatorHandle } from './emulator.js';

export interface ScriptedEvent {
  /** Virtual minutes after the clock was made. */
  atMinute: number;
  run: () => Promise<void>;
}

export async function emulatorClock(emulator: EmulatorHandle, script: ScriptedEvent[] = []): Promise<Clock> {
  const answer = await emulator.control<{ now: string }>('GET', '/clock');
  const start = Date.parse(answer.json.now);
  let current = start;
  const pending = [...script].sort((a, b) => a.atMinute - b.atMinute);
  const advance = async (ms: number) => {
    if (ms <= 0) return;
    const moved = await emulator.control('POST', '/clock/advance', { ms });
    if (moved.status !== 200) throw new Error(`clock/advance answered ${moved.status}: ${moved.text}`);
    current += ms;
  };
  return {
    now: () => current,
    async sleep(ms) {
      const target = current + ms;
      while (pending.length && start + pending[0]!.atMinute * 60_000 <= target) {
        const event = pending.shift()!;
        await advance(start + event.atMinute * 60_000 - current);
        await event.run();
      }
      await advance(target - current);
    },
  };
}
