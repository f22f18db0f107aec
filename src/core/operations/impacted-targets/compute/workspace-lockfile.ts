// What pnpm-lock.yaml says each project's dependency resolved to: `link:<dir>` when pnpm linked the
// workspace copy, a version when it installed one from the registry. Read only when a plain range or
// tag names a workspace package (the lockfile then decides), and scanned line by line for its
// `importers:` section alone (lockfile formats 5 to 9), without parsing the rest of a file that runs to
// megabytes.

/** importer directory ('' for the root) -> dependency name -> the version it resolved to. */
export type LockedVersions = Map<string, Map<string, string>>;

export function lockedVersions(text: string): LockedVersions {
  const locked: LockedVersions = new Map();
  const lines = text.split('\n');
  let i = lines.findIndex((line) => /^importers:\s*$/.test(line));
  if (i < 0) return locked;
  let importer: Map<string, string> | undefined;
  let field = '';
  let dependency = '';
  for (i++; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    if (indent === 0) break;
    const [key, value] = keyAndValue(line.trimStart());
    if (indent === 2) {
      const dir = key === '.' ? '' : key.replace(/^\.\//, '');
      importer = locked.get(dir) ?? new Map<string, string>();
      locked.set(dir, importer);
    } else if (indent === 4) {
      field = key;
    } else if (indent === 6 && field !== 'specifiers') {
      dependency = key;
      if (value) importer?.set(dependency, value);
    } else if (indent === 8 && key === 'version' && value) {
      importer?.set(dependency, value);
    }
  }
  return locked;
}

function keyAndValue(text: string): [string, string] {
  let key: string;
  let rest: string;
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    const end = text.indexOf(quote, 1);
    key = text.slice(1, end);
    rest = text.slice(end + 1);
  } else {
    const colon = text.indexOf(':');
    key = colon < 0 ? text : text.slice(0, colon);
    rest = colon < 0 ? '' : text.slice(colon);
  }
  const value = rest.replace(/^:\s*/, '').trim();
  return [key, value.replace(/^['"]|['"]$/g, '')];
}
