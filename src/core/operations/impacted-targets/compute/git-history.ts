// The last commits of the checkout's own history, each with the files it changed against its first
// parent: one `git log` (no service, no network), run without our inputs or secrets in its environment.
import { CommandError, lastLine, runCommand } from './run-command.js';
import { GitChangesError } from './git-changes.js';
import type { ChangedFile } from './impact.js';

const MAX_LOG_BYTES = 256 * 1024 * 1024;
const STATUS = /^\n?([ACDMRTUXB])\d*$/;
/** `--format=%x01%H%x02%P`: each commit's header is its sha after this mark, then its parents. */
const HEADER_MARK = String.fromCharCode(1);
const PARENTS_MARK = String.fromCharCode(2);
const SHA = /^[0-9a-f]{40,64}$/;

export interface HistoryCommit {
  sha: string;
  files: ChangedFile[];
  hasParent: boolean;
}

export async function recentCommits(cwd: string, count: number, timeoutMs: number): Promise<HistoryCommit[]> {
  const args = ['-c', 'core.quotepath=off', 'log', '--first-parent', '--diff-merges=first-parent'];
  args.push(
    '--name-status',
    '--find-renames',
    '-z',
    '--format=%x01%H%x02%P',
    '-n',
    String(count),
    'HEAD',
    '--',
  );
  let result;
  try {
    result = await runCommand('git', args, { cwd, timeoutMs, maxOutputBytes: MAX_LOG_BYTES });
  } catch (error) {
    if (error instanceof CommandError) throw new GitChangesError(error.message);
    throw error;
  }
  if (result.exitCode !== 0)
    throw new GitChangesError(`git log failed in ${cwd}: ${lastLine(result.stderr)}`);
  // A commit without a parent (the first, or a shallow clone's boundary) would count every file as added.
  return parseLog(result.stdout.toString('utf8')).filter((commit) => commit.hasParent);
}

/**
 * `git log -z --name-status` read by position: a header, then status and path pairs. A path is never taken
 * for a header, however it is spelled, as it is read only where a path stands.
 */
export function parseLog(text: string): HistoryCommit[] {
  const tokens = text.split('\0');
  const commits: HistoryCommit[] = [];
  let current: HistoryCommit | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const header = headerOf(token);
    if (header) {
      current = { ...header, files: [] };
      commits.push(current);
      continue;
    }
    const status = STATUS.exec(token);
    if (status?.[1] === 'R' && current && i + 2 < tokens.length) {
      const from = tokens[++i] as string;
      const to = tokens[++i] as string;
      current.files.push({ path: from, deleted: true, renamedTo: to }, { path: to, deleted: false });
    } else if (status?.[1] === 'C' && current && i + 2 < tokens.length) {
      i++;
      current.files.push({ path: tokens[++i] as string, deleted: false });
    } else if (status && current && i + 1 < tokens.length) {
      current.files.push({ path: tokens[++i] as string, deleted: status[1] === 'D' });
    }
  }
  return commits;
}

/** `<mark><sha><separator><parent shas>`, else undefined. */
function headerOf(token: string): { sha: string; hasParent: boolean } | undefined {
  const text = token.startsWith('\n') ? token.slice(1) : token;
  if (!text.startsWith(HEADER_MARK)) return undefined;
  const [sha = '', parents] = text.slice(HEADER_MARK.length).split(PARENTS_MARK);
  return SHA.test(sha) && parents !== undefined ? { sha, hasParent: parents.trim() !== '' } : undefined;
}
