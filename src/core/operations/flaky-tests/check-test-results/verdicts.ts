// Why a test failed, as far as the service can tell: each failure of the run gets one verdict, from what
// the service knows about the test. The first that applies wins, in this order.
export const VERDICTS = ['quarantined', 'known-flaky', 'failing-on-target', 'new'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** How the summary and the annotations say each verdict. */
export const VERDICT_LABELS: Record<Verdict, string> = {
  quarantined: 'quarantined',
  'known-flaky': 'known flaky',
  'failing-on-target': 'also failing on the target branch',
  new: 'likely caused by this PR',
};

export interface KnownStatus {
  quarantined: boolean;
  /** lowercase status in the unhealthy listing: flaky, broken, or undefined when not listed. */
  unhealthyStatus?: string;
  /** Listed by list-failing-tests in the window. */
  failingInWindow: boolean;
}

export function verdictOf(known: KnownStatus): Verdict {
  if (known.quarantined) return 'quarantined';
  if (known.unhealthyStatus === 'flaky') return 'known-flaky';
  if (known.unhealthyStatus === 'broken' || known.failingInWindow) return 'failing-on-target';
  return 'new';
}
