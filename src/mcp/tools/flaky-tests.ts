// flaky_tests: the flaky, broken and quarantined tests of the repository, filtered by file path, name or
// status, so that an agent can tell a known flake from a failure of its own before it acts.
import { z } from 'zod';
import { knownTests, knownTestSchema, orgSlugOf } from '../known-tests.js';
import type { ToolContext } from '../tool.js';

export const FLAKY_TESTS_DESCRIPTION =
  'The repository’s flaky, broken and quarantined tests as the flaky-tests service knows them, filtered by file path, name or status: use it to tell a known flake from a real failure. Read-only.';

export const STATUS_FILTERS = ['flaky', 'broken', 'quarantined'] as const;

export const flakyTestsArguments = {
  file: z.string().max(500).optional().describe('Only tests whose file path contains this text.'),
  name: z.string().max(500).optional().describe('Only tests whose name contains this text (any case).'),
  status: z.enum(STATUS_FILTERS).optional().describe('Only flaky, broken or quarantined tests.'),
  limit: z.number().int().min(1).max(200).optional().describe('At most this many tests (default 50).'),
  orgUrlSlug: z
    .string()
    .max(100)
    .optional()
    .describe('The organization’s slug; default the server’s --org-url-slug.'),
};

export const flakyTestsShape = {
  repo: z.string(),
  total: z.number().int().describe('Tests known unhealthy or quarantined, before filtering.'),
  matched: z.number().int(),
  tests: z.array(knownTestSchema),
};
type FlakyTestsResult = z.infer<z.ZodObject<typeof flakyTestsShape>>;

export interface FlakyTestsArguments {
  file?: string;
  name?: string;
  status?: (typeof STATUS_FILTERS)[number];
  limit?: number;
  orgUrlSlug?: string;
}

export async function flakyTests(tools: ToolContext, args: FlakyTestsArguments): Promise<FlakyTestsResult> {
  const { repo, tests } = await knownTests(tools, orgSlugOf(tools, args.orgUrlSlug));
  const name = args.name?.toLowerCase();
  const matching = tests.filter(
    (test) =>
      (!args.file || (test.file ?? '').includes(args.file)) &&
      (!name || test.name.toLowerCase().includes(name)) &&
      (!args.status ||
        (args.status === 'quarantined' ? test.quarantined : test.status === args.status.toUpperCase())),
  );
  return {
    repo,
    total: tests.length,
    matched: matching.length,
    tests: matching.slice(0, args.limit ?? 50),
  };
}
