// The wait's status in a terminal: one line redrawn in place, ended by any other line and at the end of
// the run, so that nothing written after it lands on the same line; in a pipe, plain lines.
import { describe, expect, it } from '@jest/globals';
import { PLAIN_DIALECT, Secrets, streamLog } from '../../src/hosts/common/log.js';

function terminal(isTTY: boolean) {
  const written: string[] = [];
  const log = streamLog({ write: (text: string) => written.push(text), isTTY }, PLAIN_DIALECT, new Secrets());
  return { log, text: () => written.join('') };
}

describe('the status line of a wait', () => {
  it('in a terminal, redraws one line in place and ends it before any other line', () => {
    const { log, text } = terminal(true);
    log.progress!('PR #920: PENDING, 5 of 5 in line (4 ahead); about 8m left; waited 0s of 12m.');
    log.progress!('PR #920: TESTING, 3 of 3 in line (2 ahead); about 7m left; waited 7s of 12m.');
    log.info('PR #920 stepped back.');
    log.progress!('PR #920: TESTING, 2 of 2 in line (1 ahead); about 7m left; waited 11s of 12m.');
    log.endProgress();
    expect(text()).toBe(
      [
        '\r\u001b[2KPR #920: PENDING, 5 of 5 in line (4 ahead); about 8m left; waited 0s of 12m.',
        '\r\u001b[2KPR #920: TESTING, 3 of 3 in line (2 ahead); about 7m left; waited 7s of 12m.',
        '\nPR #920 stepped back.\n',
        '\r\u001b[2KPR #920: TESTING, 2 of 2 in line (1 ahead); about 7m left; waited 11s of 12m.',
        '\n',
      ].join(''),
    );
  });

  it('in a pipe or a CI log, writes each as a line of its own', () => {
    const { log, text } = terminal(false);
    log.progress!('PR #920: PENDING; waited 0s of 12m.');
    log.progress!('PR #920: TESTING; waited 7s of 12m.');
    log.endProgress();
    expect(text()).toBe('PR #920: PENDING; waited 0s of 12m.\nPR #920: TESTING; waited 7s of 12m.\n');
  });
});
