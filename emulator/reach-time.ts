// Waiting until a moment on performance.now()'s clock, to the microsecond: how the emulator (and a
// benchmark's stand-in for it) answers exactly a latency after a request came in.
import { performance } from 'node:perf_hooks';

/** How early a timer can fire: the loop's cached clock lags by what the current turn took, plus rounding. */
const TIMER_MARGIN_MS = 1;

/**
 * Resolves when performance.now() reaches `at`: never before, and within a few microseconds after. A timer
 * alone misses by up to a millisecond or two either way (Node counts it from the event loop's clock, cached
 * in whole milliseconds when the loop last woke), so it only brings the wait to within a millisecond; the
 * loop's next turns, which still serve other sockets, finish it.
 */
export function reachTime(at: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const left = at - performance.now();
      if (left <= 0) resolve();
      else if (left > TIMER_MARGIN_MS) setTimeout(check, left - TIMER_MARGIN_MS);
      else setImmediate(check);
    };
    check();
  });
}
