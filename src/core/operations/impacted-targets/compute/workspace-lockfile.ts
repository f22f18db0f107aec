// What the lockfile says a project's dependency resolved to: the workspace copy (a link, or an injected
// copy) or a registry copy. Read only when a plain range or tag names a workspace package (the lockfile then decides).
// pnpm-lock.yaml is scanned line by line for its `importers:` section alone (lockfile formats 5 to 9),
// without parsing the rest of a file that runs to megabytes; package-lock.json (npm, lockfile versions 2
// and 3) is read for its `packages` entries, found as Node resolves a name from the project's directory.

export interface Lockfile {
  /** Whether `name`, depended on by the project in `dir`, got the workspace copy; undefined when it does not say. */
  links(dir: string, name: string): boolean | undefined;
}

export function pnpmLockfile(text: string): Lockfile {
  const locked = lockedVersions(text);
  return {
    links: (dir, name) => {
      const version = locked.get(dir)?.get(name);
      // An injected workspace package (dependenciesMeta injected: true) is a copy of it, not a link, but
      // still the workspace package: `file:` and its directory.
      return version === undefined ? undefined : /^(link|file):/.test(version);
    },
  };
}

export function npmLockfile(text: string): Lockfile | undefined {
  let packages: Record<string, { link?: boolean }> | undefined;
  try {
    packages = (JSON.parse(text) as { packages?: Record<string, { link?: boolean }> }).packages;
  } catch {
    return undefined;
  }
  if (!packages || typeof packages !== 'object') return undefined;
  const entries = packages;
  return {
    links: (dir, name) => {
      // node_modules/<name> in the project's directory, then in each directory above it.
      for (let at = dir; ; at = at.includes('/') ? at.slice(0, at.lastIndexOf('/')) : '') {
        const entry = entries[at ? `${at}/node_modules/${name}` : `node_modules/${name}`];
        if (entry && typeof entry === 'object') return entry.link === true;
        if (!at) return undefined;
      }
    },
  };
}

/** importer directory ('' for the root) -> dependency name -> the version it resolved to. */
export type LockedVersions = Map<string, Map<string, string>>;

function lockedVersions(text: string): LockedVersions {
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
