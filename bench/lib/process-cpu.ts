// CPU time a process has used so far (user + system), read from Linux's /proc. Under load on a shared
// machine, a server's CPU per answer is steadier than its answers per second: the time it waits for a core
// that autocannon or another process holds is not in it.
import { readFileSync } from 'node:fs';

/** Linux reports /proc times in USER_HZ, 100 per second on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** Seconds of CPU the process `pid` has used, or undefined where /proc cannot say (not Linux, gone). */
export function cpuSecondsOf(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, 11 and 12 after the name (state is the first).
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks / TICKS_PER_SECOND : undefined;
}
