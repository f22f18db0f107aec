// The report file of a flaky-tests listing: every item as the service sent it, for later steps (an
// artifact upload, a script that files tickets) to read. The summary shows only the first rows.
import { writeRedactedStepFile, writeStepFile } from '../step-file.js';
import type { OperationContext } from '../types.js';
import type { FlakyTestsSettings } from './inputs.js';

/** How deep an item of the report's list sits in the file (two spaces per level, as JSON.stringify). */
const ITEM_INDENT = '    ';
const ITEM_SEPARATOR = Buffer.from(`,\n${ITEM_INDENT}`);
/** What JSON.stringify puts around an item two lists deep, where its lines get the item's indent. */
const NESTED_OPENING = `[\n  [\n${ITEM_INDENT}`;
const NESTED_CLOSING = '\n  ]\n]';

/** Writes `{repo, org_url_slug, generated_at, ...content}` as JSON and returns the file's path. */
export function writeReportFile(
  op: OperationContext<FlakyTestsSettings>,
  fileName: string,
  content: Record<string, unknown>,
): Promise<string> {
  return writeStepFile(op, fileName, `${JSON.stringify(reportHead(op, content), null, 2)}\n`);
}

/**
 * One item of a report's list as the file spells it (indented for its place, in UTF-8), secrets hidden:
 * made as each page arrives, while the next page is on its way, so that writing a long report is one
 * write of the pieces, with nothing left to join or encode.
 */
export function reportItem(op: Pick<OperationContext<unknown>, 'redact'>, item: unknown): Buffer {
  const nested = JSON.stringify([[item]], null, 2);
  return Buffer.from(op.redact(nested.slice(NESTED_OPENING.length, -NESTED_CLOSING.length)));
}

/**
 * The same file as writeReportFile with `{...content, [listField]: items}`, its list made of `items` from
 * reportItem, in their order. Returns the file's path.
 */
export function writeListReportFile(
  op: OperationContext<FlakyTestsSettings>,
  fileName: string,
  content: Record<string, unknown>,
  listField: string,
  items: readonly Buffer[],
): Promise<string> {
  // The head without its closing `\n}`, the list after it as its last field.
  const head = op.redact(JSON.stringify(reportHead(op, content), null, 2).slice(0, -2));
  const field = `,\n  ${JSON.stringify(listField)}: `;
  if (!items.length) return writeRedactedStepFile(op, fileName, [Buffer.from(`${head}${field}[]\n}\n`)]);
  const pieces: Buffer[] = [Buffer.from(`${head}${field}[\n${ITEM_INDENT}`)];
  for (const item of items) pieces.push(item, ITEM_SEPARATOR);
  pieces[pieces.length - 1] = Buffer.from('\n  ]\n}\n');
  return writeRedactedStepFile(op, fileName, pieces);
}

function reportHead(op: OperationContext<FlakyTestsSettings>, content: Record<string, unknown>) {
  return {
    repo: op.context.repo,
    org_url_slug: op.settings.orgUrlSlug,
    generated_at: new Date().toISOString(),
    ...content,
  };
}
