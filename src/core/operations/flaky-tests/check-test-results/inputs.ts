// Inputs of check-test-results, the quarantine gate over JUnit reports.
import { InputError } from '../../../errors.js';
import { quoted, type Inputs, type InputSpec } from '../../../inputs.js';
import { readFlakyTestsSettings, type FlakyTestsSettings } from '../inputs.js';
import { VERDICTS, type Verdict } from './verdicts.js';

export const ON_SERVICE_ERROR_VALUES = ['pass-with-warning', 'fail'] as const;
export type OnServiceError = (typeof ON_SERVICE_ERROR_VALUES)[number];

export interface CheckTestResultsSettings extends FlakyTestsSettings {
  junitPaths: string[];
  variant: string;
  onServiceError: OnServiceError;
  failOnVerdicts: Verdict[];
  /** The checkout, where report paths, test files and CODEOWNERS are looked up. */
  checkoutDir: string;
}

export const CHECK_TEST_RESULTS_INPUTS: readonly InputSpec[] = [
  {
    name: 'junit-paths',
    required: true,
    description:
      'JUnit XML reports: globs relative to the checkout, one per line or comma-separated (e.g. `reports/**/*.xml`).',
  },
  {
    name: 'variant',
    default: '',
    description:
      'The variant these tests ran in (e.g. linux-x64), as uploaded to the service; empty for none.',
  },
  {
    name: 'on-service-error',
    values: ON_SERVICE_ERROR_VALUES,
    default: 'pass-with-warning',
    description:
      'When the service cannot be reached - pass-with-warning (an outage never turns the build red on its own) or fail.',
  },
  {
    name: 'fail-on-verdict',
    default: 'new',
    description:
      'Unquarantined failures that fail the step, by verdict - new (likely caused by this PR), failing-on-target, known-flaky, or any; comma-separated.',
  },
  {
    name: 'checkout-dir',
    default: '.',
    description: 'The checkout: junit-paths, test files and CODEOWNERS are found from here.',
  },
];

const FAILING_VERDICTS = VERDICTS.filter((verdict) => verdict !== 'quarantined');

export function readCheckTestResultsSettings(input: Inputs, operation: string): CheckTestResultsSettings {
  const junitPaths = splitGlobs(input.raw('junit-paths'));
  if (!junitPaths.length) {
    throw new InputError(
      'junit-paths',
      'is empty',
      'Set it to your JUnit XML reports, e.g. `reports/**/*.xml`.',
    );
  }
  return {
    ...readFlakyTestsSettings(input, operation),
    junitPaths,
    variant: input.text('variant'),
    onServiceError: input.choice('on-service-error', ON_SERVICE_ERROR_VALUES) ?? 'pass-with-warning',
    failOnVerdicts: readFailOnVerdicts(input.list('fail-on-verdict')),
    checkoutDir: input.text('checkout-dir') || '.',
  };
}

function readFailOnVerdicts(given: string[]): Verdict[] {
  if (!given.length) return ['new'];
  const verdicts = new Set<Verdict>();
  for (const value of given.map((v) => v.toLowerCase())) {
    if (value === 'any') FAILING_VERDICTS.forEach((verdict) => verdicts.add(verdict));
    else if ((FAILING_VERDICTS as readonly string[]).includes(value)) verdicts.add(value as Verdict);
    else {
      throw new InputError(
        'fail-on-verdict',
        `${quoted(value)} is not a verdict${value === 'quarantined' ? ' that can fail the step (a quarantined failure never does)' : ''}`,
        `Use ${FAILING_VERDICTS.join(', ')} or any, comma-separated.`,
      );
    }
  }
  return [...verdicts];
}

/** Globs one per line or comma-separated; a comma inside braces (`*.{xml,junit}`) belongs to the glob. */
export function splitGlobs(value: string): string[] {
  const globs: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of value) {
    if (char === '{') depth++;
    if (char === '}') depth = Math.max(0, depth - 1);
    if (char === '\n' || (char === ',' && depth === 0)) {
      globs.push(current);
      current = '';
    } else current += char;
  }
  globs.push(current);
  return globs.map((glob) => glob.trim()).filter(Boolean);
}
