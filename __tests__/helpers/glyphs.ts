// Which characters of a drawn page no installed font has a glyph for: Chromium on Linux picks its fonts
// through fontconfig, so a character no font fontconfig knows covers is drawn as a box (tofu), as ✅ was
// in the README's pictures before the emoji font was installed. Asked of fontconfig (fc-list) once per
// character; joiners, variation selectors and marks are part of the character before them.
import { spawnSync } from 'node:child_process';

const covered = new Map<string, boolean>();

/** `env` names another fontconfig setup (FONTCONFIG_FILE), for a test; answers are kept per setup. */
function someFontDraws(char: string, env: NodeJS.ProcessEnv): boolean {
  const key = `${env.FONTCONFIG_FILE ?? ''}\0${char}`;
  const known = covered.get(key);
  if (known !== undefined) return known;
  const hex = char.codePointAt(0)!.toString(16);
  const found = spawnSync('fc-list', [`:charset=${hex}`, 'family'], { encoding: 'utf8', env });
  if (found.error)
    throw new Error(`fc-list (fontconfig) is needed to check the glyphs: ${found.error.message}`);
  const answer = found.stdout.trim() !== '';
  covered.set(key, answer);
  return answer;
}

/** One line per character of `text` that no font draws: `no font draws "✅" (U+2705)`. */
export function missingGlyphs(text: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const candidates = new Set([...text].filter((char) => /[^\p{ASCII}\s\p{M}\p{Cf}]/u.test(char)));
  return [...candidates]
    .filter((char) => !someFontDraws(char, env))
    .map(
      (char) =>
        `no font draws "${char}" (U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`,
    );
}
