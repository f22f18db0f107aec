// The rules our own workflows and the examples we hand to users are held to, beyond what actionlint
// checks: no expression inside a `run:` script, least permissions declared on every job, every action
// pinned by commit sha with its version beside it, and checkout's token not left behind by accident.
import { parse } from 'yaml';

export interface HygieneProblem {
  file: string;
  line: number;
  message: string;
}

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}

interface Job {
  permissions?: unknown;
  steps?: Step[];
  uses?: string;
}

interface Workflow {
  permissions?: unknown;
  jobs?: Record<string, Job>;
}

/** This action as the examples use it: pinned the way the README tells users to. */
const OWN_ACTION = /(^|\/)merge-queue-action@/;
const PINNED = /^[^@\s]+@[0-9a-f]{40}$/;

export function hygieneProblems(file: string, text: string): HygieneProblem[] {
  const workflow = (parse(text) ?? {}) as Workflow;
  const lines = text.split('\n');
  const lineOf = (pattern: RegExp, from = 0) => {
    const index = lines.findIndex((line, i) => i >= from && pattern.test(line));
    return index < 0 ? 1 : index + 1;
  };
  const problems: HygieneProblem[] = [];
  const report = (line: number, message: string) => problems.push({ file, line, message });

  if (workflow.permissions !== undefined && !isEmptyPermissions(workflow.permissions)) {
    report(
      lineOf(/^permissions:/),
      'workflow-level permissions: grant nothing here (permissions: {}); give each job its own.',
    );
  }

  for (const [jobName, job] of Object.entries(workflow.jobs ?? {})) {
    const jobLine = lineOf(new RegExp(`^  ${escapeRegExp(jobName)}:`));
    if (job.permissions === undefined) {
      report(jobLine, `job ${jobName} declares no permissions: name the least it needs (or {}).`);
    } else if (typeof job.permissions === 'string') {
      report(
        jobLine,
        `job ${jobName} has permissions: ${job.permissions}; list the scopes it needs instead.`,
      );
    }
    for (const step of job.steps ?? []) {
      const label = `job ${jobName}, step ${step.name ?? step.id ?? step.uses ?? '(unnamed)'}`;
      if (typeof step.run === 'string' && step.run.includes('${{')) {
        const firstLine = step.run.split('\n').find((line) => line.includes('${{')) ?? '';
        report(
          lineOf(new RegExp(escapeRegExp(firstLine.trim())), jobLine),
          `${label}: an expression in a run: script is a script injection risk; pass the value through env: and use "$NAME".`,
        );
      }
      if (step.uses?.startsWith('actions/checkout@') && step.with?.['persist-credentials'] === undefined) {
        report(
          lineOf(new RegExp(escapeRegExp(step.uses)), jobLine),
          `${label}: set persist-credentials (false unless the job pushes) so that the token is not left in .git by default.`,
        );
      }
    }
  }

  lines.forEach((line, index) => {
    const match = /^\s*(?:-\s+)?uses:\s*['"]?([^'"\s#]+)['"]?\s*(#\s*(\S.*))?$/.exec(line);
    if (!match) return;
    const [, ref = '', , comment] = match;
    if (ref.startsWith('./') || ref.startsWith('docker://') || OWN_ACTION.test(ref)) return;
    if (!PINNED.test(ref)) {
      report(index + 1, `${ref}: pin the action by its full commit sha, with the version in a comment.`);
    } else if (!comment || !/^v?\d/.test(comment)) {
      report(index + 1, `${ref}: say which version the sha is in a comment (# v1.2.3).`);
    }
  });

  return problems.sort((a, b) => a.line - b.line);
}

function isEmptyPermissions(permissions: unknown): boolean {
  return typeof permissions === 'object' && permissions !== null && Object.keys(permissions).length === 0;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
