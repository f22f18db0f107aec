// The GitHub Actions host places annotations on a file and line when the core gives them, as the
// runner's workflow commands on stdout.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { githubActionsHost } from '../../src/hosts/github-actions/host.js';

let written: string[] = [];
const originalWrite = process.stdout.write.bind(process.stdout);

beforeEach(() => {
  written = [];
  process.stdout.write = ((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
});
afterEach(() => {
  process.stdout.write = originalWrite;
});

describe('GitHub Actions annotations', () => {
  const host = githubActionsHost({}, process.cwd());

  it('puts an error on the test file and line', () => {
    host.log.error('expected 2, got 3', { title: 'sum adds', file: 'src/sum.test.ts', line: 12 });
    expect(written.join('')).toBe('::error title=sum adds,file=src/sum.test.ts,line=12::expected 2, got 3\n');
  });

  it('escapes what would end the command in titles, files and messages', () => {
    host.log.warning('a\nb', { title: 'x,y::z', file: 'dir/a:b.ts', line: 3 });
    expect(written.join('')).toBe('::warning title=x%2Cy%3A%3Az,file=dir/a%3Ab.ts,line=3::a%0Ab\n');
  });

  it('leaves the line out without a file, and a line below 1 out altogether', () => {
    host.log.notice?.('12 more failures', { title: 'check-test-results', line: 4 });
    host.log.error('boom', { file: 'a.ts', line: 0 });
    expect(written.join('')).toBe(
      '::notice title=check-test-results::12 more failures\n::error file=a.ts::boom\n',
    );
  });

  it('still takes a title alone', () => {
    host.log.error('plain', { title: 'get-queue' });
    expect(written.join('')).toBe('::error title=get-queue::plain\n');
  });

  it('masks a secret with one add-mask command, its line breaks and percent signs escaped', () => {
    host.mask('tok_%a\nb');
    expect(written.join('')).toBe('::add-mask::tok_%25a%0Ab\n');
  });

  it('folds what a group logs between group and endgroup, even when the work fails', async () => {
    await expect(
      host.log.group('Upload, 3 targets', async () => {
        host.log.info('sent');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(written.join('')).toBe('::group::Upload, 3 targets\nsent\n::endgroup::\n');
  });
});
