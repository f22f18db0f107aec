// The module hooks of record-loads.mjs (they run on the loader's own thread).
import { appendFileSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  if (process.env.BENCH_LOADS_FILE && url.startsWith('file:')) {
    appendFileSync(process.env.BENCH_LOADS_FILE, `${url}\n`);
  }
  return nextLoad(url, context);
}
