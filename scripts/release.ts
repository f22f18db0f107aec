// `npm run release -- <command>`: the parts of a release that read or write CHANGELOG.md.
//   notes <tag>                  checks that the tag (v1.2.3) is package.json's version and that
//                                CHANGELOG.md has a dated section for it; prints that section (the
//                                release notes). The release workflow runs it on the pushed tag.
//   prepare <version> [--date YYYY-MM-DD]
//                                turns CHANGELOG.md's Unreleased section into the version's section and
//                                sets the version in package.json, the lock file and src/core/version.ts,
//                                and moves what the plugins, examples and docs pin to the release: the
//                                previous version's pins to it, and before the first release the main
//                                branch's (@main, #main, the main archive) to its tag v<version>; then
//                                rebuild dist/ and commit: that is the commit to tag.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?$/;
const HEADING = /^## \[([^\]]+)\](?: - (.+))?$/;

interface Section {
  name: string;
  date?: string;
  /** The lines between this heading and the next level-2 heading. */
  body: string;
}

/** The level-2 sections of a Keep a Changelog file, in order. */
export function changelogSections(changelog: string): Section[] {
  const sections: Section[] = [];
  for (const line of changelog.split('\n')) {
    const heading = HEADING.exec(line);
    if (heading) {
      sections.push({ name: heading[1]!, date: heading[2], body: '' });
    } else if (line.startsWith('## ')) {
      sections.push({ name: '', body: '' });
    } else if (sections.length > 0) {
      sections[sections.length - 1]!.body += `${line}\n`;
    }
  }
  return sections
    .filter((section) => section.name !== '')
    .map((section) => ({ ...section, body: section.body.trim() }));
}

/** The release notes for a tag, or an error naming what to fix. */
export function releaseNotes(tag: string, packageVersion: string, changelog: string): string {
  const version = /^v(.+)$/.exec(tag)?.[1];
  if (!version || !SEMVER.test(version)) {
    throw new Error(`tag ${tag} is not a semantic version tag (v1.2.3): tag the release vMAJOR.MINOR.PATCH.`);
  }
  if (version !== packageVersion) {
    throw new Error(
      `tag ${tag} is not package.json's version (${packageVersion}): run npm run release -- prepare ${version}, commit, and tag that commit.`,
    );
  }
  const section = changelogSections(changelog).find((candidate) => candidate.name === version);
  if (!section) {
    throw new Error(
      `CHANGELOG.md has no section for ${version}: run npm run release -- prepare ${version} to turn Unreleased into it.`,
    );
  }
  if (!section.date || !/^\d{4}-\d{2}-\d{2}$/.test(section.date)) {
    throw new Error(
      `CHANGELOG.md's section for ${version} has no release date (## [${version}] - YYYY-MM-DD).`,
    );
  }
  if (!section.body) throw new Error(`CHANGELOG.md's section for ${version} is empty: say what changed.`);
  return `${section.body}\n`;
}

/** CHANGELOG.md with its Unreleased entries moved under `version`, and a fresh empty Unreleased. */
export function prepareChangelog(changelog: string, version: string, date: string): string {
  if (!SEMVER.test(version)) throw new Error(`${version} is not a semantic version (1.2.3).`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`--date ${date} is not YYYY-MM-DD.`);
  const sections = changelogSections(changelog);
  if (sections.some((section) => section.name === version)) {
    throw new Error(`CHANGELOG.md already has a section for ${version}.`);
  }
  if (!sections.find((section) => section.name === 'Unreleased')?.body) {
    throw new Error('CHANGELOG.md has nothing under Unreleased to release.');
  }
  return changelog.replace(/^## \[Unreleased\]$/m, `## [Unreleased]\n\n## [${version}] - ${date}`);
}

/** Where users copy a pinned version from: the plugins, the examples and the docs. */
const PINNED_PLACES = ['README.md', 'docs', 'examples', 'templates', 'orb', 'vars', 'plugin.yml', 'hooks'];

/**
 * `text` with every pin of version `from` moved to `to`: `name@1.2.3`, `#v1.2.3`, `@v1.2.3`, `/v1.2.3/`,
 * `name-1.2.3.tgz`, a lone `v1.2.3`. Another version, or `from` inside a longer one, is left alone.
 */
export function repinVersion(text: string, from: string, to: string): string {
  const escaped = from.replace(/\./g, '\\.');
  return text.replace(new RegExp(`(?<=(?:[@#/-]v?|\\bv))${escaped}(?![.]?\\d)`, 'g'), to);
}

/** Our repository's refs to its main branch as each CI names them, and how each names a tag instead. */
const MAIN_PINS: [RegExp, (tag: string) => string][] = [
  // GitHub Actions (your-org/merge-queue-action@main) and GitLab components (.../submit-pull-request@main).
  [/(\bmerge-queue-action(?:\/[\w-]+)?)@main\b/g, (tag) => `$1@${tag}`],
  // Buildkite plugins by git address (github.com/your-org/merge-queue-action#main, a .git URL).
  [/(\bmerge-queue-action(?:\.git)?)#main\b/g, (tag) => `$1#${tag}`],
  // The Jenkins library (@Library('merge-queue@main'), library identifier: 'merge-queue@main').
  [/(\bmerge-queue)@main\b/g, (tag) => `$1@${tag}`],
  // The CLI's archive, the plugins' default command.
  [/(\/merge-queue-action\/archive\/refs\/)heads\/main\.tar\.gz\b/g, (tag) => `$1tags/${tag}.tar.gz`],
];

/** `text` with every pin of our main branch moved to the release tag `v<version>`. */
export function pinMainToRelease(text: string, version: string): string {
  if (!SEMVER.test(version)) throw new Error(`${version} is not a semantic version (1.2.3).`);
  return MAIN_PINS.reduce(
    (moved, [pattern, replacement]) => moved.replace(pattern, replacement(`v${version}`)),
    text,
  );
}

/**
 * The ref the snippets and the plugins' defaults name: the tag of package.json's version once CHANGELOG.md
 * has its dated section (prepare ran), else main.
 */
export function pinnedRef(changelog: string, packageVersion: string): string {
  const released = changelogSections(changelog).some(
    (section) => section.name === packageVersion && section.date !== undefined,
  );
  return released ? `v${packageVersion}` : 'main';
}

/** The CLI's archive at `ref` (a branch, or a v-tag), as the plugins' default command fetches it. */
export function cliArchive(ref: string): string {
  const kind = /^v\d/.test(ref) ? 'tags' : 'heads';
  return `https://github.com/your-org/merge-queue-action/archive/refs/${kind}/${ref}.tar.gz`;
}

function repinFiles(from: string, to: string): string[] {
  const files = execFileSync('git', ['ls-files', '-z', '--', ...PINNED_PLACES], { encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  return files.filter((file) => {
    const text = readFileSync(file, 'utf8');
    const moved = pinMainToRelease(repinVersion(text, from, to), to);
    if (moved !== text) writeFileSync(file, moved);
    return moved !== text;
  });
}

function main(args: string[]): void {
  const [command, argument] = args;
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  const changelog = readFileSync('CHANGELOG.md', 'utf8');
  if (command === 'notes' && argument) {
    process.stdout.write(releaseNotes(argument, pkg.version, changelog));
    return;
  }
  if (command === 'prepare' && argument) {
    const dateFlag = args.indexOf('--date');
    const date = dateFlag > 0 ? (args[dateFlag + 1] ?? '') : new Date().toISOString().slice(0, 10);
    writeFileSync('CHANGELOG.md', prepareChangelog(changelog, argument, date));
    const repinned = repinFiles(pkg.version, argument);
    for (const file of ['package.json', 'package-lock.json']) {
      const json = JSON.parse(readFileSync(file, 'utf8')) as {
        version: string;
        packages?: Record<string, { version?: string }>;
      };
      json.version = argument;
      if (json.packages?.['']) json.packages[''].version = argument;
      writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
    }
    const versionFile = 'src/core/version.ts';
    writeFileSync(
      versionFile,
      readFileSync(versionFile, 'utf8').replace(/VERSION = '[^']*'/, `VERSION = '${argument}'`),
    );
    console.error(
      `CHANGELOG.md, package.json, package-lock.json and ${versionFile} now say ${argument} (${date}); ` +
        `the pins of ${pkg.version} and of main moved to ${argument} in ${repinned.length} file(s): ${repinned.join(', ')}.`,
    );
    return;
  }
  throw new Error('usage: npm run release -- notes <tag> | prepare <version> [--date YYYY-MM-DD]');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`release: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
