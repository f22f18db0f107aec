// A workspace manifest's text read as the package managers read it. package.json is strict JSON for
// all of them (npm, yarn classic, yarn berry, pnpm), but each strips a leading UTF-8 byte-order mark
// first, as Node's own require() of JSON does: one is accepted here too. pnpm alone also reads
// package.json5 (JSON5: comments, trailing commas) and package.yaml (YAML), beside or instead of
// package.json; those are read here only in a pnpm workspace. A manifest that none of them could read
// is a WorkspaceError (the compute then fails safe to ALL).
import { CORE_SCHEMA, load } from 'js-yaml';
import { WorkspaceError } from './workspace-error.js';

export type PackageManager = 'pnpm' | 'yarn' | 'npm';

/** The manifest file names a package manager looks for in a project's directory, by preference. */
export function manifestNames(manager: PackageManager): readonly string[] {
  return manager === 'pnpm' ? ['package.json', 'package.json5', 'package.yaml'] : ['package.json'];
}

export type Manifest = Record<string, unknown>;

/** The manifest at `path` (which names it in messages), from its text. */
export async function parseManifest(path: string, text: string): Promise<Manifest> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let data: unknown;
  try {
    if (path.endsWith('.yaml')) data = load(body, { schema: CORE_SCHEMA });
    else if (path.endsWith('.json5')) data = (await import('json5')).default.parse(body);
    else data = JSON.parse(body);
  } catch (error) {
    const format = path.endsWith('.yaml') ? 'YAML' : path.endsWith('.json5') ? 'JSON5' : 'JSON';
    throw new WorkspaceError(`${path} is not valid ${format} (${firstLine(error)})`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new WorkspaceError(`${path} is not an object of fields`);
  }
  return data as Manifest;
}

function firstLine(error: unknown): string {
  return (error as Error).message.split('\n')[0] ?? '';
}
