// Preloaded with `node --import ./bench/lib/record-loads.mjs`: appends the URL of every module the process
// loads to the file named by BENCH_LOADS_FILE, so that a benchmark can add up the bundle files a run
// really loads (the entry and the chunks it imports lazily).
import { register } from 'node:module';

register('./record-loads-hooks.mjs', import.meta.url);
