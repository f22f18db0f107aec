// The report file of a flaky-tests listing: every item as the service sent it, for later steps (an
// artifact upload, a script that files tickets) to read. The summary shows only the first rows.
import { writeRedactedStepFile, writeStepFile } from '../step-file.js';
import type { OperationContext } from '../types.js';
import type { FlakyTestsSettings } from './inputs.js';

/** How deep an item of the report's list sits in the file (two spaces per level, as JSON.stringify). */
const ITEM_INDENT = '    ';

/** Writes `{repo, org_url_slug, generated_at, ...content}` as JSON and returns the file's path. */
export function writeReportFile(
  op: OperationContext<FlakyTestsSettings>,
  fileName: string,
  content: Record<string, unknown>,
): Promise<string> {
  return writeStepFile(op, fileName, `${JSON.stringify(reportHead(op, content), null, 2)}\n`);
}

/**
 * One item of a report's list as the file spells it (indented for its place), secrets hidden: made as
 * each page arrives, while the next page is on its way, so that writing a long report is only joining.
 */
export function reportItem(op: Pick<OperationContext<unknown>, 'redact'>, item: unknown): string {
  // JSON text has line breaks only between its tokens, never inside a string.
  return op.redact(JSON.stringify(item, null, 2).replace(/\n/g, `\n${ITEM_INDENT}`));
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
  items: readonly string[],
): Promise<string> {
  // The head without its closing `\n}`, the list after it as its last field.
  const head = op.redact(JSON.stringify(reportHead(op, content), null, 2).slice(0, -2));
  const list = items.length ? [`[\n${ITEM_INDENT}`, items.join(`,\n${ITEM_INDENT}`), '\n  ]'] : ['[]'];
  return writeRedactedStepFile(op, fileName, [head, `,\n  ${JSON.stringify(listField)}: `, ...list, '\n}\n']);
}

function reportHead(op: OperationContext<FlakyTestsSettings>, content: Record<string, unknown>) {
  return {
    repo: op.context.repo,
    org_url_slug: op.settings.orgUrlSlug,
    generated_at: new Date().toISOString(),
    ...content,
  };
}
