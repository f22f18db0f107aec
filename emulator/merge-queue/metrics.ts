// GET /getMergeQueueMetrics: the service's metric families in Prometheus text format 0.0.4, computed from
// the engine's queues and history over the last hour of virtual time.
import { type MergeQueueEngine, ACTIVE_STATES, type QueueRecord } from '../../src/queue-model/index.js';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
export const DURATION_BUCKETS_SECONDS = [60, 300, 600, 900, 1800, 3600, 5400, 7200] as const;
const HOUR_MS = 3_600_000;
const CONCLUSIONS = ['merged', 'failed', 'cancelled'] as const;
const QUEUE_TYPES = ['main', 'bisection'] as const;

type Labels = Record<string, string>;

interface Family {
  name: string;
  help: string;
  type: 'gauge' | 'histogram';
  lines: string[];
}

const FAMILIES = {
  depth: [
    'mq_depth_current',
    'gauge',
    'Pull requests in line (pending, testing, tests passed or pending failure); not-ready PRs are not.',
  ],
  awaiting: ['mq_awaiting_mergeability', 'gauge', 'Submitted pull requests not ready to enter the queue.'],
  slots: ['mq_testing_slots_active', 'gauge', 'Test runs in progress.'],
  // Rolling one-hour counts: gauges, as the service documents them (they go down as well as up).
  conclusions: ['mq_pr_conclusions_1h_total', 'gauge', 'Pull requests concluded in the last hour.'],
  restarts: ['mq_pr_restarts_1h_total', 'gauge', 'Pull requests sent back to pending in the last hour.'],
  wait: [
    'mq_pr_wait_duration_1h_seconds',
    'histogram',
    'Time from submission to the first test run, for runs started in the last hour.',
  ],
  test: [
    'mq_pr_test_duration_1h_seconds',
    'histogram',
    'Duration of test runs that finished in the last hour.',
  ],
  inQueue: [
    'mq_pr_time_in_queue_1h_seconds',
    'histogram',
    'Time from submission to conclusion, for pull requests concluded in the last hour.',
  ],
} as const satisfies Record<string, readonly [string, Family['type'], string]>;

type Families = Record<keyof typeof FAMILIES, Family>;

export function renderMetrics(engine: MergeQueueEngine, queues: QueueRecord[]): string {
  const since = engine.clock.now() - HOUR_MS;
  const families = Object.fromEntries(
    Object.entries(FAMILIES).map(([key, [name, type, help]]) => [key, { name, type, help, lines: [] }]),
  ) as unknown as Families;
  const restartsByQueue = countRestarts(engine, since);
  for (const queue of queues) {
    addGauges(families, queue, since, restartsByQueue.get(queue.key) ?? 0);
    addHistograms(families, queue, since);
  }
  return Object.values(families)
    .map((f) => [`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`, ...f.lines].join('\n'))
    .join('\n')
    .concat('\n');
}

function queueLabels(queue: QueueRecord): Labels {
  return { repo: `${queue.repo.owner}/${queue.repo.name}`, branch: queue.branch };
}

function addGauges(families: Families, queue: QueueRecord, since: number, restarts: number): void {
  const { depth, awaiting, slots, conclusions } = families;
  const base = queueLabels(queue);
  const main = { ...base, queue_type: 'main' };
  let bisecting = 0;
  let inLine = 0;
  for (const s of queue.live) {
    if (s.bisection) bisecting++;
    if (ACTIVE_STATES.has(s.state)) inLine++;
  }
  depth.lines.push(
    sample(depth.name, main, inLine),
    sample(depth.name, { ...base, queue_type: 'bisection' }, bisecting),
  );
  awaiting.lines.push(
    sample(awaiting.name, main, [...queue.live].filter((s) => s.state === 'not_ready').length),
  );
  for (const queueType of QUEUE_TYPES) {
    let running = 0;
    for (const run of queue.liveRuns) if (run.status === 'in_progress' && run.kind === queueType) running++;
    slots.lines.push(sample(slots.name, { ...base, queue_type: queueType }, running));
  }
  for (const conclusion of CONCLUSIONS) {
    const count = queue.submissions.filter(
      (s) => s.state === conclusion && s.concludedAt !== null && s.concludedAt > since,
    ).length;
    conclusions.lines.push(sample(conclusions.name, { ...main, conclusion }, count));
  }
  families.restarts.lines.push(sample(families.restarts.name, main, restarts));
}

function addHistograms(families: Families, queue: QueueRecord, since: number): void {
  const { wait, test, inQueue } = families;
  const base = queueLabels(queue);
  const main = { ...base, queue_type: 'main' };
  const waits = queue.submissions
    .filter((s) => s.firstTestStartedAt !== null && s.firstTestStartedAt > since)
    .map((s) => (s.firstTestStartedAt! - s.submittedAt) / 1000);
  wait.lines.push(...histogram(wait.name, main, waits));
  for (const queueType of QUEUE_TYPES) {
    const durations = [...queue.runs.values()]
      .filter(
        (r) =>
          r.kind === queueType && r.finishedAt !== null && r.finishedAt > since && r.status !== 'cancelled',
      )
      .map((r) => (r.finishedAt! - r.createdAt) / 1000);
    test.lines.push(...histogram(test.name, { ...base, queue_type: queueType }, durations));
  }
  const times = queue.submissions
    .filter((s) => s.concludedAt !== null && s.concludedAt > since)
    .map((s) => (s.concludedAt! - s.submittedAt) / 1000);
  inQueue.lines.push(...histogram(inQueue.name, main, times));
}

function countRestarts(engine: MergeQueueEngine, since: number): Map<string, number> {
  const counts = new Map<string, number>();
  const history = engine.history;
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i]!;
    if (event.at <= since) break;
    if (
      event.kind === 'pr_state' &&
      event.to === 'pending' &&
      event.from !== null &&
      event.from !== 'not_ready'
    ) {
      counts.set(event.queueKey, (counts.get(event.queueKey) ?? 0) + 1);
    }
  }
  return counts;
}

function histogram(name: string, labels: Labels, values: number[]): string[] {
  const lines = DURATION_BUCKETS_SECONDS.map((le) =>
    sample(`${name}_bucket`, { ...labels, le: String(le) }, values.filter((v) => v <= le).length),
  );
  lines.push(sample(`${name}_bucket`, { ...labels, le: '+Inf' }, values.length));
  lines.push(
    sample(
      `${name}_sum`,
      labels,
      values.reduce((sum, v) => sum + v, 0),
    ),
  );
  lines.push(sample(`${name}_count`, labels, values.length));
  return lines;
}

function sample(name: string, labels: Labels, value: number): string {
  const rendered = Object.entries(labels)
    .map(([key, v]) => `${key}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
    .join(',');
  return `${name}{${rendered}} ${value}`;
}
