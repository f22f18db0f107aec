// Inputs of plan-queue-settings (and the history file export-queue-history appends to).
import { InputError } from '../../errors.js';
import { give, nameOf, words, type Words } from '../../words.js';
import { quoted, type Inputs, type InputSpec } from '../../inputs.js';
import type { DurationModel } from '../../../queue-model/distributions.js';
import { SETTING_KINDS, SETTING_NAMES, type PlanSettings, type SettingName } from './settings.js';
import { parseArrivals, parseCiDuration, parseRate, type ArrivalPattern } from './synthetic-inputs.js';

export const OBJECTIVES = ['p90', 'p50', 'ci-minutes'] as const;
export const GRIDS = ['one-at-a-time', 'full'] as const;
export type Grid = (typeof GRIDS)[number];
export type Objective = (typeof OBJECTIVES)[number];

export interface Variation {
  name: SettingName;
  values: PlanSettings[SettingName][];
}

export interface SyntheticQueue {
  prs: number;
  arrivals: ArrivalPattern;
  ciDuration: DurationModel;
  culpritRate: number;
  flakeRate: number;
}

export interface PlanQueueSettings {
  /** History files to read, in the order given; empty in synthetic mode or when read from the API. */
  historyFiles: string[];
  days: number;
  vary: Variation[];
  grid: Grid;
  objective: Objective;
  seeds: number;
  runnerCap: number | undefined;
  ciMinutesBudget: CiMinutesBudget;
  requireFit: boolean;
  /** Set when the synthetic inputs describe the queue instead of its history. */
  synthetic: SyntheticQueue | undefined;
}

/** The most CI minutes per merged PR a recommendation may cost: a number, or a share of the current's. */
export type CiMinutesBudget = { kind: 'minutes'; minutes: number } | { kind: 'share'; share: number };
export const DEFAULT_CI_MINUTES_BUDGET = '150%';

const MAX_SEEDS = 20;
const MAX_PRS = 200_000;
const MAX_VALUES = 12;
/** More candidates than this in a full grid is refused (each is several replays). */
const MAX_FULL_GRID = 200;

export const PLAN_INPUTS: readonly InputSpec[] = [
  {
    name: 'history',
    description:
      'A history file written by export-queue-history to plan from (repeatable: one per flag or line). Without it, the last days are read from the API (v2).',
  },
  {
    name: 'days',
    default: '45',
    description: 'Without history files: read the last N days from the API (1-45).',
  },
  {
    name: 'vary',
    description:
      'A setting to try other values of, as key=v1,v2,... with its v2 config name (repeatable; each varied alone around the current settings), e.g. concurrency=2,3,4.',
  },
  {
    name: 'grid',
    default: 'one-at-a-time',
    values: GRIDS,
    description:
      'one-at-a-time: each varied setting alone around the current ones; full: every combination of the vary values.',
  },
  { name: 'objective', default: 'p90', values: OBJECTIVES, description: 'What a better setting shortens.' },
  { name: 'seeds', default: '3', description: 'How many seeds each candidate is replayed with (1-20).' },
  {
    name: 'runner-cap',
    description: 'How many CI runs can run at once; runs beyond it wait for a runner. Empty: no limit.',
  },
  {
    name: 'ci-minutes-budget',
    default: DEFAULT_CI_MINUTES_BUDGET,
    description:
      "The most CI minutes per merged PR a recommended setting may cost: minutes (40), or a share of the current settings' replayed cost (150%).",
  },
  {
    name: 'require-fit',
    boolean: true,
    default: 'false',
    description: 'Fail (exit code 1) when the model does not reproduce the history (fit false).',
  },
  { name: 'prs', description: 'Synthetic: how many PRs to replay (a queue with no history yet).' },
  {
    name: 'arrivals',
    default: '12/h',
    description: 'Synthetic: how PRs arrive: 12/h or 300/d (random at that mean), every:5m, or burst.',
  },
  {
    name: 'ci-duration',
    default: '30m',
    description: 'Synthetic: how long a CI run takes: 30m, or p50=18m,p90=31m.',
  },
  {
    name: 'culprit-rate',
    default: '0%',
    description: 'Synthetic: the share of PRs that break the build.',
  },
  {
    name: 'flake-rate',
    default: '0%',
    description: 'Synthetic: the chance a run of clean PRs fails anyway.',
  },
];

export interface ExportSettings {
  historyFile: string;
  since: string | undefined;
  until: string | undefined;
}

export const EXPORT_INPUTS: readonly InputSpec[] = [
  {
    name: 'history',
    required: true,
    description:
      'The history file to append to: JSON Lines (queue-history/1), gzip when its name ends in .gz.',
  },
  { name: 'since', description: 'Only PRs that concluded at or after this date-time (ISO 8601).' },
  { name: 'until', description: 'Only PRs that concluded before this date-time (ISO 8601).' },
];

export function readExportSettings(input: Inputs): ExportSettings {
  const historyFile = input.line('history');
  if (!historyFile) {
    throw new InputError(
      'history',
      'is empty',
      'Give the history file to append to, e.g. queue-history.jsonl.gz.',
    );
  }
  refuseCount(historyFile, 'export-queue-history', 'the file to append to, e.g. queue-history.jsonl.gz');
  return { historyFile, since: input.dateTime('since'), until: input.dateTime('until') };
}

const SYNTHETIC_ONLY = ['arrivals', 'ci-duration', 'culprit-rate', 'flake-rate'];

export function readPlanSettings(input: Inputs): PlanQueueSettings {
  const historyFiles = lines(input.raw('history'));
  for (const file of historyFiles) {
    refuseCount(
      file,
      'plan-queue-settings',
      words`a file written by export-queue-history; to read the last ${file} days from the API give ${nameOf('days')} ${file} instead`,
    );
  }
  const synthetic = readSynthetic(input);
  if (synthetic && historyFiles.length > 0) {
    throw new InputError(
      'prs',
      words`is given with ${nameOf('history')}, and a plan is either synthetic or from history`,
      words`Remove ${nameOf('prs')} (and the other synthetic inputs) to plan from the history files, or ${nameOf('history')} for a synthetic plan.`,
    );
  }
  const vary = lines(input.raw('vary')).map(parseVariation);
  refuseRepeatedSetting(vary);
  const grid = input.choice('grid', GRIDS) ?? 'one-at-a-time';
  if (grid === 'full' && vary.length === 0) {
    throw new InputError(
      'grid',
      words`is full, which combines the ${nameOf('vary')} values, but ${nameOf('vary')} is empty`,
      words`${give('vary')} (key=v1,v2,...) once per setting to combine.`,
    );
  }
  const size = vary.reduce((n, v) => n * v.values.length, 1);
  if (grid === 'full' && size > MAX_FULL_GRID) {
    throw new InputError(
      'grid',
      words`is full, and the ${nameOf('vary')} values make ${size} combinations (at most ${MAX_FULL_GRID})`,
      words`Give fewer values, or vary one setting at a time (${nameOf('grid')} one-at-a-time).`,
    );
  }
  return {
    historyFiles,
    days: input.integer('days', { min: 1, max: 45, fallback: 45 }),
    vary,
    grid,
    objective: input.choice('objective', OBJECTIVES) ?? 'p90',
    seeds: input.integer('seeds', { min: 1, max: MAX_SEEDS, fallback: 3 }),
    runnerCap: input.optionalInteger('runner-cap', { min: 1, max: 100_000 }),
    ciMinutesBudget: parseBudget(input.text('ci-minutes-budget') || DEFAULT_CI_MINUTES_BUDGET),
    requireFit: input.boolean('require-fit') ?? false,
    synthetic,
  };
}

function readSynthetic(input: Inputs): SyntheticQueue | undefined {
  const prs = input.optionalInteger('prs', { min: 1, max: MAX_PRS });
  if (prs === undefined) {
    const stray = SYNTHETIC_ONLY.find((name) => input.text(name));
    if (stray) {
      throw new InputError(
        stray,
        words`is a synthetic input, but ${nameOf('prs')} is not set`,
        words`${give('prs')} too (e.g. 200).`,
      );
    }
    return undefined;
  }
  return {
    prs,
    arrivals: parseArrivals('arrivals', input.text('arrivals') || '12/h'),
    ciDuration: parseCiDuration('ci-duration', input.text('ci-duration') || '30m'),
    culpritRate: parseRate('culprit-rate', input.text('culprit-rate') || '0%'),
    flakeRate: parseRate('flake-rate', input.text('flake-rate') || '0%'),
  };
}

/**
 * A bare number as history is lint-impacted-targets-config's meaning (commits to replay), not a file: one
 * line says so (a file really named that way can be given as ./30).
 */
function refuseCount(value: string, operation: string, takes: string | Words): void {
  if (!/^\d+$/.test(value)) return;
  throw new InputError(
    'history',
    words`${quoted(value)} is a number, and for ${operation} ${nameOf('history')} is a file (a number of commits is lint-impacted-targets-config's history)`,
    words`Give ${takes}.`,
  );
}

/** `40` (CI minutes per merged PR) or `150%` (of the current settings' replayed cost). */
export function parseBudget(text: string): CiMinutesBudget {
  const value = text.trim();
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(value);
  if (percent && Number(percent[1]) >= 100 && Number(percent[1]) <= 100_000) {
    return { kind: 'share', share: Number(percent[1]) / 100 };
  }
  if (/^\d+(?:\.\d+)?$/.test(value) && Number(value) > 0 && Number(value) <= 100_000) {
    return { kind: 'minutes', minutes: Number(value) };
  }
  throw new InputError(
    'ci-minutes-budget',
    `${quoted(value)} is not a budget`,
    "Give CI minutes per merged PR (40), or a share of the current settings' cost of at least 100% (150%).",
  );
}

/** The budget in CI minutes per merged PR, given what the current settings cost. */
export function budgetMinutes(budget: CiMinutesBudget, currentMinutes: number): number {
  return budget.kind === 'minutes' ? budget.minutes : Math.round(budget.share * currentMinutes * 100) / 100;
}

/** One key per --vary: a setting given twice would be varied twice, each time around the current value. */
function refuseRepeatedSetting(vary: readonly Variation[]): void {
  const seen = new Set<SettingName>();
  for (const { name } of vary) {
    if (seen.has(name)) {
      throw new InputError(
        'vary',
        `names ${name} more than once`,
        `Give each setting once, with all its values, e.g. ${name}=${example(name)}.`,
      );
    }
    seen.add(name);
  }
}

/** `concurrency=2,3,4`: a v2 setting and the values to try, each checked against what the setting takes. */
export function parseVariation(text: string): Variation {
  const equals = text.indexOf('=');
  const key = (equals < 0 ? text : text.slice(0, equals)).trim();
  const name = SETTING_NAMES.find((known) => known.toLowerCase() === key.toLowerCase());
  if (!name) {
    throw new InputError(
      'vary',
      `${quoted(key)} is not a setting the model varies`,
      `Use key=v1,v2,... with one of ${SETTING_NAMES.join(', ')}.`,
    );
  }
  if (equals < 0) {
    throw new InputError(
      'vary',
      `${quoted(text)} names ${name} but no values to try`,
      `Give the values after an equals sign, e.g. ${name}=${example(name)}.`,
    );
  }
  const values = [
    ...new Set(
      text
        .slice(equals + 1)
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
  if (values.length === 0 || values.length > MAX_VALUES) {
    throw new InputError(
      'vary',
      `${quoted(text)} gives ${values.length} values for ${name}`,
      `Give 1 to ${MAX_VALUES} values after the key, e.g. ${name}=${example(name)}.`,
    );
  }
  return { name, values: values.map((value) => settingValue(name, value)) };
}

function settingValue(name: SettingName, text: string): PlanSettings[SettingName] {
  const kind = SETTING_KINDS[name];
  if (kind.type === 'boolean' && /^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  if (kind.type === 'choice') {
    const match = kind.values.find((v) => v.toLowerCase() === text.toLowerCase());
    if (match) return match as PlanSettings['optimizationMode'];
  }
  if (kind.type === 'integer' && /^\d+$/.test(text) && +text >= kind.min && +text <= kind.max) return +text;
  const takes =
    kind.type === 'boolean'
      ? 'true or false'
      : kind.type === 'choice'
        ? kind.values.join(' or ')
        : `a whole number from ${kind.min} to ${kind.max}`;
  throw new InputError('vary', `${quoted(text)} is not a value of ${name}`, `${name} takes ${takes}.`);
}

function example(name: SettingName): string {
  const kind = SETTING_KINDS[name];
  return kind.type === 'boolean' ? 'true,false' : kind.type === 'choice' ? kind.values.join(',') : '2,4';
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}
