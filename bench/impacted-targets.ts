// A 20 MiB impacted-targets upload: `node dist/index.js` doing set-impacted-targets with a targets file
// (a JSON array whose request body comes to exactly the service's 20 MiB limit, so that the list is
// sent, not replaced by ALL) against the floor: `curl --data-binary @body.json` of the very same body to
// the same emulator. Runs interleaved; both under GNU time for their peak resident memory.
// Two results: the wall time (goal: at most 1.5x curl's, issue 13) and the peak RSS above Node's own
// baseline, the peak of `node -e ""` measured in the same run (goal: at most 2x the file's size).
// Two more subjects split the cost for the notes: `node -e ""` itself, and the action uploading a
// file of ten targets (start-up and everything but the list).
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { example } from '../__tests__/helpers/webhook-examples.js';
import { MAX_BODY_BYTES } from '../src/wire/index.js';
import { interleave, median, round, timeProcess, type ProcessRun } from './lib/measure.js';
import { emitResults, progress, QUICK, ratioOf, type BenchResult } from './lib/result.js';
import { launchEmulator, REPO_ROOT } from './lib/servers.js';
import { stepEnvironment } from './lib/step-env.js';

const RUNS = QUICK ? 2 : 10;
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

/** Bazel-like labels, all different, in a JSON array whose request body is exactly `bodyBytes` long. */
function targetsMakingBody(bodyBytes: number): string[] {
  const size = (targets: string[]) =>
    Buffer.byteLength(JSON.stringify({ ...envelope, impactedTargets: targets }));
  const targets: string[] = [];
  let bytes = size([]);
  for (let i = 0; ; i++) {
    const target = `//services/${['api', 'web', 'jobs', 'lib'][i % 4]}/module_${i}/src:${['lib', 'test', 'bin'][i % 3]}_${i % 97}`;
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
  progress(`writing a targets file whose body is ${BODY_BYTES} bytes...`);
  const targets = targetsMakingBody(BODY_BYTES);
  const files = {
    targets: join(dir, 'targets.json'),
    smallTargets: join(dir, 'small-targets.json'),
    body: join(dir, 'body.json'),
  };
  writeFileSync(files.targets, JSON.stringify(targets));
  writeFileSync(files.smallTargets, JSON.stringify(targets.slice(0, 10)));
  writeFileSync(files.body, JSON.stringify({ ...envelope, impactedTargets: targets }));
  const fileBytes = statSync(files.targets).size;

  const step = stepEnvironment(dir, {
    eventName: 'pull_request',
    payload,
    repository: payload.repository.full_name,
  });
  const runnerEnv = step.env;
  const actionEnv = (targetsFile: string) => ({
    ...runnerEnv,
    INPUT_OPERATION: 'set-impacted-targets',
    'INPUT_API-URL': emulator.url,
    'INPUT_API-TOKEN': TOKEN,
    'INPUT_IMPACTED-TARGETS-FILE': targetsFile,
  });
  const curlArgs = [
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
    `@${files.body}`,
    `${emulator.url}/setImpactedTargets`,
  ];

  interface Sample {
    ms: number;
    peakKiB: number;
  }
  /** Runs the command under GNU time; its last stderr line is the peak RSS in KiB. */
  const measured = async (
    what: string,
    args: string[],
    env: NodeJS.ProcessEnv,
    ok: (r: ProcessRun) => boolean,
  ) => {
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

  const samples = await interleave<Sample>(
    [
      {
        name: 'action',
        run: () =>
          measured(
            'node dist/index.js',
            [NODE, 'dist/index.js'],
            actionEnv(files.targets),
            sentList(targets.length),
          ),
      },
      {
        name: 'curl',
        run: () => measured('curl --data-binary', ['curl', ...curlArgs], {}, () => true),
      },
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
            actionEnv(files.smallTargets),
            sentList(10),
          ),
      },
    ],
    RUNS,
    1,
  );
  const medianOf = (subject: string, field: keyof Sample) =>
    median(samples.get(subject)!.map((s) => s[field]));
  progress(
    `medians: ${[...samples.keys()].map((k) => `${k} ${medianOf(k, 'ms').toFixed(0)} ms, ${(medianOf(k, 'peakKiB') / 1024).toFixed(1)} MiB`).join('; ')}`,
  );

  const actionMs = medianOf('action', 'ms');
  const curlMs = medianOf('curl', 'ms');
  const smallMs = medianOf('small', 'ms');
  const nodeMiB = medianOf('node', 'peakKiB') / 1024;
  const actionMiB = medianOf('action', 'peakKiB') / 1024;
  const smallMiB = medianOf('small', 'peakKiB') / 1024;
  const curlMiB = medianOf('curl', 'peakKiB') / 1024;
  const fileMiB = fileBytes / MiB;
  const aboveNode = actionMiB - nodeMiB;

  const command = `node dist/index.js (set-impacted-targets, impacted-targets-file: a ${round(fileMiB, 2)} MiB JSON array of ${targets.length} targets, body ${BODY_BYTES} bytes)`;
  const timeRatio = ratioOf(actionMs, curlMs);
  const rssRatio = ratioOf(aboveNode, fileMiB);
  const results: BenchResult[] = [
    {
      name: `Impacted targets: ${SIZE_LABEL} upload, wall time`,
      figure: round(actionMs, 1),
      unit: 'ms',
      floor: round(curlMs, 1),
      ratio: timeRatio === null ? null : round(timeRatio, 2),
      goal: `ratio <= ${GOAL_TIME_RATIO}`,
      met: timeRatio !== null && timeRatio <= GOAL_TIME_RATIO,
      runs: RUNS,
      command,
      floorCommand: `curl --data-binary @body.json (the same ${BODY_BYTES}-byte body, same emulator)`,
      notes: `The same action with 10 targets takes ${round(smallMs)} ms (start-up, context, one small request), so reading, checking and streaming the list cost about ${round(actionMs - smallMs)} ms; both figures include the emulator parsing and validating the body. The list is sent while it is checked: once the file is read, a request goes out with the body the file makes if it is already the compact list, all of it but its last byte, which goes when the check has found that it is (else the request is destroyed and the checked body sent).`,
    },
    {
      name: `Impacted targets: ${SIZE_LABEL} upload, peak RSS above Node's baseline`,
      figure: round(aboveNode, 1),
      unit: 'MiB',
      floor: round(fileMiB, 2),
      ratio: rssRatio === null ? null : round(rssRatio, 2),
      goal: `ratio <= ${GOAL_RSS_RATIO} (x the file's size)`,
      met: rssRatio !== null && rssRatio <= GOAL_RSS_RATIO,
      runs: RUNS,
      command: `${command}: peak RSS (GNU time) minus that of node -e "" (${round(nodeMiB, 1)} MiB)`,
      floorCommand: 'the size of the targets file',
      notes: `Peak RSS: action ${round(actionMiB, 1)} MiB, the action with 10 targets ${round(smallMiB, 1)} MiB (loading the bundle), node -e "" ${round(nodeMiB, 1)} MiB, curl sending the same body ${round(curlMiB, 1)} MiB. The file is read once, in place, into one buffer of its size; the list is kept as byte ranges of it with a hash table for duplicates; the body is streamed from that buffer, never built whole: runs of targets that the file already spells as compact JSON go out as slices of it (1 MiB at most, no copy), the rest is copied in 64 KiB chunks.`,
    },
  ];
  emitResults(results);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await emulator.stop();
}
