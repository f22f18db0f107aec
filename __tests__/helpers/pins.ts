// What the snippets, examples and plugin defaults pin, derived as `npm run release -- prepare` sets it:
// this repository's main branch until package.json's version has a dated section in CHANGELOG.md, then
// that release's tag; the CLI archive at that ref; and the orb's version, package.json's.
import { readFileSync } from 'node:fs';
import { cliArchive, pinnedRef } from '../../scripts/release.js';

const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

/** `main`, or `v<version>` once released. */
export const PINNED_REF = pinnedRef(readFileSync('CHANGELOG.md', 'utf8'), VERSION);

/** The archive the plugins' default command fetches the CLI from. */
export const PINNED_ARCHIVE = cliArchive(PINNED_REF);

/** The orb version the CircleCI snippets name, and the README's publish command publishes. */
export const ORB_VERSION = VERSION;
