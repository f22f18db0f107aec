// The v2 API's keys: each has a name, a secret (`trunk_v2_…`) and the permissions an admin granted it
// (the names of V2_PERMISSIONS). The emulator always makes one key with every permission; the command
// line (`--api-key name=perm,perm`) and startEmulator's `apiKeys` add more.
import { V2_KEY_PREFIX, V2_PERMISSIONS, type V2Permission } from '../../src/wire/v2/index.js';
import { SeededRandom } from '../../src/queue-model/index.js';
import type { ActionsLogin } from './actions-logins.js';

/** The name of the key made with every permission. */
export const ADMIN_KEY_NAME = 'admin';
export const ALL_PERMISSIONS = Object.keys(V2_PERMISSIONS) as V2Permission[];

export interface ApiKeySpec {
  name: string;
  permissions: readonly V2Permission[];
  /** The secret to accept; made up from the seed when absent. Must start with trunk_v2_. */
  key?: string;
}

export interface ApiKey {
  name: string;
  key: string;
  permissions: ReadonlySet<V2Permission>;
  /** Set for a GitHub Actions login: it uploads impacted targets within its bounds, nothing else. */
  actions?: ActionsLogin;
}

/**
 * Reads `name=perm,perm` (the command line's `--api-key`); `name` or `name=` alone is a key with no
 * permission (it reads, and calls the flaky-tests and Dynamic CI endpoints).
 */
export function parseApiKeySpec(text: string): ApiKeySpec {
  const at = text.indexOf('=');
  const name = (at < 0 ? text : text.slice(0, at)).trim();
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) {
    throw new Error(`--api-key ${text}: the key's name must be 1 to 64 letters, digits, '.', '_' or '-'`);
  }
  const listed =
    at < 0
      ? []
      : text
          .slice(at + 1)
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean);
  const unknown = listed.filter((p) => !(p in V2_PERMISSIONS));
  if (unknown.length > 0) {
    throw new Error(
      `--api-key ${text}: unknown permission ${unknown.join(', ')}; the permissions are ${ALL_PERMISSIONS.join(', ')}`,
    );
  }
  return { name, permissions: listed as V2Permission[] };
}

export class ApiKeys {
  private readonly bySecret = new Map<string, ApiKey>();

  constructor(specs: readonly ApiKeySpec[], seed: number) {
    const random = new SeededRandom(seed ^ 0x5eed_0a2e);
    for (const spec of [{ name: ADMIN_KEY_NAME, permissions: ALL_PERMISSIONS }, ...specs]) {
      const key = spec.key ?? `${V2_KEY_PREFIX}${random.hex(40)}`;
      if (!key.startsWith(V2_KEY_PREFIX))
        throw new Error(`API key ${spec.name}: a key starts with ${V2_KEY_PREFIX}`);
      if (this.bySecret.has(key)) throw new Error(`API key ${spec.name}: the same secret is given twice`);
      this.bySecret.set(key, { name: spec.name, key, permissions: new Set(spec.permissions) });
    }
  }

  find(secret: string): ApiKey | undefined {
    return this.bySecret.get(secret);
  }

  all(): ApiKey[] {
    return [...this.bySecret.values()];
  }

  /** The key with every permission the emulator makes at start. */
  get admin(): ApiKey {
    return this.all()[0]!;
  }
}
