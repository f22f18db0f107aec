// Stands in for npx where a pasted command fetches this repository's CLI from the archive of the ref the
// plugins pin (main, or the release's tag) on GitHub (their default, which no test here can download): a directory to put first on PATH,
// holding an `npx` that runs this checkout's build for exactly that archive, a bin of the project's own
// node_modules as npx would (the project's jest in a quarantine gate example), and refuses anything else,
// so that a pipeline runs as pasted with nothing but the download swapped. The download itself is
// .ci/pack-smoke.sh's (an archive of this commit, installed with npx).
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { PINNED_ARCHIVE } from './pins.js';

/** PATH with the stand-in npx first. */
export function pathWithNpxShim(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mqa-npx-'));
  const script = [
    '#!/bin/sh',
    `if [ "$1" = "--yes" ] && [ "$2" = "${PINNED_ARCHIVE}" ]; then`,
    '  shift 2',
    `  exec "${process.execPath}" "${resolve('dist/cli/index.js')}" "$@"`,
    'fi',
    'case "$1" in -*) ;; *) if [ -x "node_modules/.bin/$1" ]; then bin="$1"; shift; exec "node_modules/.bin/$bin" "$@"; fi ;; esac',
    'echo "npx stand-in: only this repository\'s pinned archive is here, not: $*" >&2',
    'exit 127',
  ];
  writeFileSync(join(dir, 'npx'), `${script.join('\n')}\n`);
  chmodSync(join(dir, 'npx'), 0o755);
  return [dir, process.env.PATH ?? '/usr/bin:/bin'].join(delimiter);
}
