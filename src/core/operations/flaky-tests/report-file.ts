// The report file of a flaky-tests listing: every item as the service sent it, for later steps (an
// artifact upload, a script that files tickets) to read. The summary shows only the first rows.
import { writeStepFile } from '../step-file.js';
import type { OperationContext } from '../types.js';
import type { FlakyTestsSettings } from './inputs.js';

/** Writes `{repo, org_url_slug, generated_at, ...content}` as JSON and returns the file's path. */
export function writeReportFile(
  op: OperationContext<FlakyTestsSettings>,
  fileName: string,
  content: Record<string, unknown>,
): Promise<string> {
  const report = {
    repo: op.context.repo,
    org_url_slug: op.settings.orgUrlSlug,
    generated_at: new Date().toISOString(),
    ...content,
  };
  return writeStepFile(op, fileName, `${JSON.stringify(report, null, 2)}\n`);
}
