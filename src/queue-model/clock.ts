// A virtual clock with timers. Nothing in the queue model reads real time: callers advance this
// clock (tests step it, the CLI's time-scale option follows real time), and timers due on the way fire in
// order, so the same script of calls gives the same history (the same times too, given a start time).

export interface TimerHandle {
  cancel(): void;
}

interface Timer {
  at: number;
  seq: number;
  run: () => void;
  cancelled: boolean;
}

/**
 * Where the clock starts when not told: the real time, to the second, so that what the product computes
 * from its own clock against the emulator's stamps ("failing since", "12 min ago") reads true.
 */
export function realStartTime(): number {
  return Math.floor(Date.now() / 1000) * 1000;
}
/** The clock never goes past this instant (timers due later never fire): far enough for any rehearsal. */
export const CLOCK_HORIZON = Date.UTC(2100, 0, 1);

export class VirtualClock {
  private current: number;
  private seq = 0;
  private readonly heap: Timer[] = [];

  constructor(startMs: number = realStartTime()) {
    this.current = startMs;
  }

  /** How far the clock may still advance, in milliseconds. */
  room(): number {
    return CLOCK_HORIZON - this.current;
  }

  /** Milliseconds since the epoch, virtual. */
  now(): number {
    return this.current;
  }

  iso(): string {
    return new Date(this.current).toISOString();
  }

  /** Runs `run` when the clock reaches `at` (at once on the next advance when `at` is not in the future). */
  at(at: number, run: () => void): TimerHandle {
    const timer: Timer = { at: Math.max(at, this.current), seq: this.seq++, run, cancelled: false };
    this.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  after(delayMs: number, run: () => void): TimerHandle {
    return this.at(this.current + delayMs, run);
  }

  /** Moves time forward by `ms`, firing every timer due on the way in time order. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance the clock by ${ms} ms`);
    const target = this.current + ms;
    if (target > CLOCK_HORIZON) {
      throw new RangeError(
        `the virtual clock stops at ${new Date(CLOCK_HORIZON).toISOString()}; it is ${this.iso()}`,
      );
    }
    for (;;) {
      const next = this.heap[0];
      if (!next || next.at > target) break;
      this.pop();
      if (next.cancelled) continue;
      this.current = next.at;
      next.run();
    }
    this.current = target;
  }

  /** When the next live timer is due, or undefined when none is pending. */
  nextTimerAt(): number | undefined {
    while (this.heap[0]?.cancelled) this.pop();
    return this.heap[0]?.at;
  }

  private push(timer: Timer): void {
    const heap = this.heap;
    heap.push(timer);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!earlier(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop();
    if (!last || heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && earlier(heap[left]!, heap[smallest]!)) smallest = left;
      if (right < heap.length && earlier(heap[right]!, heap[smallest]!)) smallest = right;
      if (smallest === i) return;
      [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
      i = smallest;
    }
  }
}

function earlier(a: Timer, b: Timer): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
