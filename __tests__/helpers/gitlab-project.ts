// A user's GitLab project on this machine, for gitlab-ci-local (a real runner of .gitlab-ci.yml, from npm)
// with its shell executor: a temporary git repository with a remote named origin at gitlab.example.com,
// which gitlab-ci-local reads for CI_SERVER_URL and CI_PROJECT_PATH, and a bare repository that the jobs'
// own git commands reach under that same address (git's url.<base>.insteadOf, given to the jobs alone).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { runScript, type ScriptRun } from './run-script.js';
import { TOOLS } from './tools.js';

export const GITLAB_HOST = 'gitlab.example.com';

interface Include {
  component?: string;
  project?: string;
  ref?: string;
  file?: string;
  remote?: string;
}

/**
 * Puts this checkout's templates where gitlab-ci-local keeps an include from another project or URL once
 * fetched (.gitlab-ci-local/includes/<host>/<project>/<ref>/<file>, or /<URL less its scheme>), so that
 * the pipeline's includes resolve as GitLab resolves them from a copy of this repository. Components of
 * the project itself ($CI_PROJECT_PATH) are left to gitlab-ci-local, which reads them from the checkout.
 */
export function seedIncludeCache(projectDir: string, pipeline: string): void {
  const cache = join(projectDir, '.gitlab-ci-local', 'includes');
  const includes = ((parse(pipeline) as { include?: Include[] }).include ?? []).filter(
    (include) => !include.component?.includes('$CI_PROJECT_PATH'),
  );
  for (const include of includes) {
    let place: string;
    let template: string;
    if (include.component) {
      const [, path, name, ref] = /^\$CI_SERVER_FQDN\/(.+)\/([\w-]+)@(.+)$/.exec(include.component)!;
      [place, template] = [join(cache, GITLAB_HOST, path!, ref!, 'templates', `${name}.yml`), name!];
    } else if (include.project) {
      const file = include.file!.replace(/^\/+/, '');
      [place, template] = [join(cache, GITLAB_HOST, include.project, include.ref!, file), file];
    } else {
      [place, template] = [join(cache, include.remote!.replace(/^https:\/\//, '')), include.remote!];
    }
    mkdirSync(dirname(place), { recursive: true });
    cpSync(join('templates', `${/([\w-]+?)(\.yml)?$/.exec(template)![1]}.yml`), place);
  }
}

export class GitlabProject {
  readonly dir: string;
  private readonly origin: string;
  private readonly remoteUrl: string;

  constructor(readonly path = 'acme/widgets') {
    const parent = mkdtempSync(join(tmpdir(), 'mqa-gitlab-project-'));
    this.dir = join(parent, 'project');
    this.origin = join(parent, 'origin.git');
    this.remoteUrl = `git@${GITLAB_HOST}:${path}.git`;
    mkdirSync(this.dir);
    this.git('init', '-q', '-b', 'main');
    this.git('init', '-q', '--bare', this.origin);
    this.git('remote', 'add', 'origin', this.remoteUrl);
    // gitlab-ci-local's state (include cache, job logs) is not part of the project.
    writeFileSync(join(this.dir, '.git', 'info', 'exclude'), '.gitlab-ci-local/\n');
  }

  remove(): void {
    rmSync(dirname(this.dir), { recursive: true, force: true });
  }

  git(...args: string[]): string {
    return execFileSync('git', args, {
      cwd: this.dir,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    }).trim();
  }

  /** Writes these files (path -> text) and commits them; answers the commit. */
  commit(files: Record<string, string>, message = 'change'): string {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(this.dir, path)), { recursive: true });
      writeFileSync(join(this.dir, path), text);
    }
    this.git('add', '-A');
    this.git('-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '-q', '-m', message);
    return this.git('rev-parse', 'HEAD');
  }

  /** Pushes HEAD as origin's `branch` and records origin's HEAD there, as a clone would have it. */
  publish(branch = 'main'): void {
    this.git('push', '-q', this.origin, `HEAD:refs/heads/${branch}`);
    this.git('update-ref', `refs/remotes/origin/${branch}`, 'HEAD');
    this.git('symbolic-ref', 'refs/remotes/origin/HEAD', `refs/remotes/origin/${branch}`);
  }

  /** Seeds gitlab-ci-local's include cache with this checkout's templates (seedIncludeCache). */
  seedIncludes(pipeline: string): void {
    seedIncludeCache(this.dir, pipeline);
  }

  /**
   * Runs the committed pipeline with these variables and more of gitlab-ci-local's options; `path` is
   * the PATH its jobs see (e.g. with the npx stand-in first).
   */
  run(variables: Record<string, string>, options: string[] = [], path?: string): Promise<ScriptRun> {
    // The shell executor for every job: no container runtime is here, so jobs run in this shell.
    const args = [TOOLS.gitlabCiLocal().path ?? '', '--shell-executor-no-image', '--force-shell-executor'];
    // A merge-request or scheduled pipeline is told by CI_PIPELINE_SOURCE, which GitLab sets itself.
    args.push('--no-color', '--ignore-predefined-vars', 'CI_PIPELINE_SOURCE', ...options);
    const reachOrigin = {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `url.${this.origin}.insteadOf`,
      GIT_CONFIG_VALUE_0: this.remoteUrl,
    };
    for (const [name, value] of Object.entries({ ...reachOrigin, ...variables })) {
      args.push('--variable', `${name}=${value}`);
    }
    const env: Record<string, string> = path ? { PATH: path } : {};
    return runScript(TOOLS.node24().path ?? '', args, env, { cwd: this.dir, timeoutMs: 180_000 });
  }
}
