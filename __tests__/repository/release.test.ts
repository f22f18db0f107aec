// The release notes come from CHANGELOG.md: a tag is released only when it is package.json's version and
// the changelog has a dated section for it; `prepare` turns Unreleased into that section.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  changelogSections,
  cliArchive,
  pinMainToRelease,
  pinnedRef,
  prepareChangelog,
  releaseNotes,
  repinVersion,
} from '../../scripts/release.js';
import { ORB_VERSION } from '../helpers/pins.js';

const changelog = `# Changelog

Intro text.

## [Unreleased]

### Fixed

- The wait no longer stops at TESTS_PASSED when wait-for is merged.

## [1.1.0] - 2026-10-02

### Added

- \`list-failing-tests\`.

## [1.0.0] - 2026-09-01

### Added

- The first release.
`;

describe('release notes', () => {
  it('are the section of the tagged version, without its heading', () => {
    expect(releaseNotes('v1.1.0', '1.1.0', changelog)).toBe('### Added\n\n- `list-failing-tests`.\n');
    expect(releaseNotes('v1.0.0', '1.0.0', changelog)).toBe('### Added\n\n- The first release.\n');
  });

  it('refuse a tag that is not package.json version, with what to do', () => {
    expect(() => releaseNotes('v1.2.0', '1.1.0', changelog)).toThrow(
      "tag v1.2.0 is not package.json's version (1.1.0): run npm run release -- prepare 1.2.0, commit, and tag that commit.",
    );
  });

  it('refuse a tag that is not a semantic version', () => {
    expect(() => releaseNotes('v1.1', '1.1', changelog)).toThrow('is not a semantic version tag');
    expect(() => releaseNotes('1.1.0', '1.1.0', changelog)).toThrow('is not a semantic version tag');
  });

  it('refuse a version the changelog has no dated section for', () => {
    expect(() => releaseNotes('v1.2.0', '1.2.0', changelog)).toThrow('CHANGELOG.md has no section for 1.2.0');
    const undated = changelog.replace('## [1.1.0] - 2026-10-02', '## [1.1.0]');
    expect(() => releaseNotes('v1.1.0', '1.1.0', undated)).toThrow('has no release date');
  });
});

describe('prepare', () => {
  it('moves the Unreleased entries under the new version and leaves Unreleased empty', () => {
    const prepared = prepareChangelog(changelog, '1.1.1', '2026-11-23');
    expect(changelogSections(prepared).map((s) => [s.name, s.date, s.body.length > 0])).toEqual([
      ['Unreleased', undefined, false],
      ['1.1.1', '2026-11-23', true],
      ['1.1.0', '2026-10-02', true],
      ['1.0.0', '2026-09-01', true],
    ]);
    expect(releaseNotes('v1.1.1', '1.1.1', prepared)).toBe(
      '### Fixed\n\n- The wait no longer stops at TESTS_PASSED when wait-for is merged.\n',
    );
  });

  it('refuses a version already released and an empty Unreleased', () => {
    expect(() => prepareChangelog(changelog, '1.1.0', '2026-11-23')).toThrow(
      'already has a section for 1.1.0',
    );
    const prepared = prepareChangelog(changelog, '1.1.1', '2026-11-23');
    expect(() => prepareChangelog(prepared, '1.1.2', '2026-11-24')).toThrow('nothing under Unreleased');
  });
});

describe("the repository's CHANGELOG.md", () => {
  const sections = changelogSections(readFileSync('CHANGELOG.md', 'utf8'));

  it('starts with Unreleased, and dates every released version', () => {
    expect(sections[0]?.name).toBe('Unreleased');
    for (const section of sections.slice(1)) {
      expect([section.name, section.date]).toEqual([
        section.name,
        expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      ]);
    }
  });
});

describe('repinVersion', () => {
  it('moves every pin of the released version a user copies, and nothing else', () => {
    const text = [
      'npx --yes merge-queue-action@1.1.0 get-queue',
      "@Library('merge-queue@v1.1.0') _",
      '- your-org/merge-queue-action#v1.1.0:',
      'https://example.com/your-org/merge-queue-action/v1.1.0/templates/x.yml',
      'npx --yes ./merge-queue-action-1.1.0.tgz',
      'the tag v1.1.0',
      'gitlab-ci-local@4.75.1, node@1.1.01, other@11.1.0, v1.1.0.1',
    ].join('\n');
    expect(repinVersion(text, '1.1.0', '1.2.0').split('\n')).toEqual([
      'npx --yes merge-queue-action@1.2.0 get-queue',
      "@Library('merge-queue@v1.2.0') _",
      '- your-org/merge-queue-action#v1.2.0:',
      'https://example.com/your-org/merge-queue-action/v1.2.0/templates/x.yml',
      'npx --yes ./merge-queue-action-1.2.0.tgz',
      'the tag v1.2.0',
      'gitlab-ci-local@4.75.1, node@1.1.01, other@11.1.0, v1.1.0.1',
    ]);
  });
});

describe('pinMainToRelease', () => {
  it("moves each CI's pin of our main branch to the release tag, and nothing else named main", () => {
    const text = [
      '- uses: your-org/merge-queue-action@main',
      '- component: $CI_SERVER_FQDN/your-org/merge-queue-action/submit-pull-request@main',
      '- github.com/your-org/merge-queue-action#main:',
      '`https://git.example.com/your-org/merge-queue-action.git#main`',
      "@Library('merge-queue@main') _",
      "library identifier: 'merge-queue@main', retriever: modernSCM(...)",
      'npx --yes https://github.com/your-org/merge-queue-action/archive/refs/heads/main.tar.gz get-queue',
      'target-branch: main',
      'filters: { branches: { ignore: main } }',
      'git push origin HEAD:refs/heads/main',
      'actions/checkout@main, your-org/merge-queue-action@mainline',
    ].join('\n');
    expect(pinMainToRelease(text, '1.2.0').split('\n')).toEqual([
      '- uses: your-org/merge-queue-action@v1.2.0',
      '- component: $CI_SERVER_FQDN/your-org/merge-queue-action/submit-pull-request@v1.2.0',
      '- github.com/your-org/merge-queue-action#v1.2.0:',
      '`https://git.example.com/your-org/merge-queue-action.git#v1.2.0`',
      "@Library('merge-queue@v1.2.0') _",
      "library identifier: 'merge-queue@v1.2.0', retriever: modernSCM(...)",
      'npx --yes https://github.com/your-org/merge-queue-action/archive/refs/tags/v1.2.0.tar.gz get-queue',
      'target-branch: main',
      'filters: { branches: { ignore: main } }',
      'git push origin HEAD:refs/heads/main',
      'actions/checkout@main, your-org/merge-queue-action@mainline',
    ]);
  });

  it('names main until package.json has a dated release, then its tag, and the archive at that ref', () => {
    expect(pinnedRef(changelog, '1.1.1')).toBe('main');
    expect(pinnedRef(prepareChangelog(changelog, '1.1.1', '2026-11-23'), '1.1.1')).toBe('v1.1.1');
    expect(cliArchive('main')).toBe(
      'https://github.com/your-org/merge-queue-action/archive/refs/heads/main.tar.gz',
    );
    expect(cliArchive('v1.1.1')).toBe(
      'https://github.com/your-org/merge-queue-action/archive/refs/tags/v1.1.1.tar.gz',
    );
  });
});

describe("prepare's pins over this repository's snippets, examples and plugins", () => {
  const PLACES = ['README.md', 'docs', 'examples', 'templates', 'orb', 'vars', 'plugin.yml', 'hooks'];
  const files = execFileSync('git', ['ls-files', '-z', '--', ...PLACES], { encoding: 'utf8' })
    .split('\0')
    .filter(Boolean)
    .map((file) => [file, readFileSync(file, 'utf8')] as const);
  const OUR_MAIN =
    /merge-queue-action(?:\/[\w-]+|\.git)?[@#]main\b|merge-queue@main\b|merge-queue-action\/archive\/refs\/heads\//;
  // A config's orbs: entry and the publish command (the Pin a release table shows an example version).
  const ORB_PIN = /(?:merge-queue: |orb publish \S+ )your-org\/merge-queue@(\S+)/g;

  it('every CircleCI snippet names the orb version the README publishes: package.json version', () => {
    const pins = files.flatMap(([file, text]) => [...text.matchAll(ORB_PIN)].map((m) => `${file}: ${m[1]}`));
    expect(pins.length).toBeGreaterThanOrEqual(6);
    expect(pins.filter((pin) => !pin.endsWith(`: ${ORB_VERSION}`))).toEqual([]);
  });

  it('after prepare 9.8.7, nothing names our main branch, the archives are the tag, the orb is 9.8.7', () => {
    const prepared = files.map(
      ([file, text]) => [file, pinMainToRelease(repinVersion(text, ORB_VERSION, '9.8.7'), '9.8.7')] as const,
    );
    const left = prepared.flatMap(([file, text]) =>
      text
        .split('\n')
        .filter((line) => OUR_MAIN.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(left).toEqual([]);
    const everything = prepared.map(([, text]) => text).join('\n');
    expect(everything).toContain(cliArchive('v9.8.7'));
    expect([...new Set([...everything.matchAll(ORB_PIN)].map((m) => m[1]))]).toEqual(['9.8.7']);
    // Before: the snippets name main, so the test can fail.
    expect(files.some(([, text]) => OUR_MAIN.test(text))).toBe(true);
  });
});
