// The checkout's CODEOWNERS file, for the owners of the run's own failures (the service's tests carry
// their owners already). Each line is a gitignore-style pattern (matched with `ignore`, the library
// eslint uses for .gitignore rules) and its owners; the last matching line wins, as on GitHub.
import ignore, { type Ignore } from 'ignore';
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
  const rules: { matcher: Ignore; owners: string[] }[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    // GitLab's [Section] headers carry no pattern.
    if (!line || line.startsWith('[') || line.startsWith('^[')) continue;
    const [pattern, ...owners] = line.split(/\s+/);
    if (!pattern) continue;
    try {
      rules.push({
        matcher: ignore().add(pattern),
        owners: owners.filter((owner) => !owner.startsWith('#')),
      });
    } catch {
      // A pattern `ignore` cannot read is skipped, as GitHub skips a line it cannot parse.
    }
  }
  return {
    source,
    ownersOf(path) {
      for (let index = rules.length - 1; index >= 0; index--) {
        const rule = rules[index]!;
        if (rule.matcher.ignores(path)) return rule.owners;
      }
      return [];
    },
  };
}
