// The pictures' glyph check (helpers/glyphs.ts) finds what would be drawn as a box: the README's ✅ ❌ ⏸️
// on a machine without an emoji font (a fontconfig setup with DejaVu alone), nothing of ours on this one.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingGlyphs } from '../helpers/glyphs.js';
import { describeWithTools } from '../helpers/tool-gate.js';
import { TOOLS } from '../helpers/tools.js';

const DEJAVU = '/usr/share/fonts/truetype/dejavu';
const HEADLINES = '✅ Merged · ❌ Failed in the merge queue · ⏸️ Merge queue paused → main …';

describeWithTools([TOOLS.chromium()], 'glyphs no font draws', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'glyphs-'));
    writeFileSync(
      join(dir, 'fonts.conf'),
      `<?xml version="1.0"?><fontconfig><dir>${DEJAVU}</dir><cachedir>${dir}/cache</cachedir></fontconfig>`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('without an emoji font, the emoji of our headlines are found, the rest is drawn', () => {
    expect(existsSync(DEJAVU)).toBe(true);
    const missing = missingGlyphs(HEADLINES, { ...process.env, FONTCONFIG_FILE: join(dir, 'fonts.conf') });
    expect(missing).toEqual([
      'no font draws "✅" (U+2705)',
      'no font draws "❌" (U+274C)',
      'no font draws "⏸" (U+23F8)',
    ]);
  });

  it("with this machine's fonts (fonts-noto-color-emoji), only a character no font has", () => {
    expect(missingGlyphs(`${HEADLINES} \uE000`)).toEqual(['no font draws "\uE000" (U+E000)']);
  });
});
