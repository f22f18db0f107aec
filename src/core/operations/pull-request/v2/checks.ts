// A verification run's normalized checks (check runs and commit statuses in one shape), as people read
// them: the required ones first, failures first among those, each with whether it is required.
import { CHECK_CONCLUSION_V1, CHECK_STATUS_V1, toV1, type V2 } from '../../../../wire/v2/index.js';

export interface RunCheck {
  name: string;
  /** The conclusion in v1's spelling (FAILURE, TIMED_OUT), or the status while it runs (IN_PROGRESS). */
  result: string;
  required: boolean;
  failed: boolean;
  url: string;
}

const FAILED = new Set(['failure', 'timeout', 'cancelled']);
const MAX_CHECKS = 200;

export function runChecks(run: Pick<V2<'VerificationRun'>, 'checks' | 'requiredStatuses'>): RunCheck[] {
  const required = new Set(run.requiredStatuses ?? []);
  const all = (run.checks ?? []).slice(0, MAX_CHECKS);
  // A required status reported both as a check run and as a commit status is one check to a reader.
  const checkRuns = new Set(all.filter((check) => check.kind === 'checkRun').map((check) => check.name));
  const shown = all.filter((check) => check.kind !== 'statusCheck' || !checkRuns.has(check.name));
  const checks = shown.map((check) => {
    const done = check.status === 'completed';
    return {
      name: String(check.name).slice(0, 200),
      result: String(
        (done ? toV1(CHECK_CONCLUSION_V1, check.conclusion) : toV1(CHECK_STATUS_V1, check.status)) ?? '',
      ).slice(0, 40),
      required: required.has(check.name),
      failed: done && FAILED.has(check.conclusion),
      url: typeof check.url === 'string' && /^https?:\/\//i.test(check.url) ? check.url.slice(0, 2000) : '',
    };
  });
  return checks.sort(
    (a, b) => Number(b.required) - Number(a.required) || Number(b.failed) - Number(a.failed),
  );
}

/** The required checks that have not reported at all (a run waits on them). */
export function missingRequired(run: Pick<V2<'VerificationRun'>, 'checks' | 'requiredStatuses'>): string[] {
  const seen = new Set((run.checks ?? []).map((check) => check.name));
  return (run.requiredStatuses ?? []).filter((name) => !seen.has(name));
}
