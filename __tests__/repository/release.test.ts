// The release notes come from CHANGELOG.md: a tag is released only when it is package.json's version and
// the changelog has a dated section for it; `prepare` turns Unreleased into that section.
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { changelogSections, prepareChangelog, releaseNotes, repinVersion } from '../../scripts/release.js';

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
