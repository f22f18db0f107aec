// Text we do not control on its way out: each host's log syntax neutralised, values made one line,
// secrets hidden before anything is cut, and summaries that show what is there (issue 18, items 4, 5, 10).
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  neutraliseBuildkiteMarkers,
  neutraliseGitHubCommands,
  neutraliseGitLabSections,
  neutralisePlainLog,
  oneLine,
} from '../../src/core/report/control-syntax.js';
import { escapeMarkdown } from '../../src/core/report/markdown.js';
import { cutSafely, FRAGMENT, redactCredentials, redactor } from '../../src/core/report/redact.js';
import { quoted } from '../../src/core/inputs.js';
import { summarizeBody } from '../../src/core/api/errors.js';

const ESC = '\u001b';

describe('each host neutralises its own log syntax', () => {
  it('GitHub: no line of the result starts a workflow command, new or old form', () => {
    const text = 'ok\n::add-mask::x\n  ::stop-commands::t\r::set-output name=a::b\n##[group]g\n::';
    const lines = neutraliseGitHubCommands(text).split(/\r\n|\r|\n/);
    expect(lines.filter((line) => /^\s*(::|##\[)/.test(line))).toEqual([]);
    expect(lines.map((line) => line.replace(/\u200b/g, ''))).toEqual(text.split(/\r\n|\r|\n/));
  });

  it('GitLab: section markers are broken, and so is the escape that starts them', () => {
    const text = `${ESC}[0Ksection_start:1700000000:fake[collapsed=true]\r${ESC}[0Kinjected\nsection_end:1:fake`;
    const out = neutraliseGitLabSections(text);
    expect(out).not.toMatch(/section_(start|end):/);
    expect(out).not.toContain(ESC);
    expect(out).toContain('\\x1b[0K');
  });

  it('Buildkite: group and expand markers at a line start are broken, elsewhere kept', () => {
    const out = neutraliseBuildkiteMarkers('--- fake group\n+++ open\n~~~ quiet\n^^^ +++\nkeep a --- b');
    expect(out.split('\n').filter((line) => /^\s*(---|\+\+\+|~~~|\^\^\^)/.test(line))).toEqual([]);
    expect(out).toContain('keep a --- b');
  });

  it('a plain log still loses terminal escapes', () => {
    expect(neutralisePlainLog(`red ${ESC}[31mtext${ESC}]8;;http://x${ESC}\\`)).not.toContain(ESC);
  });
});

describe('a value is one line', () => {
  it('shows every kind of line break and control character, so a value cannot start a line', () => {
    expect(oneLine('a\nb\r\nc\rd\u2028e\u2029f\u0085g')).toBe('a\\nb\\r\\nc\\rd\\ne\\nf\\ng');
    expect(oneLine(`x${ESC}[2Ky\u0000`)).toBe('x\\x1b[2Ky\\x00');
    expect(oneLine('tab\tstays')).toBe('tab\tstays');
  });
});

describe('secrets are hidden before anything is cut', () => {
  const token = 'tok_Abc123Def456Ghi789Jkl012Mno345';

  it('a cut never falls inside a word, so no part of a secret shows', () => {
    for (let at = 1; at < 60; at++) {
      const text = `${'a '.repeat(at)}${token} tail`;
      const cut = cutSafely(text, 40);
      expect(cut.length).toBeLessThanOrEqual(40);
      const shown = cut.trim().split(' ').at(-1) ?? '';
      expect(shown === '' || shown === 'a' || shown === token).toBe(true);
    }
  });

  it('an error body is shown with the token hidden, then cut', () => {
    const body = `${'r'.repeat(280)} token=${token} was refused`;
    const said = summarizeBody(redactor([token])(body));
    expect(said).not.toContain(token.slice(0, 8));
    expect(said.endsWith('…')).toBe(true);
  });

  it('a part of the token that an answer echoes is hidden, from FRAGMENT characters up', () => {
    const redact = redactor([token]);
    expect(redact(`bad token ${token.slice(0, 16)}...`)).toBe('bad token ***...');
    expect(redact(`{"error":"key ${token.slice(9, 9 + FRAGMENT)} revoked"}`)).toBe(
      '{"error":"key *** revoked"}',
    );
    expect(redact(`ends in ${token.slice(-4)}`)).toBe(`ends in ${token.slice(-4)}`);
    expect(redact(`two parts ${token.slice(0, 10)} and ${token.slice(20)}`)).toBe('two parts *** and ***');
    expect(redact(escapeMarkdown(token.slice(0, 12)))).toBe('***');
  });

  it('a word that is part of the token is not a secret: a path that holds it is shown whole', () => {
    const redact = redactor(['tok_security_Wn5hQ8xJ3cF6']);
    const path = join(tmpdir(), 'mqa-security-zZAvZa', 'response.txt');
    expect(redact(path)).toBe(path);
    expect(redact('echoed: tok_security_Wn5')).toBe('echoed: ***');
  });

  it('no run of FRAGMENT characters of the token but a word survives, wherever and however often it is echoed', () => {
    const tokenChars = fc.constantFrom(...'abcdefXYZ0123456789_-.'.split(''));
    fc.assert(
      fc.property(
        fc.string({ unit: tokenChars, minLength: 12, maxLength: 64 }),
        fc.array(fc.tuple(fc.string({ maxLength: 30 }), fc.nat(), fc.nat()), { minLength: 1, maxLength: 5 }),
        (secret, pieces) => {
          const text = pieces
            .map(([prose, from, length]) => {
              const start = from % secret.length;
              return prose + secret.slice(start, start + FRAGMENT + (length % secret.length));
            })
            .join('');
          const shown = redactor([secret])(text);
          for (let at = 0; at + FRAGMENT <= secret.length; at++) {
            const part = secret.slice(at, at + FRAGMENT);
            if (!/^[A-Za-z]+$/.test(part)) expect(shown).not.toContain(part);
          }
        },
      ),
    );
  });

  it('credentials recognisable by their shape are hidden wherever they turn up', () => {
    const pat = `github_pat_11ABCDEFG0${'k'.repeat(30)}`;
    expect(redactCredentials(`https://x/${pat}`)).toBe('https://x/***');
    expect(redactCredentials('ghp_0123456789abcdefABCDEF0123')).toBe('***');
    expect(redactCredentials('Authorization: Bearer abc.def-ghi_123')).toBe('Authorization: Bearer ***');
    expect(redactCredentials('x-api-token: s3cr3tvalue')).toBe('x-api-token: ***');
    expect(redactCredentials('https://user:pass@host/v1')).toBe('https://***@host/v1');
    expect(redactCredentials('https://h/v1?access_token=abcdef&x=1')).toBe(
      'https://h/v1?access_token=***&x=1',
    );
    expect(redactCredentials('a sha 0123456789abcdef0123456789abcdef01234567 stays')).toContain(
      '0123456789abcdef',
    );
  });

  it('quoted() shows no part of an unknown long secret in a long value', () => {
    const secret = 'Zx9'.repeat(12);
    const shown = quoted(`https://api.example.com/v1/some/long/path/segments/${secret}`);
    expect(shown).not.toContain(secret.slice(0, 6));
    expect(shown).toMatch(/\(\d+ characters\)$/);
  });
});

describe('summary text shows what is there', () => {
  it('bidi controls and zero-width characters are shown as code points', () => {
    const out = escapeMarkdown('test_\u202Egnp.exe \u200B\u2066\uFEFF');
    expect(out).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B\uFEFF]/);
    expect(out).toContain('⟨U+202E⟩');
    expect(out).toContain('⟨U+200B⟩');
  });

  it('mentions and issue references do not notify or link', () => {
    const out = escapeMarkdown('cc @octocat @org/team fixes #123 and GH-1');
    expect(out).not.toMatch(/@[a-z]/i);
    expect(out).not.toContain('#123');
    // Nothing invisible is left for a reader to copy: the page shows the text as it was written.
    expect(out).not.toMatch(/[\u200b-\u200d\u2060]/);
    expect(out.replace(/<!-- -->/g, '')).toBe('cc @octocat @org/team fixes #123 and GH-1');
  });

  it('still escapes markup, and entities keep their own #', () => {
    expect(escapeMarkdown('a|b <x>')).toBe('a&#124;b &lt;x&gt;');
  });
});

describe('docs/untrusted-input.md', () => {
  it('documents every kind of answer with the cap the client enforces on it', async () => {
    const { describeBytes } = await import('../../src/core/api/limits.js');
    const { ANSWER_CAPS } = await import('../../src/wire/limits.js');
    const doc = (await import('node:fs')).readFileSync('docs/untrusted-input.md', 'utf8');
    for (const [kind, cap] of Object.entries(ANSWER_CAPS)) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${kind}\` `));
      expect({ kind, cap: row?.split('|')[2]?.trim() }).toEqual({ kind, cap: describeBytes(cap) });
    }
  });
});
