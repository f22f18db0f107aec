// `help`, `help <operation>`, --help and `<operation> --help`, written from the registry rows: what each
// operation does, the inputs it reads with their descriptions, values and defaults, the common inputs, the
// CLI's own flags and the exit codes.
import { COMMON_INPUTS } from '../core/common-inputs.js';
import type { InputSpec } from '../core/inputs.js';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../core/operations/registry.js';
import { EXIT_CODES } from '../core/failure.js';
import { COLOUR_CHOICES } from '../hosts/common/colour.js';
import { PROGRAM } from '../hosts/common/log.js';
import { HOST_NAMES } from '../hosts/detect.js';

export const COMMAND = PROGRAM;
const WIDTH = 100;

/** What each exit code means; keyed by run()'s codes, so a new one cannot go undocumented. */
const EXIT_CODE_MEANINGS: Record<keyof typeof EXIT_CODES, string> = {
  done: 'done',
  failed: "the operation's outcome is a failure (the PR failed, fail-on tripped, a wait timed out)",
  badInput: 'bad input or context (a flag, an input, a missing CI variable)',
  refused: 'the service refused the request (4xx)',
  unreachable: 'the service could not be reached, or kept failing',
};

const CLI_FLAG_HELP: [string, string][] = [
  [
    '--host <name>',
    `The CI: ${HOST_NAMES.join(', ')}. Default - detected from the CI's own variables (or MERGE_QUEUE_HOST).`,
  ],
  ['--json', 'Print {operation, exitCode, outputs, response, failure} on stdout; the log goes to stderr.'],
  [
    '--outputs-file <path>',
    'Write the outputs there as a JSON object; - writes them to stdout (and the log to stderr).',
  ],
  [
    '--summary-file <path>',
    'Write the summary there as markdown; - writes it to stdout. GitLab CI: default $CI_PROJECT_DIR/merge-queue-summary.md.',
  ],
  [
    '--dotenv-file <path>',
    'GitLab CI: the dotenv report for later jobs, MERGE_QUEUE_OUTPUT_<NAME>=value; - writes it to stdout. Default - $CI_PROJECT_DIR/merge-queue.env.',
  ],
  [
    `--color <${COLOUR_CHOICES.join('|')}>`,
    'Colour in the log and results. Default - auto: when stdout is a terminal or a CI log that shows colours, unless NO_COLOR is set; FORCE_COLOR forces it.',
  ],
  [
    '-y, --yes',
    'Run delete-queue, drain-queue or cancel-pull-request without asking first (a terminal asks; CI and pipes never do).',
  ],
  ['-h, --help', `This help; after an operation, its inputs (as \`${PROGRAM} help <operation>\`).`],
  ['-V, --version', 'Print the version.'],
];

export function variableOf(input: string): string {
  return `MERGE_QUEUE_${input.toUpperCase().replace(/-/g, '_')}`;
}

function wrap(text: string, indent: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => `${' '.repeat(indent)}${l}`).join('\n');
}

function item(term: string, description: string): string {
  return `  ${term}\n${wrap(description, 6)}`;
}

/** The variables an input is read from, in the order they are looked at. */
export function variablesOf(input: string): string[] {
  return input === 'api-token' ? [variableOf(input), 'TRUNK_API_TOKEN'] : [variableOf(input)];
}

/** How an input is written on the command line: `--strict, --no-strict`, `--wait-for <merged|...>`. */
function flagTerm(spec: InputSpec): string {
  if (spec.boolean) {
    // no-batch has no --no-no-batch worth showing.
    return spec.name.startsWith('no-') ? `--${spec.name}` : `--${spec.name}, --no-${spec.name}`;
  }
  return `--${spec.name} <${spec.values ? spec.values.join('|') : 'value'}>`;
}

function inputItem(spec: InputSpec): string {
  const about = [
    spec.description,
    spec.default !== undefined && !spec.default.includes('${{') ? `Default: ${spec.default}.` : '',
    spec.required ? 'Required.' : '',
    spec.secret ? 'Secret: give it as the variable, not a flag (flags show in process lists).' : '',
  ];
  const variables = variablesOf(spec.name).join(' or ');
  return item(`${flagTerm(spec)}  (${variables})`, about.filter(Boolean).join(' '));
}

function exitCodes(): string {
  const lines = Object.entries(EXIT_CODES).map(
    ([key, code]) => `  ${code}  ${EXIT_CODE_MEANINGS[key as keyof typeof EXIT_CODES]}`,
  );
  return `Exit codes:\n${lines.join('\n')}`;
}

export function generalHelp(): string {
  const areas = new Map<string, OperationName[]>();
  for (const name of OPERATION_NAMES) {
    const area = OPERATIONS[name].area;
    areas.set(area, [...(areas.get(area) ?? []), name]);
  }
  const width = Math.max(...OPERATION_NAMES.map((name) => name.length)) + 2;
  const operations = [...areas].map(
    ([area, names]) =>
      `  ${area}\n${names.map((name) => `    ${name.padEnd(width)}${OPERATIONS[name].summary}`).join('\n')}`,
  );
  return [
    `Usage: ${COMMAND} <operation> [--<input> <value> ...] [--json] [--host <name>]`,
    `       ${COMMAND} help [<operation>]`,
    `       ${COMMAND} mcp [--allow submit,cancel,restart]   (an MCP server for coding agents; mcp --help)`,
    `       ${COMMAND} completion bash|zsh|fish   (e.g. source <(${COMMAND} completion bash))`,
    '',
    'Runs one merge-queue or flaky-tests operation from any CI or a terminal. Every input is a flag',
    '(--pr-number 12, or --pr-number=12; a boolean as --strict or --no-strict) or a variable',
    '(MERGE_QUEUE_PR_NUMBER=12); a flag wins. The repository, PR, head sha and target branch default to',
    "what the CI's variables say; TRUNK_PR_NUMBER, TRUNK_REPO_HEAD_SHA, TRUNK_REPO_HEAD_BRANCH,",
    'TRUNK_REPO_URL and TRUNK_TARGET_BRANCH override those. On a laptop, the repository is the git remote',
    "origin's and the target branch its default branch. A file flag given - reads stdin or writes stdout.",
    '',
    'Operations:',
    ...operations,
    '',
    `Inputs every operation takes (\`${COMMAND} help <operation>\` lists an operation's own):`,
    ...COMMON_INPUTS.map(inputItem),
    '',
    'Options:',
    ...CLI_FLAG_HELP.map(([term, description]) => item(term, description)),
    '',
    exitCodes(),
    '',
  ].join('\n');
}

export function operationHelp(operation: OperationName): string {
  const row = OPERATIONS[operation];
  const own = row.inputs.length ? row.inputs.map(inputItem) : ['  (none beyond the common inputs)'];
  return [
    `Usage: ${COMMAND} ${operation} [--<input> <value> ...] [--json] [--host <name>]`,
    '',
    wrap(row.summary, 0),
    '',
    'Inputs:',
    ...own,
    '',
    'Common inputs:',
    ...COMMON_INPUTS.map(inputItem),
    '',
    'Options:',
    ...CLI_FLAG_HELP.map(([term, description]) => item(term, description)),
    '',
    exitCodes(),
    '',
  ].join('\n');
}
