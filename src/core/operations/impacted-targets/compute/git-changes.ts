// The PR's changed files from the git checkout: the merge base of the target branch and the head, then
// `git diff` from there to the head, deletions marked and a rename's old path marked with its new one. A shallow clone
// is deepened a bounded number of times until the merge base is in it; a base branch the clone lacks is
// fetched once. Every git call runs without a shell, with a timeout and a cap on its output.
import type { ChangedFile } from './impact.js';
import { presentRefs } from './git-refs.js';
import { CommandError, lastLine, runCommand } from './run-command.js';
import { plural } from '../../../report/words.js';

const MAX_DIFF_BYTES = 256 * 1024 * 1024;
const MAX_SMALL_OUTPUT = 1024 * 1024;
const FIRST_DEEPEN = 50;
const REMOTE = 'origin';

export interface GitChangesOptions {
  cwd: string;
  targetBranch: string;
  /** The PR's head; HEAD when not known. */
  headSha?: string;
  /** How many times a shallow clone may be deepened (each time twice as deep). */
  deepenAttempts: number;
  timeoutMs: number;
  log: (line: string) => void;
}

export interface GitChanges {
  files: ChangedFile[];
  base: string;
  head: string;
  /** How the base was found, for the log and summary. */
  notes: string[];
}

/** A git problem, said with what to do; the operation turns it into ALL unless on-compute-error is fail. */
export class GitChangesError extends Error {}

/** The directory is not in a git work tree at all: `auto` then asks the GitHub API instead. */
export class NotACheckoutError extends GitChangesError {}

/**
 * The usual case's git processes, begun as soon as the inputs are known (they only read the clone), so
 * that git works while the config is read; `gitChangedFiles` takes their answer, `stop` ends them when it
 * is not wanted.
 */
export interface QuickStart {
  answer: Promise<QuickChanges | undefined>;
  stop(): void;
}

interface QuickChanges {
  files: ChangedFile[];
  base: string;
  head: string;
}

export function startQuickChanges(options: GitChangesOptions): QuickStart {
  const stopper = new AbortController();
  // Once the answer is known, the other ref's processes are not needed.
  const answer = quickChanges(gitRunner(options, stopper.signal), options).finally(() => stopper.abort());
  // Read only when wanted: until then a failure must not count as unhandled.
  answer.catch(() => undefined);
  return { answer, stop: () => stopper.abort() };
}

export async function gitChangedFiles(
  options: GitChangesOptions,
  quickStart: QuickStart = startQuickChanges(options),
): Promise<GitChanges> {
  const git = gitRunner(options);
  const notes: string[] = [];
  const quick = await quickStart.answer;
  if (quick) return { ...quick, notes };
  const { head, mergeBase } = await findBaseCarefully(git, options, notes);
  const diff = await git.run(diffArgs(mergeBase, head), MAX_DIFF_BYTES);
  if (diff.exitCode !== 0) {
    throw new GitChangesError(`git diff ${mergeBase}..${head} failed: ${lastLine(diff.stderr)}`);
  }
  return { files: parseNameStatus(diff.stdout), base: mergeBase, head, notes };
}

/**
 * `git diff` with git's rename detection (exact renames by hash, similar files up to git's own limit): the
 * package managers' filters see a rename as its new path alone, and the config decides whether its old
 * path counts too (impact.ts). `from` is a commit, or `<base ref>...` for the merge base of that ref and
 * the head.
 */
function diffArgs(from: string, head: string): string[] {
  const range = from.endsWith('...') ? [`${from}${head}`] : [from, head];
  return ['diff', '--name-status', '-z', '--find-renames', '--no-ext-diff', '--no-textconv', ...range, '--'];
}

type Git = ReturnType<typeof gitRunner>;

/**
 * The usual case: the target branch (its remote-tracking ref, else a local branch, the order
 * findBaseCarefully takes them in) and the head are both in the clone. For each ref, the merge base and
 * the diff from it (`git diff <ref>...<head>`) are asked for at once. When the clone's files say which
 * ref it has (git-refs.ts), only that ref's pair runs; otherwise both refs' at the same time: a ref
 * that is missing costs a process that fails at once, not a round trip before the other is tried.
 */
async function quickChanges(git: Git, options: GitChangesOptions): Promise<QuickChanges | undefined> {
  const head = options.headSha ?? 'HEAD';
  const candidates = baseRefCandidates(options.targetBranch);
  // The first ref the clone's files show is the one git would settle on: only its pair is started.
  const present = await presentRefs(options.cwd, candidates);
  const refs = present?.length ? present.slice(0, 1) : candidates;
  const attempts = refs.map((ref) => {
    const pair = Promise.all([
      git.run(['merge-base', ref, head]),
      git.run(diffArgs(`${ref}...`, head), MAX_DIFF_BYTES),
    ]);
    // A later ref's pair is read only when the earlier refs are missing.
    pair.catch(() => undefined);
    return pair;
  });
  for (const attempt of attempts) {
    const [found, diff] = await attempt;
    if (found.exitCode === 0) {
      const base = found.stdout.toString('utf8').trim();
      if (diff.exitCode !== 0) {
        throw new GitChangesError(`git diff ${base}..${head} failed: ${lastLine(diff.stderr)}`);
      }
      return { files: parseNameStatus(diff.stdout), base, head };
    }
    // 1: both exist without a common ancestor in the clone (shallow?); anything else: a ref is missing.
    if (found.exitCode === 1) return undefined;
  }
  return undefined;
}

function baseRefCandidates(branch: string): [string, string] {
  return [`refs/remotes/${REMOTE}/${branch}`, `refs/heads/${branch}`];
}

/** Every other case: fetch what is missing, deepen a shallow clone, or say what to do. */
async function findBaseCarefully(git: Git, options: GitChangesOptions, notes: string[]) {
  if ((await git.run(['rev-parse', '--is-inside-work-tree'])).exitCode !== 0) {
    throw new NotACheckoutError(`${options.cwd} is not inside a git checkout`);
  }
  const shallow = (await git.text(['rev-parse', '--is-shallow-repository'])) === 'true';
  const head = await resolveHead(git, options, shallow, notes);
  const base = await resolveBaseRef(git, options, shallow, notes);
  const mergeBase = await findMergeBase(git, options, { base, head, shallow }, notes);
  return { head, mergeBase };
}

function gitRunner(options: GitChangesOptions, signal?: AbortSignal) {
  const run = async (args: string[], maxOutputBytes = MAX_SMALL_OUTPUT) => {
    try {
      return await runCommand('git', ['-c', 'core.quotepath=off', ...args], {
        cwd: options.cwd,
        timeoutMs: options.timeoutMs,
        maxOutputBytes,
        signal,
      });
    } catch (error) {
      if (error instanceof CommandError) throw new GitChangesError(error.message);
      throw error;
    }
  };
  return {
    run,
    async text(args: string[]): Promise<string> {
      const result = await run(args);
      return result.exitCode === 0 ? result.stdout.toString('utf8').trim() : '';
    },
    async hasCommit(rev: string): Promise<boolean> {
      return (await run(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])).exitCode === 0;
    },
  };
}

async function resolveHead(git: Git, options: GitChangesOptions, shallow: boolean, notes: string[]) {
  const wanted = options.headSha ?? 'HEAD';
  if (await git.hasCommit(wanted)) return (await git.text(['rev-parse', `${wanted}^{commit}`])) || wanted;
  if (!options.headSha) throw new GitChangesError('the checkout has no HEAD commit');
  options.log(`The head ${options.headSha} is not in this clone; fetching it from ${REMOTE}.`);
  const fetched = await fetchFromRemote(git, shallow, options.headSha);
  if (fetched.exitCode !== 0 || !(await git.hasCommit(options.headSha))) {
    throw new GitChangesError(
      `the PR's head ${options.headSha} is not in this clone and could not be fetched (${lastLine(fetched.stderr) || 'not found'}); check out the PR's head (actions/checkout with ref: the head sha)`,
    );
  }
  notes.push(`fetched the head ${options.headSha}`);
  return options.headSha;
}

async function resolveBaseRef(git: Git, options: GitChangesOptions, shallow: boolean, notes: string[]) {
  const branch = options.targetBranch;
  const candidates = baseRefCandidates(branch);
  for (const ref of candidates) if (await git.hasCommit(ref)) return ref;

  options.log(`The target branch ${branch} is not in this clone; fetching it from ${REMOTE} once.`);
  const fetched = await fetchFromRemote(
    git,
    shallow,
    `+refs/heads/${branch}:refs/remotes/${REMOTE}/${branch}`,
  );
  if (fetched.exitCode === 0 && (await git.hasCommit(candidates[0]))) {
    notes.push(`fetched the target branch ${branch}`);
    return candidates[0];
  }
  throw new GitChangesError(
    `the target branch "${branch}" is not in this clone and fetching it from ${REMOTE} failed (${lastLine(fetched.stderr) || 'no such branch'}); check out with fetch-depth: 0, or fetch the branch before this step (git fetch ${REMOTE} ${branch})`,
  );
}

/** One quiet fetch from the remote; a shallow clone stays shallow. */
function fetchFromRemote(git: Git, shallow: boolean, refspec: string) {
  return git.run([
    'fetch',
    '--no-tags',
    '--quiet',
    ...(shallow ? [`--depth=${FIRST_DEEPEN}`] : []),
    REMOTE,
    refspec,
  ]);
}

async function findMergeBase(
  git: Git,
  options: GitChangesOptions,
  refs: { base: string; head: string; shallow: boolean },
  notes: string[],
): Promise<string> {
  let depth = FIRST_DEEPEN;
  for (let attempt = 0; ; attempt++) {
    const found = await git.run(['merge-base', refs.base, refs.head]);
    if (found.exitCode === 0) return found.stdout.toString('utf8').trim();
    if (found.exitCode !== 1) throw new GitChangesError(`git merge-base failed: ${lastLine(found.stderr)}`);
    const stillShallow = (await git.text(['rev-parse', '--is-shallow-repository'])) === 'true';
    if (!stillShallow) {
      throw new GitChangesError(
        `${refs.base} and ${refs.head} have no common ancestor (unrelated histories); check target-branch`,
      );
    }
    if (attempt >= options.deepenAttempts) {
      throw new GitChangesError(
        `no merge base of ${refs.base} and ${refs.head} in this shallow clone after deepening it ${plural(attempt, 'time')}; check out with fetch-depth: 0`,
      );
    }
    options.log(
      `No merge base yet in this shallow clone; deepening it by ${depth} commits (attempt ${attempt + 1} of ${options.deepenAttempts}).`,
    );
    const branch = refs.base.replace(/^refs\/(remotes\/[^/]+|heads)\//, '');
    const deepened = await git.run([
      'fetch',
      '--no-tags',
      '--quiet',
      `--deepen=${depth}`,
      REMOTE,
      `+refs/heads/${branch}:refs/remotes/${REMOTE}/${branch}`,
      refs.head,
    ]);
    if (deepened.exitCode !== 0) {
      throw new GitChangesError(
        `git fetch --deepen=${depth} failed: ${lastLine(deepened.stderr)}; check out with fetch-depth: 0`,
      );
    }
    notes.push(`deepened the shallow clone by ${depth} commits`);
    depth *= 2;
  }
}

/** `git diff --name-status -z`: `M\0path\0`, `D\0path\0`, `R100\0old\0new\0`, `C75\0from\0to\0`. */
export function parseNameStatus(output: Buffer): ChangedFile[] {
  const fields = output.toString('utf8').split('\0');
  const files: ChangedFile[] = [];
  for (let i = 0; i < fields.length;) {
    const status = fields[i++] ?? '';
    if (!status) continue;
    const kind = status[0];
    if (kind === 'R') {
      const from = fields[i++] ?? '';
      const to = fields[i++] ?? '';
      files.push({ path: from, deleted: true, renamedTo: to }, { path: to, deleted: false });
    } else if (kind === 'C') {
      i++;
      files.push({ path: fields[i++] ?? '', deleted: false });
    } else {
      files.push({ path: fields[i++] ?? '', deleted: kind === 'D' });
    }
  }
  return files.filter((f) => f.path);
}

/** Every file tracked at HEAD, for lint and for expanding groups against every known target. */
export async function trackedFiles(cwd: string, timeoutMs: number): Promise<string[]> {
  let result;
  try {
    result = await runCommand('git', ['-c', 'core.quotepath=off', 'ls-files', '-z'], {
      cwd,
      timeoutMs,
      maxOutputBytes: MAX_DIFF_BYTES,
    });
  } catch (error) {
    if (error instanceof CommandError) throw new GitChangesError(error.message);
    throw error;
  }
  if (result.exitCode !== 0) {
    throw new GitChangesError(`git ls-files failed in ${cwd}: ${lastLine(result.stderr)}`);
  }
  return result.stdout.toString('utf8').split('\0').filter(Boolean);
}
