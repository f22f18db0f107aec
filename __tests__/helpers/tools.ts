// The tools some tests need beyond this Node and npm, each found on its own (on PATH, or this Node when it
// is recent enough) or named by an environment variable, with one line saying how to get it when it is
// not here. No jest in here: scripts use it too. helpers/tool-gate.ts turns a missing tool into a skip.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface Tool {
  name: string;
  /** Where it is, or undefined when it is not here. */
  path: string | undefined;
  howToGet: string;
}

/** Every executable file named `command` on PATH, in PATH's order. */
function allOnPath(command: string): string[] {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, command))
    .filter((file) => {
      try {
        accessSync(file, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

/** The file an environment variable names (undefined when it names nothing), or what `find` finds. */
function given(variable: string, find: () => string | undefined): string | undefined {
  const named = process.env[variable];
  if (named) return existsSync(named) ? named : undefined;
  return find();
}

const major = (version: string) => Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);

function findNode24(): string | undefined {
  if (major(process.version) >= 24) return process.execPath;
  return allOnPath('node').find(
    (node) => major(spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout ?? '') >= 24,
  );
}

/** gitlab-ci-local's script (npm's bin links to it), which runs on Node 24. */
function findGitlabCiLocal(): string | undefined {
  const bin = allOnPath('gitlab-ci-local')[0];
  const script = bin && realpathSync(bin);
  return script && script.endsWith('.js') ? script : undefined;
}

function memo(make: () => Tool): () => Tool {
  let tool: Tool | undefined;
  return () => (tool ??= make());
}

export const TOOLS = {
  node24: memo(() => ({
    name: 'Node 24',
    path: given('NODE24', findNode24),
    howToGet:
      'put Node 24 on PATH, or npm install --prefix <dir> node@24 and set NODE24=<dir>/node_modules/.bin/node',
  })),
  gitlabCiLocal: memo(() => ({
    name: 'gitlab-ci-local',
    path: given('GITLAB_CI_LOCAL', findGitlabCiLocal),
    howToGet: 'npm install -g gitlab-ci-local@4.75.1, or set GITLAB_CI_LOCAL to its dist/index.js',
  })),
  rsync: memo(() => ({ name: 'rsync', path: allOnPath('rsync')[0], howToGet: 'apt-get install rsync' })),
  chromium: memo(() => ({
    name: 'Chromium',
    path: given('CHROMIUM_PATH', () => ['chromium', 'chromium-browser'].flatMap(allOnPath)[0]),
    howToGet: 'apt-get install chromium, or set CHROMIUM_PATH',
  })),
  shellcheck: memo(() => ({
    name: 'shellcheck',
    path: allOnPath('shellcheck')[0],
    howToGet: 'apt-get install shellcheck',
  })),
  groovy: memo(() => ({
    name: 'Groovy',
    path: allOnPath('groovy')[0],
    howToGet: 'apt-get install groovy default-jre-headless',
  })),
  promtool: memo(() => ({
    name: 'promtool',
    path: allOnPath('promtool')[0],
    howToGet: 'apt-get install prometheus, which ships it',
  })),
};

/** One line naming each missing tool and how to get it, or undefined when all are here. */
export function missingTools(tools: Tool[]): string | undefined {
  const missing = tools.filter((tool) => !tool.path);
  if (missing.length === 0) return undefined;
  return missing.map((tool) => `${tool.name} not found (${tool.howToGet})`).join('; ');
}
