// list-quarantined-tests: every test whose failures are currently kept from failing CI, with how it came
// to be quarantined. All pages are followed, as for the unhealthy tests.
import type { ApiResponse } from '../../api/client.js';
import { enumValue } from '../../../wire/index.js';
import { Markdown } from '../../report/markdown.js';
import { plural } from '../../report/words.js';
import { LISTED_IN_DETAILS, rawResponse, repoLink, repoSlug } from '../common.js';
import type { Operation } from '../types.js';
import { followPages } from './pages.js';
import { writeReportFile } from './report-file.js';
import { REPOSITORY_NOT_FOUND, adviseOnNotFound, flakyRequestBase } from './requests.js';
import { cell, firstRows, owners, text } from './tests.js';
import type { FlakyTestsSettings } from './inputs.js';

export const listQuarantinedTests: Operation<FlakyTestsSettings> = async (op) => {
  const { pageSize, maxPages } = op.settings;
  const base = flakyRequestBase(op);
  let last: ApiResponse | undefined;
  const { items } = await followPages({
    label: 'list-quarantined-tests',
    pageSize,
    maxPages,
    fetchPage: (page_query, onAnswer) =>
      op.client
        .call('listQuarantinedTests', { ...base, page_query }, { onAnswer })
        .catch(adviseOnNotFound(REPOSITORY_NOT_FOUND)),
    onPage: (response) => (last = response),
  });
  // Most recently quarantined first.
  const tests = [...items].sort((a, b) => text(b.quarantined_at).localeCompare(text(a.quarantined_at)));
  const reportFile = await writeReportFile(op, 'quarantined-tests.json', {
    count: tests.length,
    quarantined_tests: tests,
  });
  const { repo } = op.context;
  const summary = new Markdown()
    .heading(
      tests.length
        ? `🧊 ${plural(tests.length, 'test')} quarantined in ${repoSlug(repo)}: their failures do not fail CI`
        : `✅ No test quarantined in ${repoSlug(repo)}`,
    )
    .paragraph(`Repository ${repoLink(repo)}.`);
  if (tests.length) {
    summary.table(
      ['Test', 'Variant', 'Status', 'Setting', 'Quarantined at', 'Codeowners', 'File'],
      firstRows(tests, (test) => [
        cell(test.name),
        cell(test.variant),
        cell(enumValue(test.status)),
        cell(quarantineSetting(test.quarantine_setting)),
        cell(test.quarantined_at),
        owners(Array.isArray(test.codeowners) ? test.codeowners.map(text) : []),
        cell(test.file),
      ]),
      'in report-file',
      tests.length,
    );
  } else {
    summary.paragraph('No tests are quarantined.');
  }
  return {
    outputs: { response: rawResponse(last), 'quarantined-count': tests.length, 'report-file': reportFile },
    summary,
    details: {
      kind: 'test-list',
      listing: 'quarantined',
      repo: repoSlug(repo),
      tests: tests.slice(0, LISTED_IN_DETAILS).map((test) => ({
        name: text(test.name),
        variant: text(test.variant),
        status: enumValue(test.status),
        since: text(test.quarantined_at) || undefined,
        owners: Array.isArray(test.codeowners) ? test.codeowners.map(text) : [],
        file: text(test.file) || undefined,
      })),
      total: tests.length,
      nowMs: last?.serverTimeMs ?? Date.now(),
    },
  };
};

function quarantineSetting(value: unknown): string {
  const setting = enumValue(value);
  if (setting === 'always_quarantine') return 'always (set by a person)';
  if (setting === 'auto_quarantine') return 'automatic';
  return setting;
}
