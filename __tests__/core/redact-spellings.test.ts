// Issue 25, row 13: a secret is hidden in every spelling text leaving the run may give it. The spellings
// are written out here by hand, each the way a real writer makes it, not taken from the redactor.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import '../helpers/property-seed.js';
import { escapeMarkdown } from '../../src/core/report/markdown.js';
import { redactor } from '../../src/core/report/redact.js';

const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
const html = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** How a token or URL turns up in an answer, a summary, a Slack message or a query string. */
const WRITERS: Record<string, (secret: string) => string> = {
  plain: (s) => s,
  encodeURIComponent: (s) => encodeURIComponent(s),
  'encodeURIComponent, lower-case hex': (s) => lowerHex(encodeURIComponent(s)),
  encodeURI: (s) => encodeURI(s),
  'encodeURI, lower-case hex': (s) => lowerHex(encodeURI(s)),
  'a form or URLSearchParams': (s) => new URLSearchParams({ v: s }).toString().slice(2),
  'JSON string': (s) => JSON.stringify(s).slice(1, -1),
  'JSON with \\/': (s) => JSON.stringify(s).slice(1, -1).replace(/\//g, '\\/'),
  markdown: (s) => escapeMarkdown(s),
  'HTML or Slack entities': html,
  'JSON inside markdown': (s) => escapeMarkdown(JSON.stringify(s).slice(1, -1)),
  'percent-encoded inside JSON': (s) => JSON.stringify(encodeURIComponent(s)).slice(1, -1),
};

/** A token's characters: printable ASCII but `*`, which the redactor writes. */
const tokenChar = fc
  .integer({ min: 0x21, max: 0x7e })
  .filter((c) => c !== 0x2a)
  .map((c) => String.fromCharCode(c));
const token = fc.string({ unit: tokenChar, minLength: 8, maxLength: 40 });
const around = fc.string({ unit: fc.constantFrom(...'ab c.,:/\n"{}'.split('')), maxLength: 20 });

describe('a secret in every spelling', () => {
  it('a token is hidden however it is spelled, wherever it stands in the text', () => {
    fc.assert(
      fc.property(
        token,
        fc.constantFrom(...Object.keys(WRITERS)),
        around,
        around,
        (secret, writer, before, after) => {
          const spelled = WRITERS[writer]!(secret);
          const shown = redactor([secret])(`${before}${spelled}${after}`);
          expect({ writer, shown: shown.includes(spelled) }).toEqual({ writer, shown: false });
          expect(shown).toContain('***');
        },
      ),
    );
  });

  const segment = fc.string({
    unit: fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz0123456789'.split('')),
    minLength: 24,
    maxLength: 24,
  });

  it("a webhook URL is hidden whole and by its secret part, and the service's address stays readable", () => {
    fc.assert(
      fc.property(segment, fc.constantFrom(...Object.keys(WRITERS)), (secretPart, writer) => {
        const url = `https://hooks.slack.com/services/T0AB12CD3/B0EF45GH6/${secretPart}`;
        const redact = redactor([url]);
        // A part of letters alone reads as a word, which other text may hold: such a part is hidden only whole.
        const prefix = secretPart.slice(0, 12);
        const texts = [url, `/services/T0AB12CD3/B0EF45GH6/${secretPart}`, secretPart];
        for (const text of /^[A-Za-z]+$/.test(prefix) ? texts : [...texts, prefix]) {
          const spelled = WRITERS[writer]!(text);
          expect({ writer, text, shown: redact(`answer: ${spelled}.`).includes(spelled) }).toEqual({
            writer,
            text,
            shown: false,
          });
        }
        expect(redact('POST https://hooks.slack.com/services/ failed')).toBe(
          'POST https://hooks.slack.com/services/ failed',
        );
        expect(redact('see https://github.com/octo-org/repo/pull/1')).toBe(
          'see https://github.com/octo-org/repo/pull/1',
        );
        // With a port, a user name or an odd case, the address is still no secret; the key still is.
        const odd = redactor([`HTTPS://hooks.slack.com:443/services/T0AB12CD3/B0EF45GH6/${secretPart}`]);
        expect(odd(`see https://github.com/octo-org/repo/pull/1 and ${secretPart}`)).toBe(
          'see https://github.com/octo-org/repo/pull/1 and ***',
        );
      }),
    );
  });
});
