// Whether colour is on: --color, FORCE_COLOR, NO_COLOR, TERM=dumb and the stream, in that order; and the
// log lines of every host that writes a stream, which follow it and share one shape.
import { describe, expect, it } from '@jest/globals';
import { tmpdir } from 'node:os';
import type { HostName } from '../../src/core/host.js';
import { colourEnabled, paint, type ColourChoice } from '../../src/hosts/common/colour.js';
import { createHost } from '../../src/hosts/create.js';

describe('colourEnabled', () => {
  it.each([
    ['a terminal', {}, true, undefined, true],
    ['a pipe', {}, false, undefined, false],
    ['a CI log viewer that shows colours', {}, false, true, true],
    ['NO_COLOR in a terminal', { NO_COLOR: '1' }, true, undefined, false],
    ['NO_COLOR in a colour log viewer', { NO_COLOR: '1' }, false, true, false],
    ['NO_COLOR set empty (ignored, as no-color.org says)', { NO_COLOR: '' }, true, undefined, true],
    ['FORCE_COLOR on a pipe', { FORCE_COLOR: '1' }, false, undefined, true],
    ['FORCE_COLOR empty on a pipe', { FORCE_COLOR: '' }, false, undefined, true],
    ['FORCE_COLOR=0 in a terminal', { FORCE_COLOR: '0' }, true, undefined, false],
    ['FORCE_COLOR=false in a terminal', { FORCE_COLOR: 'false' }, true, undefined, false],
    ['FORCE_COLOR over NO_COLOR', { FORCE_COLOR: '1', NO_COLOR: '1' }, false, undefined, true],
    ['TERM=dumb in a terminal', { TERM: 'dumb' }, true, undefined, false],
  ])('auto: %s', (_what, env, isTerminal, viewerShowsColour, expected) => {
    expect(colourEnabled({ env, isTerminal, viewerShowsColour })).toBe(expected);
  });

  it('--color=always and --color=never win over the variables and the stream', () => {
    expect(colourEnabled({ choice: 'always', env: { NO_COLOR: '1' }, isTerminal: false })).toBe(true);
    expect(colourEnabled({ choice: 'never', env: { FORCE_COLOR: '3' }, isTerminal: true })).toBe(false);
  });
});

describe('paint', () => {
  it('colours only when enabled', () => {
    expect(paint(true).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(paint(false).red('x')).toBe('x');
  });
});

describe('log lines on every host that writes a stream', () => {
  const hosts = ['gitlab-ci', 'buildkite', 'circleci', 'jenkins', 'generic'] as const;
  const ESC = '\u001b[';

  async function warningOn(
    name: HostName,
    env: Record<string, string>,
    colour?: ColourChoice,
    isTTY = false,
  ) {
    let written = '';
    const host = await createHost(name, {
      env,
      input: () => '',
      logStream: { write: (text: string) => (written += text), isTTY },
      files: {},
      cwd: tmpdir(),
      colour,
    });
    host.log.warning('the queue is paused');
    host.log.error('getQueue failed: HTTP 401. Check api-token.');
    return written;
  }

  it.each(hosts)('%s: NO_COLOR turns colour off, even in a terminal', async (name) => {
    const log = await warningOn(name, { NO_COLOR: '1' }, undefined, true);
    expect(log).not.toContain(ESC);
    expect(log).toContain('merge-queue-action: warning: the queue is paused\n');
    expect(log).toContain('merge-queue-action: getQueue failed: HTTP 401. Check api-token.\n');
  });

  it.each(hosts)('%s: --color=never turns it off, FORCE_COLOR and --color=always on', async (name) => {
    expect(await warningOn(name, {}, 'never', true)).not.toContain(ESC);
    expect(await warningOn(name, { FORCE_COLOR: '1' })).toContain(`${ESC}33mwarning:`);
    expect(await warningOn(name, { NO_COLOR: '1' }, 'always')).toContain(`${ESC}31mmerge-queue-action:`);
  });

  it('colours by default where the CI log shows colours, and a terminal', async () => {
    expect(await warningOn('gitlab-ci', {})).toContain(ESC);
    expect(await warningOn('buildkite', {})).toContain(ESC);
    expect(await warningOn('jenkins', {})).not.toContain(ESC);
    expect(await warningOn('generic', {})).not.toContain(ESC);
    expect(await warningOn('generic', {}, undefined, true)).toContain(ESC);
  });
});
