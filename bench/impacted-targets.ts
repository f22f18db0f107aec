// A 20 MiB impacted-targets upload: `node dist/index.js` doing set-impacted-targets with a targets file
// (a JSON array whose request body comes to exactly the service's 20 MiB limit, so that the list is
// sent, not replaced by ALL) against the floor: `curl --data-binary @body.json` of the very same body to
// the same emulator. Runs interleaved; both under GNU time for their peak resident memory.
// The targets come in the shapes users' lists have, one figure each: Bazel labels with long shared
// prefixes and sequential numbers, npm package names, file paths, and varied Bazel labels.
// Two results per shape: the wall time (goal: at most 1.5x curl's, issue 13) and the peak RSS above
// Node's own baseline, the peak of `node -e ""` measured in the same run (goal: at most 2x the file's
// size). Two more subjects split the cost for the notes: `node -e ""` itself, and the action uploading a
// file of ten targets (start-up and everything but the list).
// `--vs <entry>` (lib/result.ts) runs another build of the action in the same rounds, for before/after;
// `--shape <name>` measures one shape only.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { example } from '../__tests__/helpers/webhook-examples.js';
import { MAX_BODY_BYTES } from '../src/wire/index.js';
import { interleave, median, round, timeProcess, type Env, type ProcessRun } from './lib/measure.js';
import {
  emitResults,
  progress,
  ENTRY,
  optionValue,
  QUICK,
  ratioOf,
  VERSUS,
  type BenchResult,
} from './lib/result.js';
import { launchEmulator, REPO_ROOT } from './lib/servers.js';
import { stepEnvironment } from './lib/step-env.js';

const RUNS = QUICK ? 2 : 9;
const BODY_BYTES = QUICK ? 2 * 1024 * 1024 : MAX_BODY_BYTES;
const SIZE_LABEL = QUICK ? '2 MiB (quick)' : '20 MiB';
const GOAL_TIME_RATIO = 1.5;
const GOAL_RSS_RATIO = 2;
const TOKEN = 'bench-token';
const NODE = process.execPath;
const GNU_TIME = '/usr/bin/time';
const MiB = 1024 * 1024;

if (!existsSync(GNU_TIME))
  throw new Error(`${GNU_TIME} (GNU time) is needed for peak memory; install it (apt-get install time)`);

const payload = example('pull_request', (p) => p.action === 'opened');
const [owner, name] = payload.repository.full_name.split('/') as [string, string];
// The body exactly as the action builds it: the queue reference, the PR, then the list.
const envelope = {
  repo: { host: 'github.com', owner, name },
  targetBranch: payload.pull_request.base.ref,
  pr: { number: payload.pull_request.number, sha: payload.pull_request.head.sha },
};

const digits = (n: number, width: number) => String(n).padStart(width, '0');

/** The shapes of the benchmark's targets: the i-th target of each. */
const SHAPES: { name: string; label: string; target: (i: number) => string }[] = [
  {
    name: 'bazel',
    label: 'Bazel labels (//services/component-0000001/pkg:library_target_name)',
    target: (i) => `//services/component-${digits(i, 7)}/pkg:library_target_name`,
  },
  {
    name: 'npm',
    label: 'npm package names (@scope/package-name-000001)',
    target: (i) => `@scope/package-name-${digits(i, 6)}`,
  },
  {
    name: 'paths',
    label: 'file paths (src/modules/feature-00001/components/widget_12.tsx)',
    target: (i) => `src/modules/feature-${digits(i >>> 6, 5)}/components/widget_${i & 63}.tsx`,
  },
  {
    name: 'varied',
    label: 'varied Bazel labels (//services/api/module_1/src:test_1)',
    target: (i) =>
      `//services/${['api', 'web', 'jobs', 'lib'][i % 4]}/module_${i}/src:${['lib', 'test', 'bin'][i % 3]}_${i % 97}`,
  },
];

// `--shape <name>`: only that shape (for a quicker before/after).
const SHAPE = optionValue('--shape');
if (SHAPE && !SHAPES.some((shape) => shape.name === SHAPE))
  throw new Error(`--shape ${SHAPE}: the shapes are ${SHAPES.map((shape) => shape.name).join(', ')}`);

/** The shape's targets, all different, in a JSON array whose request body is exactly `bodyBytes` long. */
function targetsMakingBody(bodyBytes: number, targetOf: (i: number) => string): string[] {
  const size = (targets: string[]) =>
    Buffer.byteLength(JSON.stringify({ ...envelope, impactedTargets: targets }));
  const targets: string[] = [];
  let bytes = size([]);
  for (let i = 0; ; i++) {
    const target = targetOf(i);
    if (bytes + target.length + 3 + 20 > bodyBytes) break;
    targets.push(target);
    bytes += target.length + 3;
  }
  const padding = bodyBytes - size(targets) - 3;
  targets.push(`//pad:${'p'.repeat(padding - '//pad:'.length)}`);
  if (size(targets) !== bodyBytes) throw new Error('could not size the targets to the body limit');
  return targets;
}

const emulator = await launchEmulator(TOKEN);
const dir = mkdtempSync(join(tmpdir(), 'bench-targets-'));
try {
  progress(`writing targets files whose bodies are ${BODY_BYTES} bytes...`);
  const inputs = SHAPES.filter((shape) => !SHAPE || shape.name === SHAPE).map((shape) => {
    const targets = targetsMakingBody(BODY_BYTES, shape.target);
    const files = { targets: join(dir, `${shape.name}.json`), body: join(dir, `${shape.name}-body.json`) };
    writeFileSync(files.targets, JSON.stringify(targets));
    writeFileSync(files.body, JSON.stringify({ ...envelope, impactedTargets: targets }));
    return { ...shape, count: targets.length, files, fileBytes: statSync(files.targets).size };
  });
  const smallTargets = join(dir, 'small-targets.json');
  writeFileSync(smallTargets, JSON.stringify(targetsMakingBody(BODY_BYTES, SHAPES[0]!.target).slice(0, 10)));

  const step = stepEnvironment(dir, {
    eventName: 'pull_request',
    payload,
    repository: payload.repository.full_name,
  });
  const actionEnv = (targetsFile: string) => ({
    ...step.env,
    INPUT_OPERATION: 'set-impacted-targets',
    'INPUT_API-URL': emulator.url,
    'INPUT_API-TOKEN': TOKEN,
    'INPUT_IMPACTED-TARGETS-FILE': targetsFile,
  });
  const curlArgs = (body: string) => [
    '--silent',
    '--show-error',
    '--fail',
    '--output',
    '/dev/null',
    '--header',
    `x-api-token: ${TOKEN}`,
    '--header',
    'content-type: application/json',
    '--data-binary',
    `@${body}`,
    `${emulator.url}/setImpactedTargets`,
  ];

  interface Sample {
    ms: number;
    peakKiB: number;
  }
  /** Runs the command under GNU time; its last stderr line is the peak RSS in KiB. */
  const measured = async (what: string, args: string[], env: Env, ok: (r: ProcessRun) => boolean) => {
    step.reset();
    const result = await timeProcess(GNU_TIME, ['-f', 'peak-rss-kib=%M', ...args], { cwd: REPO_ROOT, env });
    const peak = /peak-rss-kib=(\d+)\s*$/.exec(result.stderr);
    if (result.exitCode !== 0 || !peak || !ok(result)) {
      const said = (result.stdout + result.stderr).trim().split('\n').slice(-3).join(' | ');
      throw new Error(`${what} did not do its job (exit ${result.exitCode}): ${said}`);
    }
    return { ms: result.ms, peakKiB: Number(peak[1]) };
  };
  /** The action sent the whole list, not ALL: the outputs say so. */
  const sentList = (count: number) => () => {
    const outputs = readFileSync(step.files.output, 'utf8');
    return (
      /^impacted-targets-sent<<.+\nlist$/m.test(outputs) &&
      new RegExp(`^impacted-targets-count<<.+\\n${count}$`, 'm').test(outputs)
    );
  };
  const upload = (entry: string, input: (typeof inputs)[number]) => () =>
    measured(
      `node ${entry} (${input.name})`,
      [NODE, entry],
      actionEnv(input.files.targets),
      sentList(input.count),
    );

  const samples = await interleave<Sample>(
    [
      ...inputs.flatMap((input) => [
        { name: `action ${input.name}`, run: upload(ENTRY, input) },
        ...(VERSUS ? [{ name: `vs ${input.name}`, run: upload(VERSUS, input) }] : []),
        {
          name: `curl ${input.name}`,
          run: () => measured('curl --data-binary', ['curl', ...curlArgs(input.files.body)], {}, () => true),
        },
      ]),
      {
        name: 'node',
        run: () => measured('node -e ""', [NODE, '-e', ''], {}, () => true),
      },
      {
        name: 'small',
        run: () =>
          measured(
            'node dist/index.js (10 targets)',
            [NODE, 'dist/index.js'],
            actionEnv(smallTargets),
            sentList(10),
          ),
      },
    ],
    RUNS,
    1,
  );
  const medianOf = (subject: string, field: keyof Sample) =>
    median(samples.get(subject)!.map((s) => s[field]));
  const rangeOf = (subject: string) => {
    const values = samples.get(subject)!.map((s) => s.ms);
    return `${Math.round(Math.min(...values))}-${Math.round(Math.max(...values))}`;
  };
  progress(
    `medians: ${[...samples.keys()].map((k) => `${k} ${medianOf(k, 'ms').toFixed(0)} ms (${rangeOf(k)}), ${(medianOf(k, 'peakKiB') / 1024).toFixed(1)} MiB`).join('; ')}`,
  );
  if (VERSUS) {
    for (const input of inputs) {
      const now = samples.get(`action ${input.name}`)!.map((s) => s.ms);
      const before = samples.get(`vs ${input.name}`)!.map((s) => s.ms);
      const pairs = now.map((ms, i) => ms / before[i]!);
      progress(
        `--vs ${input.name}: ${ENTRY} ${median(now).toFixed(0)} ms (${rangeOf(`action ${input.name}`)}), ` +
          `${VERSUS} ${median(before).toFixed(0)} ms (${rangeOf(`vs ${input.name}`)}); ratio of medians ` +
          `${(median(now) / median(before)).toFixed(3)}, median of paired ratios ${median(pairs).toFixed(3)} ` +
          `(${Math.min(...pairs).toFixed(2)}-${Math.max(...pairs).toFixed(2)})`,
      );
    }
  }

  const smallMs = medianOf('small', 'ms');
  const nodeMiB = medianOf('node', 'peakKiB') / 1024;
  const smallMiB = medianOf('small', 'peakKiB') / 1024;
  const results: BenchResult[] = inputs.flatMap((input, index): BenchResult[] => {
    const actionMs = medianOf(`action ${input.name}`, 'ms');
    const curlMs = medianOf(`curl ${input.name}`, 'ms');
    const actionMiB = medianOf(`action ${input.name}`, 'peakKiB') / 1024;
    const curlMiB = medianOf(`curl ${input.name}`, 'peakKiB') / 1024;
    const fileMiB = input.fileBytes / MiB;
    const aboveNode = actionMiB - nodeMiB;
    const command = `node dist/index.js (set-impacted-targets, impacted-targets-file: a ${round(fileMiB, 2)} MiB JSON array of ${input.count} targets, body ${BODY_BYTES} bytes)`;
    const timeRatio = ratioOf(actionMs, curlMs);
    const rssRatio = ratioOf(aboveNode, fileMiB);
    const runs = `Runs ${rangeOf(`action ${input.name}`)} ms, curl ${rangeOf(`curl ${input.name}`)} ms.`;
    const how =
      index === 0
        ? ` The same action with 10 targets takes ${round(smallMs)} ms (start-up, context, one small request), so reading, checking and streaming this list cost about ${round(actionMs - smallMs)} ms; both figures include the emulator parsing and validating the body. The list is sent while it is checked: once the file is read, a request goes out with the body the file makes if it is already the compact list, all of it but its last byte, which goes when the check has found that it is (else the request is destroyed and the checked body sent).`
        : '';
    const memory =
      index === 0
        ? ` The file is read once, in place, into one buffer of its size; the list is kept as byte ranges of it with a hash table for duplicates; the body is streamed from that buffer, never built whole: runs of targets that the file already spells as compact JSON go out as slices of it (1 MiB at most, no copy), the rest is copied in 64 KiB chunks.`
        : '';
    return [
      {
        name: `Impacted targets: ${SIZE_LABEL} upload of ${input.label}, wall time`,
        figure: round(actionMs, 1),
        unit: 'ms',
        floor: round(curlMs, 1),
        ratio: timeRatio === null ? null : round(timeRatio, 2),
        goal: `ratio <= ${GOAL_TIME_RATIO}`,
        met: timeRatio !== null && timeRatio <= GOAL_TIME_RATIO,
        runs: RUNS,
        command,
        floorCommand: `curl --data-binary @body.json (the same ${BODY_BYTES}-byte body, same emulator)`,
        notes: runs + how,
      },
      {
        name: `Impacted targets: ${SIZE_LABEL} upload of ${input.label}, peak RSS above Node's baseline`,
        figure: round(aboveNode, 1),
        unit: 'MiB',
        floor: round(fileMiB, 2),
        ratio: rssRatio === null ? null : round(rssRatio, 2),
        goal: `ratio <= ${GOAL_RSS_RATIO} (x the file's size)`,
        met: rssRatio !== null && rssRatio <= GOAL_RSS_RATIO,
        runs: RUNS,
        command: `${command}: peak RSS (GNU time) minus that of node -e "" (${round(nodeMiB, 1)} MiB)`,
        floorCommand: 'the size of the targets file',
        notes:
          `Peak RSS: action ${round(actionMiB, 1)} MiB, the action with 10 targets ${round(smallMiB, 1)} MiB (loading the bundle), node -e "" ${round(nodeMiB, 1)} MiB, curl sending the same body ${round(curlMiB, 1)} MiB.` +
          memory,
      },
    ];
  });
  emitResults(results);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await emulator.stop();
}
