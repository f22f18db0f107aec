// Where each API version lives, from the one api-url input: the only place that decides it. The service
// documents v1 at https://api.trunk.io/v1 and v2 at the host itself, every v2 path starting with /v2
// (its document's `servers`). So api-url may name the host, its /v1 or its /v2: v1 is sent to the /v1 of
// it (an api-url with no version is taken as given, as it always was), v2 to what is left once a
// trailing /v1 or /v2 is dropped (the emulator's http://127.0.0.1:PORT/v1 serves v2 as well).
export const API_VERSIONS = ['v1', 'v2'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

const VERSION_SUFFIX = /\/v[12]\/?$/;

/** The base every request of `version` is sent under. */
export function apiBaseFor(version: ApiVersion, apiUrl: string): string {
  const url = apiUrl.replace(/\/+$/, '');
  if (version === 'v2') return url.replace(VERSION_SUFFIX, '');
  return /\/v2$/.test(url) ? url.replace(/\/v2$/, '/v1') : url;
}
