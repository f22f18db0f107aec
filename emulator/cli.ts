// `npm run emulator -- [flags]`: runs the emulator until interrupted, prints its URLs and token, and logs
// one line per state change of a pull request or a test run. `--help` explains each flag.
// SIGTERM and SIGINT end it at once (the default action of the signals: no handler that a busy
// moment could hold up); its state lives in memory only, so there is nothing to save.
import { parseArgs } from 'node:util';
import { ensureQueue, type QueueControl } from './control.js';
import { parseFaultFlag } from './faults.js';
import type { HistoryEvent } from '../src/queue-model/index.js';
import { DEFAULT_TOKEN, startEmulator, type EmulatorOptions } from './server.js';
import { parseApiKeySpec } from './v2/index.js';

const MAX_TIME_SCALE = 100_000;

const FLAGS = {
  port: { type: 'string', arg: 'n', help: 'port to listen on; 0 (the default) picks a free one' },
  host: { type: 'string', arg: 'h', help: 'address to bind (default 127.0.0.1)' },
  'allow-host': {
    type: 'string',
    arg: 'name',
    multiple: true,
    help: 'a Host name to answer besides localhost, 127.0.0.1, [::1] and --host (any other gets 421)',
  },
  token: {
    type: 'string',
    arg: 't',
    help: `the token every request must carry in x-api-token (default ${DEFAULT_TOKEN})`,
  },
  seed: {
    type: 'string',
    arg: 'n',
    help: 'seed of the random source: the same seed and calls give the same ids and history',
  },
  'time-scale': {
    type: 'string',
    arg: 'x',
    help: `virtual time follows real time x times faster (0 < x <= ${MAX_TIME_SCALE}); without it, time moves only when told (the page's clock buttons, POST /_emulator/clock/advance)`,
  },
  'start-time': {
    type: 'string',
    arg: 'iso',
    help: 'where the virtual clock starts, an ISO 8601 instant such as 2025-01-06T09:00:00Z (default: now)',
  },
  queue: {
    type: 'string',
    arg: '[host/]owner/name:branch',
    multiple: true,
    help: 'a queue to create at start, e.g. --queue your-org/your-repo:main (host github.com unless given); repeat for more',
  },
  scenario: {
    type: 'string',
    arg: 'file',
    help: 'a JSON scenario (queues, PRs, CI outcomes) loaded at start',
  },
  'flaky-fixture': {
    type: 'string',
    arg: 'file',
    help: 'a flaky-tests fixture (at most 20 MiB) to seed the flaky-tests endpoints with',
  },
  fault: {
    type: 'string',
    arg: '/endpoint=kind[:arg],...',
    multiple: true,
    help: 'faults the next requests to that endpoint meet, one each: status, rate-limit, delay, hang, reset, truncated, non-json, html-error, redirect',
  },
  'api-key': {
    type: 'string',
    arg: 'name=perm,...',
    multiple: true,
    help: 'a v2 API key besides the one with every permission, e.g. ci-bot=mergeAndCancel,setPriority (permissions: mergeAndCancel, setPriority, skipBatching, directToQueue, updateSettings; none: reads only); its secret is printed',
  },
  'no-rate-limits': {
    type: 'boolean',
    help: 'answer v2 requests past the documented rate limits instead of 429',
  },
  quiet: { type: 'boolean', help: 'do not log state changes' },
  help: { type: 'boolean', help: 'show this help' },
} as const;

function usage(): string {
  const lines = Object.entries(FLAGS).map(([name, flag]) => {
    const left = `  --${name}${'arg' in flag ? ` ${flag.arg}` : ''}`;
    return `${left.padEnd(34)} ${flag.help}`;
  });
  return [
    'usage: npm run emulator -- [flags]',
    '',
    'A local twin of the merge-queue and flaky-tests API (v1 and v2), with a page to watch and drive the queue.',
    '',
    ...lines,
    '',
    'The page is served at the root of the printed origin; the control surface lives under /_emulator.',
    'SIGTERM or Ctrl-C ends it at once. See emulator/README.md.',
  ].join('\n');
}

function numberFlag(
  name: string,
  raw: string | undefined,
  check: (n: number) => boolean,
  what: string,
): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || !check(value)) {
    throw new Error(`--${name} "${raw}": expected ${what}`);
  }
  return value;
}

function instantFlag(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = /^\d{4}-\d{2}-\d{2}T/.test(raw) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(value))
    throw new Error(`--${name} "${raw}": expected an ISO 8601 instant such as 2025-01-06T09:00:00Z`);
  return value;
}

/** `--queue [host/]owner/name:branch` as the control surface's queue. */
export function parseQueueFlag(raw: string): QueueControl {
  const match = /^(?:([^/:\s]+)\/)?([^/:\s]+)\/([^/:\s]+):([^\s:]+)$/.exec(raw);
  if (!match) {
    throw new Error(`--queue "${raw}": expected [host/]owner/name:branch, e.g. your-org/your-repo:main`);
  }
  const [, host, owner, name, targetBranch] = match;
  return { repo: { ...(host ? { host } : {}), owner: owner!, name: name! }, targetBranch: targetBranch! };
}

function optionsFrom(argv: string[]): {
  options: EmulatorOptions;
  faults: ReturnType<typeof parseFaultFlag>[];
  queues: QueueControl[];
  quiet: boolean;
} {
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(
      Object.entries(FLAGS).map(([name, flag]) => [
        name,
        { type: flag.type, ...('multiple' in flag ? { multiple: true } : {}) },
      ]),
    ) as { [K in keyof typeof FLAGS]: { type: (typeof FLAGS)[K]['type']; multiple?: boolean } },
    strict: true,
  });
  if (values.help) {
    console.log(usage());
    process.exit(0);
  }
  const text = (name: keyof typeof FLAGS) => values[name] as string | undefined;
  const token = text('token');
  if (token !== undefined && token.trim() === '') throw new Error('--token: give a non-empty token');
  const port = numberFlag(
    'port',
    text('port'),
    (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
    'a port 0..65535 (0 picks a free one)',
  );
  const seed = numberFlag('seed', text('seed'), Number.isSafeInteger, 'an integer');
  const timeScale = numberFlag(
    'time-scale',
    text('time-scale'),
    (n) => n > 0 && n <= MAX_TIME_SCALE,
    `a number above 0 and at most ${MAX_TIME_SCALE} (virtual seconds per real second)`,
  );
  const startTime = instantFlag('start-time', text('start-time'));
  const options: EmulatorOptions = {
    token: token ?? DEFAULT_TOKEN,
    ...(port !== undefined ? { port } : {}),
    ...(text('host') ? { host: text('host')! } : {}),
    ...(values['allow-host'] ? { allowHosts: values['allow-host'] as string[] } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(timeScale !== undefined ? { timeScale } : {}),
    ...(startTime !== undefined ? { startTime } : {}),
    ...(text('scenario') ? { scenario: text('scenario')! } : {}),
    ...(text('flaky-fixture') ? { flakyFixture: text('flaky-fixture')! } : {}),
    ...(values['api-key'] ? { apiKeys: (values['api-key'] as string[]).map(parseApiKeySpec) } : {}),
    ...(values['no-rate-limits'] ? { v2RateLimits: false } : {}),
  };
  const faults = ((values.fault as string[] | undefined) ?? []).map(parseFaultFlag);
  const queues = ((values.queue as string[] | undefined) ?? []).map(parseQueueFlag);
  return { options, faults, queues, quiet: values.quiet === true };
}

/** One log line for a state change; control characters in names are shown escaped. */
export function describeEvent(event: HistoryEvent): string {
  const at = new Date(event.at).toISOString();
  const queue = printable(event.queueKey);
  if (event.kind === 'run') {
    const prs = event.prNumbers.map((n) => `#${n}`).join(', ');
    const why = event.reason ? ` (${event.reason})` : '';
    return `${at} ${queue} ${event.runKind} run ${event.runId.slice(0, 8)} [${prs}] ${event.status}${why}`;
  }
  const from = event.from ?? 'submitted';
  const why = event.reason ? ` (${event.reason})` : '';
  return `${at} ${queue} #${event.prNumber} ${from} -> ${event.to}${why}`;
}

function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof optionsFrom>;
  try {
    parsed = optionsFrom(process.argv.slice(2));
  } catch (error) {
    console.error(`emulator: ${(error as Error).message}\n(npm run emulator -- --help explains each flag)`);
    process.exit(2);
  }
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator(parsed.options);
  } catch (error) {
    console.error(`emulator: ${(error as Error).message}`);
    process.exit(1);
  }
  for (const { path, faults } of parsed.faults) emulator.faults.plan(path, faults);
  for (const queue of parsed.queues) ensureQueue(emulator.engine, queue);
  if (!parsed.quiet) emulator.engine.core.onEvent((event) => console.log(describeEvent(event)));
  console.log(`Merge-queue API emulator listening on ${emulator.url}`);
  console.log(`Token: ${emulator.token}`);
  console.log(`v2 API: ${emulator.v2Url} (paths start with /v2; send Authorization: Bearer <key>)`);
  for (const key of emulator.apiKeys) {
    const granted = key.permissions.size > 0 ? [...key.permissions].join(',') : 'none (reads only)';
    console.log(`v2 key ${key.name}: ${key.key} (permissions: ${granted})`);
  }
  console.log(`Page: ${emulator.origin}/#token=${encodeURIComponent(emulator.token)}`);
  for (const { repo, targetBranch } of parsed.queues) {
    const { host, owner, name } = repo as { host?: string; owner: string; name: string };
    console.log(`Queue: ${host ?? 'github.com'}/${owner}/${name}, branch ${targetBranch}`);
  }
  if (parsed.queues.length === 0 && !parsed.options.scenario) {
    console.log('No queue yet: start with --queue owner/name:branch, or run the create-queue operation.');
  }
  console.log(`Control surface: ${emulator.origin}/_emulator (see emulator/README.md)`);
  if (parsed.options.timeScale) console.log(`Virtual time runs ${parsed.options.timeScale}x real time.`);
}

await main();
