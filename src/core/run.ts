// run(): settings -> context -> operation -> outputs + summary. The one error boundary of the action:
// whatever fails ends as one line through core.setFailed, never a stack trace, never the token.
import * as core from '@actions/core';
import { ApiClient, type ClientOptions } from './api/client.js';
import { ApiError } from './api/errors.js';
import { resolveContext } from '../hosts/github-actions/context.js';
import { OPERATIONS } from './operations/catalog.js';
import { OPERATION_HANDLERS } from './operations/handlers.js';
import { publishOutputs, publishSummary, redactor, type Redact } from '../github-action/publish.js';
import { readSettings } from './inputs.js';

export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let redact: Redact = redactor([]);
  try {
    const settings = readSettings();
    redact = redactor([settings.apiToken, settings.githubToken]);
    const { needs } = OPERATIONS[settings.operation];
    const context = await resolveContext(settings.context, needs, { githubToken: settings.githubToken, env });
    for (const note of context.notes) core.info(note);
    for (const warning of context.warnings) core.warning(warning);
    publishOutputs(
      {
        repo: `${context.repo.owner}/${context.repo.name}`,
        'pr-number': context.prNumber ?? '',
        'target-branch': context.targetBranch ?? '',
        'is-merge-queue-test-run': context.isMergeQueueTestRun,
      },
      redact,
    );

    const clientOptions: ClientOptions = {
      baseUrl: settings.apiUrl,
      token: settings.apiToken,
      deadlineMs: settings.timeoutMs,
      // A retry's message quotes what the service said, which may echo a secret back.
      onRetry: (message) => core.info(redact(message)),
    };
    const result = await OPERATION_HANDLERS[settings.operation]({
      settings,
      context,
      client: new ApiClient(clientOptions),
      clientOptions,
      env,
      log: {
        info: (message) => core.info(redact(message)),
        warning: (message) => core.warning(redact(message)),
      },
    });
    publishOutputs(result.outputs, redact);
    if (settings.summary && result.summary) await publishSummary(result.summary, redact);
    if (result.failure) core.setFailed(redact(result.failure));
  } catch (error) {
    core.setFailed(redact(oneLine(error)));
  }
}

/** The message of any thrown value as a single line. */
function oneLine(error: unknown): string {
  const message =
    error instanceof ApiError ? error.toString() : error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim() || 'The action failed for an unknown reason.';
}
