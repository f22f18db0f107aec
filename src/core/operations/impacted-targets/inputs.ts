// Inputs of set-impacted-targets.
import { InputError } from '../../errors.js';
import type { Inputs, InputSpec } from '../../inputs.js';
import {
  CHANGED_FILES_INPUTS,
  UPLOAD_CONFIG_INPUT,
  readComputeSettings,
  type ComputeSettings,
} from './compute/inputs.js';

export const MISSING_TOKEN_POLICIES = ['fail', 'warn', 'skip'] as const;
export type MissingTokenPolicy = (typeof MISSING_TOKEN_POLICIES)[number];

export interface ImpactedTargetsSettings {
  /** Exactly one of these four is set. */
  file?: string;
  inline?: string;
  impactsAll: boolean;
  /** Compute the targets from the changed files with targets-config. */
  compute?: ComputeSettings;
  onMissingToken: MissingTokenPolicy;
}

export const IMPACTED_TARGETS_INPUTS: readonly InputSpec[] = [
  {
    name: 'impacted-targets-file',
    description: "A file with the PR's impacted targets - a JSON array of strings, or one target per line.",
  },
  {
    name: 'impacted-targets',
    description: 'The targets inline - a JSON array, one per line, or the word ALL.',
  },
  { name: 'impacts-all', boolean: true, description: 'True when the PR impacts every target.' },
  UPLOAD_CONFIG_INPUT,
  ...CHANGED_FILES_INPUTS,
  {
    name: 'on-missing-token',
    values: MISSING_TOKEN_POLICIES,
    default: 'fail',
    description: 'What to do for a same-repository PR when api-token is empty - fail, warn or skip.',
  },
];

export function readImpactedTargetsSettings(input: Inputs): ImpactedTargetsSettings {
  const file = input.text('impacted-targets-file');
  const inline = input.raw('impacted-targets');
  const impactsAll = input.boolean('impacts-all') ?? false;
  const config = input.text('targets-config');
  const settings: ImpactedTargetsSettings = {
    file: file || undefined,
    inline: inline.trim() ? inline : undefined,
    impactsAll,
    compute: config ? readComputeSettings(input, config) : undefined,
    onMissingToken: input.choice('on-missing-token', MISSING_TOKEN_POLICIES) ?? 'fail',
  };
  {
    const given = [
      settings.file && 'impacted-targets-file',
      settings.inline && 'impacted-targets',
      impactsAll && 'impacts-all',
      settings.compute && 'targets-config',
    ].filter(Boolean);
    if (given.length === 0) {
      // Most often an expression such as ${{ steps.x.outputs.path }} that came out empty.
      throw new InputError(
        'impacted-targets-file',
        'is empty, and so are impacted-targets, impacts-all and targets-config',
        'Set impacted-targets-file to the path of the targets file (check that the expression giving it is not empty), or impacted-targets to the targets inline, or impacts-all: true, or targets-config to compute them from the changed files.',
      );
    }
    if (given.length > 1) {
      throw new InputError(
        given.join('" and "'),
        given.length === 2 ? 'are both set' : 'are all set',
        'Give exactly one source of targets: impacted-targets-file (a path), impacted-targets (inline, or ALL), impacts-all: true, or targets-config (computed from the changed files).',
      );
    }
  }
  return settings;
}
