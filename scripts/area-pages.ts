// The table of operations on each area's page in docs/, rendered from the operation registry: one row per
// operation of the area, in the registry's order. A row keeps the description written on the page; an
// operation the page does not describe yet gets its --help line, so a new operation is on its page once
// `npm run metadata` ran (and CI's `--check` fails until it did).
import type { Area } from '../src/core/operations/registry.js';
import { OPERATIONS, OPERATION_NAMES } from '../src/core/operations/registry.js';

/** The page that lists each area's operations; the pull requests' are the README's and reference.md's. */
export const AREA_PAGES: Record<Area, string | undefined> = {
  'pull-request': undefined,
  'impacted-targets': 'docs/impacted-targets.md',
  queue: 'docs/queues.md',
  metrics: 'docs/queues.md',
  'flaky-tests': 'docs/flaky-tests.md',
};

const BEGIN = '<!-- operations:begin (rows follow the registry: `npm run metadata`) -->';
const END = '<!-- operations:end -->';
const ROW = /^\|\s*`([a-z0-9-]+)`\s*\|\s*(.*?)\s*\|\s*$/;

/** The page with its operations table made anew, or the page as it is when it has no markers. */
export function renderAreaPage(path: string, page: string): string {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${path} has no ${BEGIN} ... ${END} markers`);
  const written = new Map<string, string>();
  for (const line of page.slice(start + BEGIN.length, end).split('\n')) {
    const match = ROW.exec(line);
    if (match) written.set(match[1]!, match[2]!);
  }
  const rows = OPERATION_NAMES.filter((name) => AREA_PAGES[OPERATIONS[name].area] === path).map(
    (name) => `| \`${name}\` | ${written.get(name) ?? OPERATIONS[name].summary.replace(/\|/g, '\\|')} |`,
  );
  const table = ['| operation | what it does |', '| --- | --- |', ...rows].join('\n');
  return `${page.slice(0, start + BEGIN.length)}\n\n${table}\n\n${page.slice(end)}`;
}

/** Every page that lists operations. */
export const AREA_PAGE_PATHS = [...new Set(Object.values(AREA_PAGES).filter((path) => path !== undefined))];
