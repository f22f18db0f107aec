// `npm run emulator -- --port <n> --token <t> [--seed n] [--time-scale x] [--scenario file]
//  [--flaky-fixture file] [--fault /endpoint=kind[:arg],...]`: runs the emulator until interrupted and
// prints its base URL and token.
import { parseArgs } from 'node:util';
import { parseFaultFlag } from './faults.js';
import { DEFAULT_TOKEN, startEmulator, type EmulatorOptions } from './server.js';

const USAGE =
  'usage: npm run emulator -- [--port n] [--host h] [--token t] [--seed n] [--time-scale x] [--scenario file] [--flaky-fixture file] [--fault /endpoint=kind,...]';

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

function optionsFrom(argv: string[]): {
  options: EmulatorOptions;
  faults: ReturnType<typeof parseFaultFlag>[];
} {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
      seed: { type: 'string' },
      'time-scale': { type: 'string' },
      scenario: { type: 'string' },
      'flaky-fixture': { type: 'string' },
      fault: { type: 'string', multiple: true },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (values.token !== undefined && values.token.trim() === '')
    throw new Error('--token: give a non-empty token');
  const port = numberFlag(
    'port',
    values.port,
    (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
    'a port 0..65535 (0 picks a free one)',
  );
  const seed = numberFlag('seed', values.seed, Number.isInteger, 'an integer');
  const timeScale = numberFlag(
    'time-scale',
    values['time-scale'],
    (n) => n > 0,
    'a number above 0 (virtual seconds per real second)',
  );
  const options: EmulatorOptions = {
    token: values.token ?? DEFAULT_TOKEN,
    ...(port !== undefined ? { port } : {}),
    ...(values.host ? { host: values.host } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(timeScale !== undefined ? { timeScale } : {}),
    ...(values.scenario ? { scenario: values.scenario } : {}),
    ...(values['flaky-fixture'] ? { flakyFixture: values['flaky-fixture'] } : {}),
  };
  return { options, faults: (values.fault ?? []).map(parseFaultFlag) };
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof optionsFrom>;
  try {
    parsed = optionsFrom(process.argv.slice(2));
  } catch (error) {
    console.error(`emulator: ${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator(parsed.options);
  } catch (error) {
    console.error(`emulator: ${(error as Error).message}`);
    process.exit(1);
  }
  const stop = () => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  for (const { path, faults } of parsed.faults) emulator.faults.plan(path, faults);
  console.log(`Merge-queue API emulator listening on ${emulator.url}`);
  console.log(`Token: ${emulator.token}`);
  console.log(`Control surface: ${emulator.origin}/_emulator (see emulator/README.md)`);
  if (parsed.options.timeScale) console.log(`Virtual time runs ${parsed.options.timeScale}x real time.`);
}

await main();
