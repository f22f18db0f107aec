import { parse } from 'yaml';

const BEGIN = '<!-- reference:begin (generated from action.yml by `npm run readme`) -->';
const END = '<!-- reference:end -->';

interface ActionYml {
  inputs: Record<string, { description: string; default?: string; required?: boolean }>;
  outputs: Record<string, { description: string }>;
}

/** README with the text between the reference markers replaced by tables built from action.yml. */
export function renderReference(readme: string, actionYml: string): string {
  const action = parse(actionYml) as ActionYml;
  const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
  const inputs = Object.entries(action.inputs).map(
    ([name, input]) =>
      `| \`${name}\` | ${cell(input.description)} | ${input.required ? 'yes' : 'no'} | ${input.default !== undefined ? `\`${cell(input.default)}\`` : ''} |`,
  );
  const outputs = Object.entries(action.outputs).map(
    ([name, output]) => `| \`${name}\` | ${cell(output.description)} |`,
  );
  const table = [
    '### Inputs',
    '',
    '| input | description | required | default |',
    '| --- | --- | --- | --- |',
    ...inputs,
    '',
    '### Outputs',
    '',
    '| output | description |',
    '| --- | --- |',
    ...outputs,
  ].join('\n');
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${BEGIN} ... ${END} markers`);
  return `${readme.slice(0, start + BEGIN.length)}\n\n${table}\n\n${readme.slice(end)}`;
}
