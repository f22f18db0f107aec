// Who is calling: an API key in `Authorization: Bearer`, or a first-party token in `x-trunk-token` (the
// emulator's device-login sessions, which read but hold no permission, as an exchanged token cannot write
// merge queues; or a GitHub Actions login, which only uploads impacted targets: actions-logins.ts). A v1 organization token is refused with a message that says where keys are made.
import { V2_KEY_PREFIX, V2_PERMISSIONS, type V2Permission } from '../../src/wire/v2/index.js';
import type { DeviceLogins } from '../device-auth.js';
import type { ActionsLogins } from './actions-logins.js';
import { V2Error } from './errors.js';
import type { ApiKey, ApiKeys } from './keys.js';

const WHERE_KEYS_ARE_MADE = 'Settings > Developer > API Keys';
/** The identity of a device-login session sent in x-trunk-token. */
const SESSION_KEY_NAME = 'x-trunk-token session';

export interface Credentials {
  keys: ApiKeys;
  /** The v1 organization token (x-api-token), refused here. */
  v1Token: string;
  deviceLogins: DeviceLogins;
  actionsLogins: ActionsLogins;
}

export function authenticate(headers: Record<string, unknown>, credentials: Credentials): ApiKey {
  const authorization = typeof headers.authorization === 'string' ? headers.authorization : undefined;
  const trunkToken = typeof headers['x-trunk-token'] === 'string' ? headers['x-trunk-token'] : undefined;
  const given = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? trunkToken;
  if (given === undefined) {
    if (authorization !== undefined) {
      throw new V2Error(401, 'INVALID_TOKEN', 'The Authorization header must be "Bearer <API key>"');
    }
    if (headers['x-api-token'] !== undefined) throw v1TokenRefused();
    throw new V2Error(
      401,
      'AUTHENTICATION_REQUIRED',
      `Send an API key (${V2_KEY_PREFIX}…) as "Authorization: Bearer <key>"; an admin makes keys in ${WHERE_KEYS_ARE_MADE}`,
    );
  }
  const key = credentials.keys.find(given);
  if (key) return key;
  if (given === credentials.v1Token) throw v1TokenRefused();
  if (trunkToken === given && credentials.deviceLogins.accepts(given)) {
    return { name: SESSION_KEY_NAME, key: given, permissions: new Set() };
  }
  const login = trunkToken === given ? credentials.actionsLogins.find(given) : undefined;
  if (login) {
    const name = `GitHub Actions login of ${login.repo.owner}/${login.repo.name}`;
    return { name, key: given, permissions: new Set(), actions: login };
  }
  throw new V2Error(
    401,
    'INVALID_TOKEN',
    given.startsWith(V2_KEY_PREFIX)
      ? 'This API key is not one of the organization: it was deleted, or mistyped'
      : `This is not an API key: v2 keys start with ${V2_KEY_PREFIX}; an admin makes them in ${WHERE_KEYS_ARE_MADE}`,
  );
}

function v1TokenRefused(): V2Error {
  return new V2Error(
    401,
    'INVALID_TOKEN',
    `The organization API token works with the v1 API only. The v2 API takes an API key (${V2_KEY_PREFIX}…), sent as "Authorization: Bearer <key>"; an admin makes keys in ${WHERE_KEYS_ARE_MADE}`,
  );
}

/** 403 naming each permission the key lacks, as an admin sees it, and where it is granted. */
export function requirePermissions(key: ApiKey, needed: readonly V2Permission[]): void {
  const missing = needed.filter((permission) => !key.permissions.has(permission));
  if (missing.length === 0) return;
  const names = missing.map((permission) => `"${V2_PERMISSIONS[permission]}"`).join(' and ');
  throw new V2Error(
    403,
    'INSUFFICIENT_PERMISSIONS',
    `The API key ${key.name} lacks the permission ${names}; an organization admin grants it in ${WHERE_KEYS_ARE_MADE}`,
  );
}
