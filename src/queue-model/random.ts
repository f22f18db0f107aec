// A seeded random source (mulberry32): ids, shas and anything else the queue model and the emulator make up are drawn from
// it, so a given seed and script of calls always produce the same values.

export class SeededRandom {
  private state: number;

  constructor(seed: number = 1) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, bound). */
  int(bound: number): number {
    return Math.floor(this.next() * bound);
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += this.int(16).toString(16);
    return out;
  }

  /** A version-4 shaped uuid. */
  uuid(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = '89ab'[this.int(4)]!;
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}
