// action.yml's inputs and docs/reference.md, both rendered from the operation registry, the one place
// inputs are declared. Outputs are described in action.yml and shown in docs/reference.md from there.
import { parse, stringify } from 'yaml';
import { COMMON_INPUTS } from '../src/core/common-inputs.js';
import type { InputSpec } from '../src/core/inputs.js';
import { exampleInputs } from '../src/core/operations/example.js';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../src/core/operations/registry.js';

const BEGIN = '<!-- reference:begin (generated from the operation registry by `npm run metadata`) -->';
const END = '<!-- reference:end -->';

/** For each operation-specific input, the operations that read it, grouped by what it means to them. */
function operationInputs(): Map<string, { operations: string[]; spec: InputSpec }[]> {
  const byName = new Map<string, { operations: string[]; spec: InputSpec }[]>();
  for (const operation of OPERATION_NAMES) {
    for (const spec of OPERATIONS[operation].inputs) {
      const meanings = byName.get(spec.name) ?? [];
      const same = meanings.find((m) => m.spec.description === spec.description);
      if (same) same.operations.push(operation);
      else meanings.push({ operations: [operation], spec });
      byName.set(spec.name, meanings);
    }
  }
  return byName;
}

/** A spec's default said in words: a default in action.yml would reach every operation as "given". */
function withDefault(spec: InputSpec): string {
  return spec.default === undefined ? spec.description : `${spec.description} Default ${spec.default}.`;
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The `inputs:` block of action.yml. */
export function renderActionInputs(): string {
  const inputs: Record<string, { description: string; required: boolean; default?: string }> = {
    operation: {
      description: `What to do, in kebab-case (the endpoint's camelCase name is accepted too): ${OPERATION_NAMES.join(', ')}.`,
      required: true,
    },
  };
  for (const spec of COMMON_INPUTS) {
    inputs[spec.name] = { description: spec.description, required: false, default: spec.default };
    if (spec.default === undefined) delete inputs[spec.name]!.default;
  }
  for (const [name, meanings] of operationInputs()) {
    const description = meanings
      .map(({ operations, spec }) => `${operations.join(', ')} - ${lowerFirst(withDefault(spec))}`)
      .join(' ');
    inputs[name] = { description, required: false };
  }
  return stringify({ inputs }, { lineWidth: 110 });
}

/** action.yml with its inputs block replaced. */
export function renderActionYml(actionYml: string): string {
  const start = actionYml.indexOf('\ninputs:\n');
  const end = actionYml.indexOf('\noutputs:\n');
  if (start < 0 || end < start) throw new Error('action.yml has no inputs: block followed by outputs:');
  return `${actionYml.slice(0, start + 1)}${renderActionInputs()}${actionYml.slice(end)}`;
}

const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

function inputTable(specs: readonly InputSpec[]): string[] {
  return [
    '| input | description | default |',
    '| --- | --- | --- |',
    ...specs.map(
      (spec) =>
        `| \`${spec.name}\`${spec.required ? ' (required)' : ''} | ${cell(spec.description)} | ${spec.default !== undefined ? `\`${cell(spec.default)}\`` : ''} |`,
    ),
  ];
}

/** A with: value as a workflow writes it: `pr-number: 12` and `strict: true` rather than quoted. */
function yamlValue(value: string): string | number | boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  return /^[1-9]\d{0,8}$/.test(value) ? Number(value) : value;
}

/** The operation's sample (its first example) as a step of the action, under the example's words. */
export function actionStep(operation: OperationName): string[] {
  const row = OPERATIONS[operation];
  const [sample] = row.examples;
  const inputs = Object.entries(exampleInputs(sample)).map(([name, value]) => [name, yamlValue(value)]);
  const step = {
    uses: 'your-org/merge-queue-action@main',
    with: {
      operation,
      ...(row.api === 'none' ? {} : { 'api-token': '${{ secrets.TRUNK_API_TOKEN }}' }),
      ...Object.fromEntries(inputs),
    },
  };
  return ['```yaml', `# ${sample.about}`, stringify([step]).trimEnd(), '```'];
}

/** docs/reference.md with the text between its markers replaced by the registry's inputs and action.yml's outputs. */
export function renderReference(reference: string, actionYml: string): string {
  const action = parse(actionYml) as { outputs: Record<string, { description: string }> };
  const operations = OPERATION_NAMES.flatMap((name) => {
    const row = OPERATIONS[name];
    return [
      `#### \`${name}\``,
      '',
      row.summary,
      '',
      ...actionStep(name),
      '',
      ...(row.inputs.length ? inputTable(row.inputs) : ['No inputs beyond the common ones.']),
      '',
    ];
  });
  const table = [
    '### Inputs every operation takes',
    '',
    ...inputTable(COMMON_INPUTS),
    '',
    '### Operations and their inputs',
    '',
    "Each operation's step is its first `--help` example, the same inputs as flags. On a pull request",
    'event the PR number, head sha and target branch come from the event and may be left out.',
    '',
    ...operations,
    '### Outputs',
    '',
    '| output | description |',
    '| --- | --- |',
    ...Object.entries(action.outputs).map(
      ([name, output]) => `| \`${name}\` | ${cell(output.description)} |`,
    ),
  ].join('\n');
  const start = reference.indexOf(BEGIN);
  const end = reference.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/reference.md has no ${BEGIN} ... ${END} markers`);
  return `${reference.slice(0, start + BEGIN.length)}\n\n${table}\n\n${reference.slice(end)}`;
}
