// `help`, `help <operation>`, --help and `<operation> --help`, written from the registry rows in the shape
// gh's help has: a short top page for 80 columns (the operations' names wrapped in groups, so that the page
// grows by a line per few operations, the CLI's flags, a few examples), and for each operation its USAGE,
// FLAGS (its own, then the common ones and the CLI's), EXAMPLES and exit codes.
import {
  type Area,
  COMMON_INPUTS,
  EXIT_CODES,
  type InputSpec,
  OPERATION_NAMES,
  type OperationName,
  OPERATIONS,
} from '../core/index.js';
import { COLOUR_CHOICES } from '../hosts/common/colour.js';
import { PROGRAM } from '../hosts/common/log.js';
import { HOST_NAMES } from '../hosts/detect.js';
import { cliExamples, exampleArgs, shellWord } from './examples.js';

export const COMMAND = PROGRAM;
const WIDTH = 100;
/** The top page is read in any terminal, so it keeps to the narrowest one usual. */
const TOP_WIDTH = 80;

/** What each exit code means; keyed by run()'s codes, so a new one cannot go undocumented. */
const EXIT_CODE_MEANINGS: Record<keyof typeof EXIT_CODES, string> = {
  done: 'done',
  failed: "the operation's outcome is a failure (the PR failed, fail-on tripped, a wait timed out)",
  badInput: 'bad input or context (a flag, an input, a missing CI variable)',
  refused: 'the service refused the request (4xx)',
  unreachable: 'the service could not be reached, or kept failing',
};

const EXIT_CODE_WORDS: Record<keyof typeof EXIT_CODES, string> = {
  done: 'done',
  failed: 'failed',
  badInput: 'bad input',
  refused: 'refused',
  unreachable: 'unreachable',
};

/** The groups of the top page, in the order a person meets them. */
const AREA_HEADINGS: Record<Area, string> = {
  'pull-request': 'PULL REQUEST OPERATIONS',
  queue: 'QUEUE OPERATIONS',
  'impacted-targets': 'IMPACTED TARGETS OPERATIONS',
  'flaky-tests': 'FLAKY TESTS OPERATIONS',
  metrics: 'METRICS OPERATIONS',
};

const CLI_FLAG_HELP: [string, string][] = [
  ['--json', 'Print {operation, exitCode, outputs, response, failure} on stdout; the log goes to stderr.'],
  [
    '--host <name>',
    `The CI: ${HOST_NAMES.join(', ')}. Default - detected from the CI's own variables (or MERGE_QUEUE_HOST).`,
  ],
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
  ['-h, --help', 'This help. On a terminal it is shown through $PAGER (else less -FRX).'],
  ['-V, --version', 'Print the version.'],
];

export function variableOf(input: string): string {
  return `MERGE_QUEUE_${input.toUpperCase().replace(/-/g, '_')}`;
}

function wrap(text: string, indent: number, first = indent, width = WIDTH): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const room = width - (lines.length ? indent : first);
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l, i) => `${' '.repeat(i ? indent : first)}${l}`).join('\n');
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
  const shownDefault = spec.default !== undefined && spec.default !== '' && !spec.default.includes('${{');
  const about = [
    spec.description,
    shownDefault ? `(default ${JSON.stringify(spec.default)})` : '',
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
  return `EXIT CODES\n${lines.join('\n')}`;
}

function examples(operation: OperationName): string {
  const shown = cliExamples(operation).map(
    ({ about, args }) => `  # ${about}\n  $ ${[COMMAND, operation, ...args].map(shellWord).join(' ')}`,
  );
  return `EXAMPLES\n${shown.join('\n\n')}`;
}

/** Each area's operations, their names wrapped: a new operation adds a line only when its group's is full. */
function operationGroups(): string[] {
  return (Object.keys(AREA_HEADINGS) as Area[]).map((area) => {
    const names = OPERATION_NAMES.filter((name) => OPERATIONS[name].area === area);
    return `${AREA_HEADINGS[area]}\n${wrap(names.join(', '), 2, 2, TOP_WIDTH)}`;
  });
}

/** The top page's examples: examples of the rows, so they run as shown in the help's test. */
const TOP_EXAMPLES: [OperationName, number][] = [
  ['submit-pull-request', 2],
  ['get-queue', 0],
  ['list-unhealthy-tests', 0],
];

function topExample([operation, index]: [OperationName, number]): string {
  const args = exampleArgs(OPERATIONS[operation].examples[index]!);
  return `  $ ${[COMMAND, operation, ...args].map(shellWord).join(' ')}`;
}

export function generalHelp(): string {
  const exitWords = Object.entries(EXIT_CODES).map(
    ([key, code]) => `${code} ${EXIT_CODE_WORDS[key as keyof typeof EXIT_CODES]}`,
  );
  return [
    'Work with the merge queue and flaky tests from any CI or a terminal.',
    '',
    'USAGE',
    `  ${COMMAND} <operation> [flags]`,
    '',
    ...operationGroups().flatMap((group) => [group, '']),
    'MORE COMMANDS',
    "  help <operation>:    An operation's flags, examples (as <operation> --help).",
    '  completion <shell>:  bash, zsh or fish completion, to load with',
    `                       source <(${COMMAND} completion bash)`,
    '  mcp:                 An MCP server for coding agents (mcp --help).',
    '',
    'FLAGS',
    '  --json  --host <name>  --color <auto|always|never>  -y, --yes',
    '  -h, --help  -V, --version',
    '',
    'EXAMPLES',
    ...TOP_EXAMPLES.map(topExample),
    '',
    'LEARN MORE',
    wrap(
      `Every flag is also a variable (a flag wins): MERGE_QUEUE_PR_NUMBER=12 is --pr-number 12. On a laptop the repository and target branch are the origin remote's; in CI, the pipeline's.`,
      2,
      2,
      TOP_WIDTH,
    ),
    `  Exit codes: ${exitWords.join(', ')}.`,
    '',
  ].join('\n');
}

const ENVIRONMENT = [
  'Every flag is also a variable (--pr-number 12 or MERGE_QUEUE_PR_NUMBER=12); a flag wins. The',
  "repository, PR, head sha and target branch default to what the CI's variables say; TRUNK_PR_NUMBER,",
  'TRUNK_REPO_HEAD_SHA, TRUNK_REPO_HEAD_BRANCH, TRUNK_REPO_URL and TRUNK_TARGET_BRANCH override those.',
  "On a laptop, the repository is the git remote origin's and the target branch its default branch. A",
  'file flag given - reads stdin or writes stdout.',
].map((line) => `  ${line}`);

export function operationHelp(operation: OperationName): string {
  const row = OPERATIONS[operation];
  const own = row.inputs.length ? row.inputs.map(inputItem) : ['  (none beyond the common flags)'];
  return [
    wrap(row.summary, 0),
    '',
    'USAGE',
    `  ${COMMAND} ${operation} [flags]`,
    '',
    'FLAGS',
    ...own,
    '',
    examples(operation),
    '',
    'COMMON FLAGS',
    ...COMMON_INPUTS.map(inputItem),
    '',
    'CLI FLAGS',
    ...CLI_FLAG_HELP.map(([term, description]) => item(term, description)),
    '',
    'ENVIRONMENT',
    ...ENVIRONMENT,
    '',
    exitCodes(),
    '',
  ].join('\n');
}
