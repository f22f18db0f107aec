// The hand-tuned code that a benchmark's goal bought, removed or kept, each with the before/after figure
// it was judged by: medians of at least 7 rounds alternating the build with the trick and the build
// without it, on the trick's own benchmark (`--entry <new> --vs <old>`). A trick stays only if it buys
// 3% or more of that benchmark or a goal needs it; a kept one has a unit test of its own and a "how it
// works" comment at the top of its module. bench/run.ts writes this list into BENCHMARKS.md.

export interface SpeedTrick {
  what: string;
  files: string;
  kept: boolean;
  /** The figure it was judged by, and where it came from. */
  figure: string;
}

export const SPEED_TRICKS: SpeedTrick[] = [
  {
    what: 'Word-at-a-time hashing of targets (a linear hash modulo 2^31 - 1 read four bytes at a time)',
    files: 'src/core/operations/impacted-targets/target-hash.ts, buffer-words.ts',
    kept: false,
    figure:
      "Replaced by FNV-1a over every byte with a final mix: the linear hash collided on users' names (72,000 of 100,000 sequential Bazel labels shared a hash) and fell back to the slow rebuild. 20 MiB upload, 9 rounds, byte hash / word hash: Bazel labels 0.60x, npm names 0.64x, paths 0.59x, the old varied labels 0.86x (paired 0.64-1.93).",
  },
  {
    what: 'SWAR byte counting (quotes and newlines four bytes at a time)',
    files: 'src/core/operations/impacted-targets/count-byte.ts, buffer-words.ts',
    kept: false,
    figure:
      '20 MiB upload of Bazel labels, 9 rounds: plain loop / SWAR 0.87x by medians, 0.91x paired (0.76-1.78): no measurable gain.',
  },
  {
    what: 'Galloping incremental sort of unhealthy tests as pages arrive',
    files: 'src/core/operations/flaky-tests/incremental-sort.ts',
    kept: false,
    figure:
      'Nightly report, 7 rounds: one stable sort at the end / incremental merge 0.93x by medians, 0.88x paired (0.57-0.98): no measurable gain.',
  },
  {
    what: "Page-token sniffing: the next page asked for from the answer's text, before it is parsed",
    files: 'src/core/operations/flaky-tests/pages.ts (nextPageTokenIn), src/core/api/client.ts (onAnswer)',
    kept: true,
    figure:
      "Nightly report, 7 rounds: without / with 1.23x by medians, 1.04x paired (0.88-1.45); above 3%, and the report's goal (1.15x the token chain) needs each page's parse overlapped with the next wait. Test: __tests__/core/flaky-pages.test.ts.",
  },
  {
    what: "Vectored write of a report's pieces (one writev, again from where it stopped)",
    files: 'src/core/operations/step-file.ts, src/core/operations/flaky-tests/report-file.ts, report-csv.ts',
    kept: true,
    figure:
      "Nightly report, 7 rounds: one Buffer.concat and writeFile / writev 1.34x by medians, 1.31x paired (0.65-1.51), measured with the machine's load average at 20-24 on 2 cores: above 3% as measured, so kept, though a wide spread. Test: __tests__/core/step-file.test.ts.",
  },
  {
    what: "The CSV report's rows made (secrets hidden) as each page arrives, like the JSON report's items",
    files: 'src/core/operations/flaky-tests/report-csv.ts, unhealthy.ts',
    kept: true,
    figure:
      'Nightly report, 9 rounds alternating the builds, load average 7.7-8.1: wall 4.019 to 3.687 s by medians (0.917x), 0.957x paired (0.77-1.19), CPU 0.949x paired; peak RSS 122 to 111 MiB. Test: __tests__/core/flaky-unhealthy.test.ts.',
  },
  {
    what: 'Targets kept as byte ranges of the file with a hash table for duplicates, the body streamed from the file',
    files: 'src/core/operations/impacted-targets/target-list.ts, source.ts, request-body.ts',
    kept: true,
    figure:
      "Bought the 20 MiB upload's memory goal (peak RSS 1.95x the file's size, goal 2x; figure from the round that added it, issue 29); the RSS rows above measure it on every shape. Then a target's end found from the bytes after it instead of a 2-byte length kept per target (9 bytes a target, not 11): npm names (723,149 targets), 9 rounds alternating the builds, peak RSS 78.2 to 76.9 MiB, 40.6 to 39.3 MiB above Node's baseline (2.03x to 1.96x the file); 15 more rounds, CPU unchanged (paired 1.00), wall paired 0.985. Tests: __tests__/core/impacted-targets-source.test.ts, impacted-targets-hash.test.ts.",
  },
  {
    what: 'Early upload: the request goes out while the list is still being checked',
    files: 'src/core/operations/impacted-targets/early-upload.ts',
    kept: true,
    figure:
      "Bought the 20 MiB upload's time goal (1.63x to 1.42x curl, goal 1.5x; figure from the round that added it, issue 29). Test: __tests__/core/impacted-targets-early-upload.test.ts.",
  },
  {
    what: "Off-heap string ids for the quarantine gate's failed and skipped tests and the service's lists",
    files: 'src/core/operations/flaky-tests/check-test-results/string-ids.ts',
    kept: true,
    figure:
      "Bought the gate's memory goal (57 to 44 MiB above Node's baseline for 100 MB of reports, goal 48 MiB; figure from the round that added it, issue 29). Then its bytes in 1 MiB blocks that never move (a doubled buffer held the old and the new at once), a name cut of the classname jest-junit's default title repeats, the groups off the heap too: jest shape (105 MB, 361,120 cases), 7 rounds alternating the builds, peak RSS 222 to 154 MiB, wall unchanged (paired 1.01). The name cut and the groups went with the passed log below. Tests: __tests__/core/check-test-results-memory.test.ts.",
  },
  {
    what: "The quarantine gate's passed log: an 8-byte fingerprint per passed case instead of its name, the reports that logged a failed test's fingerprint read again and compared in full",
    files: 'src/core/operations/flaky-tests/check-test-results/passed-log.ts, results.ts, reports.ts',
    kept: true,
    figure:
      'jest shape (104.8 MB, 361,120 cases), 7 rounds alternating the builds, load 11-15: peak RSS 151 to 104 MiB (paired 0.686), wall 37,910 to 18,530 ms (paired 0.700, 0.44-1.21); pytest (100 MB, 238,162 cases): peak RSS 128 to 109 MiB (paired 0.850), wall paired 1.144 (0.58-1.38, noise), CPU 6,330 to 6,070 ms. Tests: __tests__/core/check-test-results-memory.test.ts, check-test-results.test.ts (a test that passed before it failed).',
  },
  {
    what: "The v2 client loaded only by a run that speaks v2 (a dynamic import in serviceClientFor), and the wait estimate's metrics parser only by a run that waits",
    files:
      'src/core/api/service-client.ts, src/core/operations/pull-request/v2/access.ts, src/core/operations/pull-request/estimate.ts, src/core/run.ts',
    kept: true,
    figure:
      "Kept for the bytes a run loads once the bundle had grown (get-submitted-pull-request over v1, bench/bundle.ts's recorder): the action 255,096 to 192,028 B, the CLI 287,326 to 224,291 B; the v2 client's chunk (its answer shapes, translations, transport: 58 kB minified) and prom2javascript were loaded by every v1 run. Start-up of the action, 21 rounds alternating the builds on a loaded machine: CPU 126 to 118 ms by medians (0.935x paired), wall 633 to 611 ms (0.960x paired, 0.72-1.48: noise). Earlier, alone at 146 to 121 kB, it was dropped as under 3% of start-up wall time (100 rounds 1.020x paired).",
  },
  {
    what: "The operation's chunk fetched as soon as the operation is named, while the context is resolved",
    files: 'src/core/operations/registry.ts (later)',
    kept: false,
    figure:
      'Start-up, 100 rounds alternating the builds: 0.989x paired (slower); 20 rounds of bench/startup.ts --vs 0.999x. Compiling the chunk runs on the main thread either way.',
  },
  {
    what: 'The entry re-minified by esbuild with ASCII-only output (no two-byte source string to decode)',
    files: 'scripts/minify-chunks.mjs',
    kept: false,
    figure:
      'Start-up, 20 rounds of bench/startup.ts --vs: dist/index.js 146 to 132 kB, 1.005x paired (0.84-1.35): no measurable gain. Tried again on every file the run loads (the entry and its chunks): 60 rounds rotating three builds, 0.982x paired on top of the lazy loads above.',
  },
  {
    what: "The queue's line asked for at the same time as the PR, and cancelled when the PR is not in line",
    files: 'src/core/operations/pull-request/line.ts, src/core/api/client.ts (a signal in CallOptions)',
    kept: false,
    figure:
      'Start-up, 40 rounds alternating the builds: 1.039x paired (slower). The second request opens a second connection, which the emulator answers after the first; against the real service over TLS a second connection costs a handshake, more than the round trip it saves.',
  },
  {
    what: 'Each module of the bundle wrapped in parentheses, so that V8 compiles it at once instead of pre-parsing it and parsing it again when it runs',
    files: 'scripts/minify-chunks.mjs',
    kept: false,
    figure: 'Start-up, 40 rounds alternating the builds: 1.014x paired (slower).',
  },
  {
    what: 'esbuild instead of ncc: one scope-hoisted bundle, split into shared chunks',
    files: 'package.json (bundle)',
    kept: false,
    figure:
      'Start-up, 20 rounds alternating the builds: 1.130x paired (slower): a run loaded 16 files instead of 3 (the entry, the operation chunk and one shared chunk).',
  },
  {
    what: "The quarantine gate's next chunk read asynchronously into a second buffer while the current one is parsed",
    files: 'src/core/operations/flaky-tests/check-test-results/junit.ts',
    kept: false,
    figure:
      'pytest shape (100 MB), 11 rounds alternating the builds: 0.966x paired; the parse still waited 125-200 ms on the thread pool. The synchronous reads below buy 12-21%.',
  },
  {
    what: "The quarantine gate's reports read synchronously, a turn of the event loop before each chunk, instead of awaiting the thread pool for every 32 KiB",
    files: 'src/core/operations/flaky-tests/check-test-results/junit.ts',
    kept: true,
    figure:
      "100 MB of reports, 7 rounds alternating the builds, wall: pytest 3,131 to 2,832 ms (0.878x paired), surefire 1,716 to 1,344 ms (0.793x), Bazel 2,512 to 1,993 ms (0.798x); peak RSS, 5 rounds: surefire unchanged, pytest 106.9 to 111.2 MiB, Bazel 86.6 to 96.7 MiB (the parse allocates faster, and V8 grows its young generation sooner). The benchmark's sax floor reads synchronously too: 0.57-0.81x of what it took with asynchronous reads. Test: __tests__/core/check-test-results.test.ts (other work runs between the chunks of a report).",
  },
  {
    what: "A listing's page kept in one go when the next page's request waits for it (the quarantine gate's listings), with turns of the event loop only while the next request is already out (the nightly report's)",
    files: 'src/core/operations/flaky-tests/pages.ts (followPages)',
    kept: true,
    figure:
      "The gate against the emulator answering 20 ms after each request, 100 MB of reports, 7 rounds alternating the builds, wall: surefire 3,120 to 2,670 ms (0.856x paired), pytest 4,190 to 3,140 ms (0.808x), Bazel 3,060 to 2,820 ms (0.914x), jest 4,790 to 4,640 ms (0.983x); with no latency 0.91-1.04x paired (within the rounds' spread), peak RSS 0.96-1.03x. A turn every 10 items had let a 32 KiB chunk of the reports be parsed before each next ten, so each of the chain's 100 pages waited for nine chunks before its next request. Test: __tests__/core/flaky-pages.test.ts (no turn between a page and the next request when none is out).",
  },
  {
    what: "The quarantine gate's next page asked for from the answer's text, before the page is parsed (the nightly report's early request)",
    files: 'src/core/operations/flaky-tests/check-test-results/service-lists.ts',
    kept: false,
    figure:
      'On top of the page kept in one go, against the emulator answering 20 ms after each request (builds without --minify): surefire, 7 rounds, 0.99x paired, peak RSS 1.04x (two pages of each listing held at once).',
  },
  {
    what: "The quarantine gate's reports parsed in a worker thread while the main thread reads the service's lists",
    files:
      'src/core/operations/flaky-tests/check-test-results/operation.ts, reports.ts (a prototype: a worker entry built by ncc on its own, the results posted back)',
    kept: false,
    figure:
      "100 MB of reports, the emulator at no distance, 9 rounds alternating the same build with and without the worker, wall: surefire 1.03x paired, pytest 1.07x, Bazel 0.96x; peak RSS 1.23x, 1.10x, 1.05x (4-18 MiB more). Our reading, not measured apart: the machine's other core is busy with the emulator answering the lists and the main thread reading them, and the worker starts a heap of its own.",
  },
  {
    what: "package-lock.json compared with one walk index (the head's) and equal entries told apart by their names in order, not sorted",
    files: 'src/core/operations/impacted-targets/compute/lockfile-npm.ts',
    kept: true,
    figure:
      "documenso's recorded lockfile, one cold call in a fresh process, 9 alternating runs (load 8-12): 90 to 45 ms by medians. The whole action on bench/workspace-peers.ts's turbo case, 15 rounds (load 14): CPU 207 to 196 ms. Tests: __tests__/core/impacted-targets-lockfile-property.test.ts (against the closure worked out whole), impacted-targets-lockfiles.test.ts.",
  },
  {
    what: "No API client loaded by a run of an operation that calls no service (api: 'none'), unless it is a merge-queue run",
    files: 'src/core/run.ts (loadService)',
    kept: true,
    figure:
      "dist/index.js 198 to 103 kB. bench/workspace-peers.ts's turbo case, Node 24.22, 15 rounds (load 14-16): CPU 170 to 159 ms by medians, wall 0.83x paired; Node 20, the action's start alone: CPU 113 to 106 ms. Test: __tests__/core/merge-queue-run.test.ts (the client still comes on a merge-queue run).",
  },
  {
    what: "V8's compile cache (module.enableCompileCache, Node 22.1 and later) for the action's chunks",
    files:
      'src/github-action/index.ts (a prototype: the entry enabling the cache, then importing the bundle)',
    kept: false,
    figure:
      "bench/workspace-peers.ts's turbo case, Node 24.22, 11 rounds (load 14): warm cache 183 ms CPU against 180 without, cold (a new cache directory each run, as on a GitHub-hosted runner, which starts every job afresh) 169 against 163: nothing to gain, and a cost where it matters.",
  },
  {
    what: "The quarantine gate's young generation held at the size it has while the gate runs (V8's semi-space growth factor set to 1, then back to 2)",
    files: 'src/core/operations/flaky-tests/check-test-results/young-generation.ts, operation.ts',
    kept: true,
    figure:
      "100 MB of reports, the emulator at no distance, 7 rounds alternating the builds (ncc, --minify), each process with the step's environment alone, load average 9-11; peak RSS by medians (node -e 0: 37.5 MiB): pytest 108.8 to 86.7 MiB, jest 103.2 to 85.3, Bazel 97.2 to 72.7, surefire 81.0 to 69.3; the gate on one small report 70.3 to 61.4. CPU paired: pytest 1.063x, jest 1.056x, Bazel 1.031x, surefire 1.028x (more, smaller collections; objects that outlive one reach the old generation sooner); wall paired 0.84-0.94x (within the rounds' spread). On Node 24.21 (the action's runtime; node -e 0: 42.0 MiB), pytest, 5 rounds: 119.9 to 101.2 MiB, CPU 1.039x paired. Tests: the gate's own (__tests__/core/check-test-results.test.ts); by the house rule, no test asserts memory.",
  },
  {
    what: "The quarantine gate's report file written as one piece per failure (as the nightly report's), not one JSON string",
    files: 'src/core/operations/flaky-tests/check-test-results/operation.ts (gateOutputs), report-file.ts',
    kept: true,
    figure:
      "The gate's peak came after the parse, while test-results.json was one 2 MB string, its redacted copy and its encoding at once. 100 MB of reports, 7 rounds alternating the builds (ncc, --minify), step environment alone, load 15-20; peak RSS by medians: pytest (2,676 failures) 85.1 to 77.3 MiB, CPU 0.954x paired; jest (2,376 failures, peak during the parse) 82.2 to 81.6 MiB, CPU 1.037x. The file is byte for byte the same (checked on the pytest shape, generated_at aside). Tests: __tests__/core/check-test-results.test.ts (the report file's content).",
  },
];
