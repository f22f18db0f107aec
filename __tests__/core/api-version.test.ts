// Which API a run speaks, and where: api-version, the token that chooses v2 when it is not set, and the
// base each version derives from api-url (src/core/api/base-url.ts, the one place that decides it).
import { describe, expect, it } from '@jest/globals';
import { apiBaseFor } from '../../src/core/api/base-url.js';
import { InputError } from '../../src/core/errors.js';
import { SecretSet } from '../../src/core/report/redact.js';
import { prepareFrom } from '../helpers/prepare.js';

const V1_TOKEN = 'tok_settings_secret_123';
const V2_KEY = 'trunk_v2_0123456789abcdefghij';

const common = (inputs: Record<string, string>) => prepareFrom({ operation: 'get-queue', ...inputs }).common;

describe('api-version', () => {
  it('is v1 by default, and v2 when api-token is a v2 key, which is said once', () => {
    expect(common({ 'api-token': V1_TOKEN })).toMatchObject({ apiVersion: 'v1' });
    expect(common({ 'api-token': V1_TOKEN }).apiVersionNote).toBeUndefined();
    const chosen = common({ 'api-token': V2_KEY });
    expect(chosen.apiVersion).toBe('v2');
    expect(chosen.apiVersionNote).toBe(
      'Speaking API v2: api-token is a v2 API key (trunk_v2_...) and api-version is not set.',
    );
    expect(chosen.apiVersionNote).not.toContain(V2_KEY);
  });

  it('is what api-version says when it is set, whatever the token', () => {
    expect(common({ 'api-token': V2_KEY, 'api-version': 'v1' })).toMatchObject({
      apiVersion: 'v1',
      apiVersionNote:
        'api-token is a v2 API key (trunk_v2_...) but api-version is v1, which takes the organization token only: set api-version to v2, or leave it empty.',
    });
    expect(common({ 'api-token': V1_TOKEN, 'api-version': 'V2' })).toMatchObject({ apiVersion: 'v2' });
    expect(common({ 'api-token': V2_KEY, 'api-version': 'v2' }).apiVersionNote).toBeUndefined();
  });

  it('refuses another version in one line', () => {
    expect(() => common({ 'api-token': V1_TOKEN, 'api-version': 'v3' })).toThrow(InputError);
    expect(() => common({ 'api-token': V1_TOKEN, 'api-version': 'v3' })).toThrow(
      'Input "api-version": "v3" is not one of v1, v2.',
    );
  });

  it('takes queue-id and pull-request-id when they look like ids, and says what is wrong otherwise', () => {
    const ids = common({
      'api-token': V2_KEY,
      'queue-id': 'xK9mP2nQ',
      'pull-request-id': '5D0C7A3E-1B2F-4C4D-8E9F-0A1B2C3D4E5F',
    });
    expect(ids).toMatchObject({ queueId: 'xK9mP2nQ', pullRequestId: '5d0c7a3e-1b2f-4c4d-8e9f-0a1b2c3d4e5f' });
    expect(() => common({ 'api-token': V2_KEY, 'pull-request-id': '12' })).toThrow(
      'Input "pull-request-id": "12" is not a pull request id.',
    );
    expect(() => common({ 'api-token': V2_KEY, 'queue-id': 'a/b' })).toThrow(
      'Input "queue-id": "a/b" is not a merge queue id.',
    );
  });
});

describe('apiBaseFor', () => {
  it('sends v2 to the host (every v2 path starts with /v2) and v1 to its /v1', () => {
    for (const url of ['https://api.trunk.io', 'https://api.trunk.io/v1', 'https://api.trunk.io/v2/']) {
      expect(apiBaseFor('v2', url)).toBe('https://api.trunk.io');
    }
    expect(apiBaseFor('v1', 'https://api.trunk.io/v1')).toBe('https://api.trunk.io/v1');
    expect(apiBaseFor('v1', 'https://api.trunk.io/v2')).toBe('https://api.trunk.io/v1');
    expect(apiBaseFor('v2', 'http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080');
    expect(apiBaseFor('v2', 'https://proxy.example.com/trunk/v1')).toBe('https://proxy.example.com/trunk');
  });
});

describe('v2 keys in text', () => {
  it("are hidden wherever they show, the run's own or another's", () => {
    const secrets = new SecretSet();
    secrets.add(V2_KEY);
    expect(secrets.redact(`key ${V2_KEY}, and trunk_v2_someoneelse0123 in an answer`)).toBe(
      'key ***, and *** in an answer',
    );
  });
});
