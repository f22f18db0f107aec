// Where a server's CPU time goes: a V8 CPU profile (node --cpu-prof) cut to its last seconds (the load,
// not the start-up) and summed by kind of work, for the notes of a benchmark.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

interface CpuProfile {
  nodes: ProfileNode[];
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  kind: string;
  percent: number;
  /** For the emulator's own code: the share of each of its files (emulator/...), largest first. */
  files?: { file: string; percent: number }[];
}

const EMULATOR_CODE = "the emulator's own code";
/** The native functions by which Node's streams write to a socket (stream_wrap's bindings). */
const SOCKET_CALLS = new Set([
  'writev',
  'writeBuffer',
  'writeUtf8String',
  'writeLatin1String',
  'writeAsciiString',
]);

/** The main thread's profile in a --cpu-prof-dir (file names carry the thread id; the main one is 0). */
export function mainThreadProfile(dir: string): string {
  const file = readdirSync(dir).find((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name));
  if (!file) throw new Error(`no main-thread CPU profile in ${dir}`);
  return join(dir, file);
}

function kindOf({ functionName, url }: ProfileNode['callFrame']): string {
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)') return 'idle (waiting for requests)';
  if (url.includes('/fastify/lib/reply.js') && functionName === 'serialize') return 'JSON serialization';
  // fast-json-stringify: its runtime, and the code it compiles from a schema (no file, named anonymousN).
  if (url.includes('/fast-json-stringify/') || (url === '' && /^anonymous\d*$/.test(functionName)))
    return 'JSON serialization';
  if (url.includes('/secure-json-parse/')) return 'JSON parsing';
  if (url === '' && /^validate/.test(functionName)) return 'body validation';
  if (/\/node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|ajv)\//.test(url))
    return 'fastify';
  if (url.includes('/emulator/')) return EMULATOR_CODE;
  // The socket's system calls: on a loaded machine, also the wait for the core the peer was woken onto.
  if (url === '' && SOCKET_CALLS.has(functionName)) return 'socket writes (system calls)';
  if (url.startsWith('node:') || url === '') return "Node's HTTP stack";
  return 'other';
}

/**
 * Shares of CPU time by kind of work over the profile's last `seconds`, largest first. A built-in such as
 * JSON.stringify has no frame of its own: its time counts toward the function that calls it.
 */
export function summarizeCpuProfile(file: string, seconds: number): Share[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const from = profile.endTime - seconds * 1e6;
  const totals = new Map<string, number>();
  const emulatorFiles = new Map<string, number>();
  let at = profile.endTime;
  let all = 0;
  // timeDeltas[i] is the time since the previous sample; walk back from the end.
  for (let i = profile.samples.length - 1; i >= 0 && at >= from; i--) {
    const delta = profile.timeDeltas[i] ?? 0;
    const frame = frames.get(profile.samples[i]!) ?? { functionName: '', url: '' };
    const kind = kindOf(frame);
    totals.set(kind, (totals.get(kind) ?? 0) + delta);
    if (kind === EMULATOR_CODE) {
      const source = frame.url.replace(/^.*\/emulator\//, '');
      emulatorFiles.set(source, (emulatorFiles.get(source) ?? 0) + delta);
    }
    all += delta;
    at -= delta;
  }
  const percent = (time: number) => Math.round((100 * time) / all);
  return [...totals]
    .map(([kind, time]): Share => {
      if (kind !== EMULATOR_CODE) return { kind, percent: percent(time) };
      const files = [...emulatorFiles]
        .map(([source, t]) => ({ file: source, percent: percent(t) }))
        .filter((f) => f.percent > 0)
        .sort((a, b) => b.percent - a.percent);
      return { kind, percent: percent(time), files };
    })
    .filter((share) => share.percent > 0)
    .sort((a, b) => b.percent - a.percent);
}

export function describeShares(shares: Share[]): string {
  return shares
    .map((s) => {
      const files = s.files?.slice(0, 3).map((f) => `${f.file} ${f.percent}%`);
      return `${s.kind} ${s.percent}%${files?.length ? ` (${files.join(', ')})` : ''}`;
    })
    .join(', ');
}
