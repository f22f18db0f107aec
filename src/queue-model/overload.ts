// The overload guard: a setting under which the line grows without bound is stopped early and reported
// as unstable, with the day it diverged. The line is sampled every hour of virtual time; three day-ends in
// a row above the floor, each longer than the one before, or a line past the hard cap, stop the replay.
// A replay that ran to the end is unstable when, over the second half of the arrivals, fewer PRs left the
// line than came in and the line was above the floor when the last one came.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const GROWING_DAYS = 3;
const HARD_CAP = 2_000;
/** Departures under this share of arrivals over the second half mean the line was still growing. */
const KEEPING_UP = 0.95;

export interface Stability {
  stable: boolean;
  /** The day (1 = the replay's first) from which the line kept growing; null when stable. */
  unstableSinceDay: number | null;
  /** The replay stopped before its last arrival. */
  stoppedEarly: boolean;
}

export class OverloadGuard {
  private readonly dayEnds: number[] = [];
  /** The hour of the last sample at or under the floor. */
  private lastCalmAt: number;
  private atMid: { arrived: number; left: number } | undefined;
  private stoppedAt: number | undefined;

  /**
   * `floor`: a line this long is normal under these settings (every slot busy, a batch waiting);
   * `start` and `last`: the replay's start and the time of its last arrival.
   */
  constructor(
    private readonly floor: number,
    private readonly start: number,
    private readonly last: number,
  ) {
    this.lastCalmAt = start;
  }

  /** One hourly sample; true when the replay should stop now. */
  sample(at: number, backlog: number): boolean {
    if (backlog <= this.floor) this.lastCalmAt = at;
    if ((at - this.start) % DAY_MS === 0) this.dayEnds.push(backlog);
    if (backlog > HARD_CAP || this.growingForDays()) {
      this.stoppedAt = at;
      return true;
    }
    return false;
  }

  /** The counts at the middle arrival's time (the second half is measured from here). */
  middle(arrived: number, left: number): void {
    this.atMid = { arrived, left };
  }

  private growingForDays(): boolean {
    const ends = this.dayEnds;
    if (ends.length < GROWING_DAYS) return false;
    for (let i = ends.length - GROWING_DAYS; i < ends.length; i++) {
      if (ends[i]! <= this.floor || (i > 0 && ends[i]! <= ends[i - 1]!)) return false;
    }
    return true;
  }

  /** The verdict, from the counts when the last PR arrived (or when the replay stopped). */
  verdict(arrived: number, left: number, backlog: number): Stability {
    if (this.stoppedAt !== undefined) {
      return { stable: false, unstableSinceDay: this.dayOf(this.lastCalmAt), stoppedEarly: true };
    }
    const mid = this.atMid ?? { arrived: 0, left: 0 };
    const cameIn = arrived - mid.arrived;
    const wentOut = left - mid.left;
    const growing = cameIn > 0 && wentOut < KEEPING_UP * cameIn && backlog > this.floor;
    if (!growing || this.last === this.start) {
      return { stable: true, unstableSinceDay: null, stoppedEarly: false };
    }
    return { stable: false, unstableSinceDay: this.dayOf(this.lastCalmAt), stoppedEarly: false };
  }

  private dayOf(at: number): number {
    return 1 + Math.floor((at - this.start) / DAY_MS);
  }
}
