// The checkout's CODEOWNERS file, for the owners of the run's own failures (the service's tests carry
// their owners already). Each line is a pattern and its owners; the last matching line wins, as on
// GitHub. A pull request's author writes the file, so its patterns are turned into our linear-time globs
// (src/core/glob.ts), never into backtracking regular expressions.
import { compileGlob, type Glob } from '../../../glob.js';
import { readCheckoutText } from '../../../files.js';

const LOCATIONS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS', '.gitlab/CODEOWNERS'];
const MAX_BYTES = 3 * 1024 * 1024;

export interface CodeOwners {
  /** Owners of a path relative to the checkout; [] when no rule matches. */
  ownersOf(path: string): string[];
  /** Where the rules came from. */
  source: string;
}

export async function readCodeOwners(checkoutDir: string): Promise<CodeOwners | undefined> {
  for (const location of LOCATIONS) {
    const text = await readCheckoutText(checkoutDir, location, MAX_BYTES);
    if (text !== undefined) return parseCodeOwners(text, location);
  }
  return undefined;
}

export function parseCodeOwners(text: string, source: string): CodeOwners {
  const rules: { globs: Glob[]; owners: string[] }[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    // GitLab's [Section] headers carry no pattern.
    if (!line || line.startsWith('[') || line.startsWith('^[')) continue;
    const [pattern, ...owners] = line.split(/\s+/);
    if (!pattern) continue;
    try {
      rules.push({
        globs: globsOfPattern(pattern).map(compileGlob),
        owners: owners.filter((owner) => !owner.startsWith('#')),
      });
    } catch {
      // A pattern we cannot read is skipped, as GitHub skips a line it cannot parse.
    }
  }
  return {
    source,
    ownersOf(path) {
      for (let index = rules.length - 1; index >= 0; index--) {
        const rule = rules[index]!;
        if (rule.globs.some((glob) => glob.match(path))) return rule.owners;
      }
      return [];
    },
  };
}

/**
 * A CODEOWNERS pattern as globs over paths from the root, by GitHub's rules: a pattern with a slash at
 * its start or in its middle is anchored at the root, any other matches at any depth; a trailing slash
 * names a directory; a pattern whose last segment is a plain name may name a directory as well as a file
 * (everything below it is matched), while one ending in a wildcard (`docs/*`) matches no deeper file.
 */
export function globsOfPattern(pattern: string): string[] {
  const directoryOnly = pattern.endsWith('/');
  const body = pattern.replace(/^\//, '').replace(/\/$/, '');
  const anchored = pattern.startsWith('/') || body.includes('/');
  const base = anchored ? body : `**/${body}`;
  if (directoryOnly) return [`${base}/**`];
  const last = body.slice(body.lastIndexOf('/') + 1);
  return /[*?[]/.test(last) ? [base] : [base, `${base}/**`];
}
