// The one thing a benchmark hands to the harness: its result, as JSON on the last line of stdout.
// bench/README.md and the top of bench/run.ts describe the contract; this module is its code.
import { relative } from 'node:path';

export interface BenchResult {
  /** The row's label, e.g. `Start-up: get-submitted-pull-request`. */
  name: string;
  /** The measured value (a median, a total, a size), in `unit`. */
  figure: number;
  /** `ms`, `B`, `MiB`, `req/s`... The figure and the floor share it. */
  unit: string;
  /** The same thing done the cheapest possible way, measured in the same run; null when there is none. */
  floor: number | null;
  /** figure / floor, or null without a floor. */
  ratio: number | null;
  /** The goal in words, e.g. `ratio <= 1.5` or `>= 10,000 req/s`. */
  goal: string;
  /** Whether the figure meets the goal; null when there is no goal to judge. */
  met: boolean | null;
  /** How many measured runs (or samples) the figure summarizes. */
  runs: number;
  /** What was measured, as a command a reader can run or recognize. */
  command: string;
  /** What the floor was, when there is one. */
  floorCommand?: string;
  /** What dominates the cost, and anything a reader needs to trust the figure. Required when met is false. */
  notes?: string;
}

// A benchmark that cannot measure says why in one line on stderr and exits non-zero, never with a stack
// trace; servers it left running get five seconds to stop in its finally blocks.
process.on('uncaughtException', (error) => {
  const script = relative(process.cwd(), process.argv[1] ?? 'bench');
  progress(`${script}: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
  setTimeout(() => process.exit(1), 5000).unref();
});

/** True when the process was started with `--quick`: few runs, short durations, numbers not kept. */
export const QUICK = process.argv.includes('--quick');

/**
 * `--vs <entry>`: another build of the action (e.g. the previous commit's, bundled into a directory) that
 * a benchmark supporting it runs in the same interleaved rounds as dist/index.js, printing both medians
 * and their ratio on stderr: the before/after figure a speed change lands with. Never in the results.
 */
export const VERSUS = optionValue('--vs');

/** `--entry <entry>`: the build of the action that a benchmark supporting it measures; dist/index.js by default. */
export const ENTRY = optionValue('--entry') ?? 'dist/index.js';

/** The value after `name` on the command line, if given. */
export function optionValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** Prints the result(s) as the last line of stdout, the contract's hand-over. */
export function emitResults(results: BenchResult | BenchResult[]): void {
  process.stdout.write(`\n${JSON.stringify(results)}\n`);
}

/** Progress for a person watching: stderr, so that stdout's last line stays the result. */
export function progress(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** figure / floor, or null without a usable floor. */
export function ratioOf(figure: number, floor: number | null): number | null {
  return floor === null || floor <= 0 ? null : figure / floor;
}

/**
 * Reads a benchmark's stdout: its last non-empty line must be one result object or an array of them.
 * Throws one line that says what is wrong.
 */
export function parseResults(stdout: string): BenchResult[] {
  const lastLine = stdout.trimEnd().split('\n').at(-1)?.trim() ?? '';
  if (!lastLine) throw new Error('printed nothing on stdout; its last line must be the JSON result');
  let parsed: unknown;
  try {
    parsed = JSON.parse(lastLine);
  } catch {
    throw new Error(`its last stdout line is not JSON: ${lastLine.slice(0, 120)}`);
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (list.length === 0) throw new Error('its last stdout line is an empty array; print at least one result');
  return list.map((item, index) => checkResult(item, list.length > 1 ? `result ${index + 1}` : 'the result'));
}

function checkResult(value: unknown, label: string): BenchResult {
  if (typeof value !== 'object' || value === null) throw new Error(`${label} is not a JSON object`);
  const r = value as Record<string, unknown>;
  const problems: string[] = [];
  const want = (field: string, ok: boolean, what: string) => {
    if (!ok) problems.push(`${field} must be ${what}`);
  };
  const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  const isText = (v: unknown) => typeof v === 'string' && v.length > 0;
  want('name', isText(r.name), 'a non-empty string');
  want('figure', isNumber(r.figure), 'a finite number');
  want('unit', isText(r.unit), 'a non-empty string');
  want('floor', r.floor === null || isNumber(r.floor), 'a number or null');
  want('ratio', r.ratio === null || isNumber(r.ratio), 'a number or null');
  want('goal', typeof r.goal === 'string', 'a string');
  want('met', r.met === null || typeof r.met === 'boolean', 'true, false or null');
  want('runs', Number.isInteger(r.runs) && (r.runs as number) >= 1, 'a positive integer');
  want('command', isText(r.command), 'a non-empty string');
  want('floorCommand', r.floorCommand === undefined || typeof r.floorCommand === 'string', 'a string');
  want('notes', r.notes === undefined || typeof r.notes === 'string', 'a string');
  if (problems.length > 0) {
    throw new Error(`${label}${isText(r.name) ? ` (${String(r.name)})` : ''}: ${problems.join('; ')}`);
  }
  return r as unknown as BenchResult;
}
