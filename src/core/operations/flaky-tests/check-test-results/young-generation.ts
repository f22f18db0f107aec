// V8 grows its young generation (new objects, collected often and cheaply) each time what survived its
// collections adds up to its size, up to 2 x 16 MiB. Over a long parse something always survives (the
// bundle's first use, the service's pages, the failed tests kept), so reading 100 MB of reports ends
// with the young generation at its largest, 20 MiB of the gate's peak memory, and little of it ever
// used at once. While the gate reads the reports, the young generation keeps the size it has; the
// objects that outlive a collection then reach the old generation sooner, which costs less than the
// space saved (figures in bench/lib/speed-tricks.ts).
import { setFlagsFromString } from 'node:v8';

/** V8's own default: each growth doubles the young generation. */
const DEFAULT_GROWTH_FACTOR = 2;

/** Runs `work` with the young generation held at its size, then lets it grow again as V8 would. */
export async function withYoungGenerationHeld<T>(work: () => Promise<T>): Promise<T> {
  setFlagsFromString('--semi-space-growth-factor=1');
  try {
    return await work();
  } finally {
    setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
  }
}
