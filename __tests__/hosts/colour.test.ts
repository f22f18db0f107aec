// Whether colour is on: --color, FORCE_COLOR, NO_COLOR, TERM=dumb and the stream, in that order.
import { describe, expect, it } from '@jest/globals';
import { colourEnabled, paint } from '../../src/hosts/common/colour.js';

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
