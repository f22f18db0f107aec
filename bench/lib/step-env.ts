// The environment the runner gives a step: the event payload in a file, empty files for outputs and the
// summary, the repository and server, and INPUT_* variables. Benchmarks run `node dist/index.js` in it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StepFiles {
  event: string;
  output: string;
  summary: string;
}

export interface StepEnvironment {
  files: StepFiles;
  env: Record<string, string | undefined>;
  /** Empties the output and summary files before the next run. */
  reset(): void;
}

export function stepEnvironment(
  dir: string,
  step: { eventName: string; payload: unknown; repository: string; inputs?: Record<string, string> },
): StepEnvironment {
  const files = {
    event: join(dir, 'event.json'),
    output: join(dir, 'output'),
    summary: join(dir, 'summary.md'),
  };
  writeFileSync(files.event, JSON.stringify(step.payload));
  const reset = () => {
    writeFileSync(files.output, '');
    writeFileSync(files.summary, '');
  };
  reset();
  const env: Record<string, string | undefined> = {
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: step.eventName,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_REPOSITORY: step.repository,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: 'https://api.github.com',
    GITHUB_RUN_ID: '4242',
    RUNNER_TEMP: dir,
  };
  for (const [name, value] of Object.entries(step.inputs ?? {})) env[`INPUT_${name.toUpperCase()}`] = value;
  return { files, env, reset };
}
