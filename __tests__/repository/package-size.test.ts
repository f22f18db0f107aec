// What the README says of the npm package (Pin a release: "about N kB (M MB unpacked") holds for what
// `npm pack` would pack from this checkout's dist/, and the package carries each file once (the MCP
// server's code is chunks of the CLI's bundle, not a second bundle with copies of the shared code); and
// GitHub's archive of a commit, which the plugins' default CLI fetches, carries no picture.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

interface Packed {
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

const packed = (
  JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as Packed[]
)[0]!;

describe("the README's words on the package", () => {
  const claim = /about (\d+) kB \((\d+(?:\.\d+)?) MB unpacked/.exec(readFileSync('README.md', 'utf8'));

  it('give its size and unpacked size within 10% of what npm packs', () => {
    expect(claim).not.toBeNull();
    const [kB, mB] = [Number(claim![1]), Number(claim![2])];
    expect({ kB: Math.abs(packed.size / 1000 / kB - 1) < 0.1, kB_packed: packed.size }).toMatchObject({
      kB: true,
    });
    expect({
      MB: Math.abs(packed.unpackedSize / 1e6 / mB - 1) < 0.1,
      MB_packed: packed.unpackedSize,
    }).toMatchObject({ MB: true });
  });

  it('the package carries every file once: no chunk of the same content twice', () => {
    const byContent = new Map<string, string[]>();
    for (const { path } of packed.files) {
      const hash = createHash('sha256').update(readFileSync(path)).digest('hex');
      byContent.set(hash, [...(byContent.get(hash) ?? []), path]);
    }
    expect([...byContent.values()].filter((paths) => paths.length > 1)).toEqual([]);
    expect(packed.files.some((file) => file.path === 'dist/cli/index.js')).toBe(true);
  });
});

describe("GitHub's archive of this commit (what the plugins' default CLI downloads on every job)", () => {
  it('leaves out the pictures of the README and docs (.gitattributes export-ignore)', () => {
    const archive = execFileSync('git', ['archive', '--format=tar', 'HEAD'], { maxBuffer: 64 * 1024 * 1024 });
    const names = execFileSync('tar', ['-t'], {
      input: archive,
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    })
      .split('\n')
      .filter(Boolean);
    expect(names).toContain('dist/cli/index.js');
    expect(names).toContain('action.yml');
    expect(names.filter((name) => /\.(png|jpe?g|gif|webp)$/i.test(name))).toEqual([]);
  });
});
