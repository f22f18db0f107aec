// CODEOWNERS as GitHub reads it, from the examples of GitHub's own documentation, and patterns a pull
// request's author may write to make the gate hang.
import { describe, expect, it } from '@jest/globals';
import { parseCodeOwners } from '../../src/core/operations/flaky-tests/check-test-results/codeowners.js';

const FILE = [
  '*       @global-owner',
  '*.js    @js-owner',
  '**/logs @logs-owner',
  '/build/logs/ @doctocat',
  'docs/*  docs@example.com',
  'apps/   @octocat',
  '/scripts/ @scripts-owner # trailing comment',
  '/src/main.go @go-owner',
].join('\n');

describe('CODEOWNERS', () => {
  const owners = parseCodeOwners(FILE, 'CODEOWNERS');

  it.each([
    ['README.md', ['@global-owner']],
    ['src/deep/app.js', ['@js-owner']],
    ['app.js', ['@js-owner']],
    ['build/logs/today.txt', ['@doctocat']],
    ['docs/getting-started.md', ['docs@example.com']],
    // docs/* owns the files directly in docs/, not those further down.
    ['docs/build-app/troubleshooting.md', ['@global-owner']],
    ['apps/web/index.ts', ['@octocat']],
    ['services/apps/api.ts', ['@octocat']],
    ['scripts/release.sh', ['@scripts-owner']],
    ['tools/scripts/x.sh', ['@global-owner']],
    ['deep/down/logs/error.txt', ['@logs-owner']],
    ['src/main.go', ['@go-owner']],
    ['lib/src/main.go', ['@global-owner']],
  ])('%s is owned by %j, the last line that matches', (path, expected) => {
    expect(owners.ownersOf(path)).toEqual(expected);
  });

  it('answers a pathological pattern against a long name at once (no backtracking)', () => {
    const hostile = parseCodeOwners(`*a*a*a*a*a*a*a*a*a*a*a*a*b @trap\n`, 'CODEOWNERS');
    const name = `dir/${'a'.repeat(2000)}`;
    expect(hostile.ownersOf(name)).toEqual([]);
    expect(hostile.ownersOf(`${name}b`)).toEqual(['@trap']);
  });

  it('skips a line it cannot read, as GitHub does', () => {
    const mixed = parseCodeOwners('* @all\n@(a|b) @extglob\n', 'CODEOWNERS');
    expect(mixed.ownersOf('a')).toEqual(['@all']);
  });
});
