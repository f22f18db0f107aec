// set-impacted-targets: uploads what a PR's head sha impacts, so that a parallel queue can test it. A PR
// must never miss the queue in silence: a list too big for the service is replaced by ALL with a
// warning, a fork PR authenticates with its workflow run id, and a missing token is named with its causes.
import { Readable } from 'node:stream';
import { ApiClient, type ServiceClient, type StreamedBody } from '../../api/client.js';
import { MAX_BODY_BYTES, type RequestOf } from '../../../wire/index.js';
import type { ResolvedContext } from '../../context.js';
import { plural } from '../../report/words.js';
import { Markdown, codeSpan, escapeMarkdown, link } from '../../report/markdown.js';
import { ContextError, InputError } from '../../errors.js';
import { detailsKind, pullRequestUrl, queueRef, rawResponse, repoSlug, requirePrNumber } from '../common.js';
import {
  parseTargetsFile,
  parseTargetsFileInTurns,
  readImpactedTargets,
  readTargetsFile,
  targetsFromList,
  type ImpactedTargets,
} from './source.js';
import { startEarlyUpload, type EarlyUpload } from './early-upload.js';
import { listBodyEnds, type Envelope } from './request-body.js';
import type { ComputeSettings } from './compute/inputs.js';
import type { UploadedTargetsDetails } from './details.js';
import type { Operation, OperationContext, OperationResult, OutputValue } from '../types.js';
import type { ImpactedTargetsSettings } from './inputs.js';
import { give, nameOf, say, subjectOf, words } from '../../words.js';

type SetImpactedTargetsRequest = RequestOf<'setImpactedTargets'>;

/** How many targets the summary shows. */
const SHOWN_TARGETS = 50;
const SHOWN_TARGET_CHARS = 200;

export const setImpactedTargets: Operation<ImpactedTargetsSettings> = async (op) => {
  // Bad input fails the step whatever happens next, so a broken file is never hidden by a skip.
  const computed = op.settings.compute ? await computeTargets(op, op.settings.compute) : undefined;
  const quiet = quietAuth(op);
  const { targets, early } = computed ? { targets: computed.targets } : await readTargets(op, quiet);
  try {
    const result = await uploadTargets(op, targets, quiet, early);
    return computed ? computed.addTo(result) : result;
  } finally {
    await early?.withdraw();
  }
};

/**
 * The targets the inputs name. A large file's upload is started while the file is checked, when the
 * upload goes ahead without a word first (the PR is known, and so is how to authenticate).
 */
async function readTargets(
  op: OperationContext<ImpactedTargetsSettings>,
  quiet: QuietAuth | undefined,
): Promise<{ targets: ImpactedTargets; early?: EarlyUpload }> {
  const deadline = Date.now() + op.common.timeoutMs;
  const envelope = knownEnvelope(op.context);
  const path = op.settings.impactsAll ? undefined : op.settings.file;
  if (path === undefined || !quiet || !envelope) {
    return { targets: await readImpactedTargets(op.settings, op, deadline) };
  }
  const file = await readTargetsFile(path, op, deadline);
  const early = startEarlyUpload(quiet.client, envelope, file.content);
  if (!early) return { targets: parseTargetsFile(file) };
  try {
    return { targets: await parseTargetsFileInTurns(file), early };
  } catch (error) {
    await early.withdraw();
    throw error;
  }
}

async function uploadTargets(
  op: OperationContext<ImpactedTargetsSettings>,
  targets: ImpactedTargets,
  quiet: QuietAuth | undefined,
  early: EarlyUpload | undefined,
): Promise<OperationResult> {
  const envelope: Envelope = {
    ...queueRef(op.context),
    pr: { number: requirePrNumber(op.context), sha: requireHeadSha(op.context) },
  };
  const auth = chooseAuth(op, quiet);
  if ('notUploaded' in auth) return notUploaded(op, envelope, targets, auth.notUploaded);

  const upload = prepareUpload(envelope, targets);
  if (upload.fallbackReason) {
    op.log.warning(
      `Sending ALL instead of the impacted targets of PR #${envelope.pr.number}: ${upload.fallbackReason}.`,
    );
  }
  const what = upload.sent === 'list' && targets !== 'ALL' ? plural(targets.size, 'impacted target') : 'ALL';
  op.log.info(
    `Uploading ${what} for PR #${envelope.pr.number} at ${envelope.pr.sha}: ${upload.byteLength} bytes, authenticated by ${auth.description}.`,
  );
  const carried =
    early && upload.sent === 'list' && targets !== 'ALL' && early.carries(targets, upload.byteLength);
  if (early && !carried) await early.withdraw();
  const response = carried ? await early.send() : await auth.client.call('setImpactedTargets', upload.body);
  return {
    details: uploadDetails(envelope, targets, upload.sent, upload.fallbackReason),
    outputs: {
      response: rawResponse(response),
      ...countOutputs(targets, upload.sent, upload.fallbackReason),
    },
    summary: uploadSummary(op.context, envelope, targets, upload, auth.description),
  };
}

interface ComputedUpload {
  targets: ImpactedTargets;
  /** The compute outputs and summary joined to the upload's. */
  addTo(result: OperationResult): OperationResult;
}

/** targets-config: the compute code (and its YAML and glob libraries) is loaded only here. */
async function computeTargets(
  op: OperationContext<ImpactedTargetsSettings>,
  settings: ComputeSettings,
): Promise<ComputedUpload> {
  const compute = await import('./compute/operation.js');
  const computed = await compute.computeFor(op, settings);
  const sorted = compute.sortedTargets(computed);
  // The upload's own outputs (impacted-targets-count among them) are laid over these.
  const outputs = compute.impactOutputs(computed);
  return {
    targets: sorted === 'ALL' ? 'ALL' : targetsFromList(sorted),
    addTo: (result) => ({
      ...result,
      details: detailsKind(result) === 'uploaded-targets' ? { ...result.details, computed } : result.details,
      outputs: { ...outputs, ...result.outputs },
      summary:
        result.summary && compute.impactSummary(result.summary, computed, compute.checkoutOf(op, settings)),
    }),
  };
}

// ---------------------------------------------------------------------------------------------------
// Authentication

type QuietAuth = { client: ServiceClient; description: string };
type Auth = QuietAuth | { notUploaded: string };

/**
 * How the upload authenticates when that goes without a word: a fork PR never carries the token (the
 * service trusts the fork's own workflow run instead); any other PR sends it.
 */
function quietAuth(op: OperationContext<ImpactedTargetsSettings>): QuietAuth | undefined {
  const runId = op.context.runId;
  if (op.context.isFork && runId) {
    return {
      client: new ApiClient({ ...op.clientOptions, token: undefined, forkedWorkflowRunId: runId }),
      description: `the fork's workflow run ${runId} (x-forked-workflow-run-id; no token is sent for a fork)`,
    };
  }
  if (!op.context.isFork && op.common.apiToken) {
    return { client: op.client, description: say(words`${nameOf('api-token')}`, op.wording) };
  }
  return undefined;
}

/** The quiet auth, or what a missing token or a fork without its run id makes of the upload. */
function chooseAuth(op: OperationContext<ImpactedTargetsSettings>, quiet: QuietAuth | undefined): Auth {
  const prNumber = requirePrNumber(op.context);
  if (quiet) return quiet;
  if (op.context.isFork) {
    throw new ContextError(
      `PR #${prNumber} comes from a fork, whose upload is authenticated by its workflow run id, but this run has none (GITHUB_RUN_ID is not set); run this step in the workflow that the pull request triggered.`,
    );
  }

  const problem = `is empty, so the impacted targets of PR #${prNumber} (from this repository, not a fork) cannot be uploaded and a parallel queue will not test it; the usual causes are a Dependabot PR (its workflows get only Dependabot secrets: add the token there too) or a secret not passed to the job (a reusable workflow needs \`secrets: inherit\` or the secret passed by name)`;
  const policy = op.settings.onMissingToken;
  if (policy === 'fail') {
    throw new InputError(
      'api-token',
      problem,
      words`Pass the token, or set ${nameOf('on-missing-token')} to warn or skip to go on without uploading.`,
    );
  }
  const line = words`${subjectOf('api-token')} ${problem}. Nothing was uploaded (${nameOf('on-missing-token')}: ${policy}).`;
  if (policy === 'warn') op.log.warning(line);
  else op.log.info(line);
  return { notUploaded: say(line, op.wording) };
}

function notUploaded(
  op: OperationContext<ImpactedTargetsSettings>,
  envelope: Envelope,
  targets: ImpactedTargets,
  why: string,
): OperationResult {
  return {
    details: { ...uploadDetails(envelope, targets, '', ''), notUploaded: why },
    outputs: { response: '', ...countOutputs(targets, '', '') },
    summary: withTargets(
      heading(op.context, envelope, '⚠️ Impacted targets not uploaded').paragraph(escapeMarkdown(why)),
      targets,
    ),
  };
}

// ---------------------------------------------------------------------------------------------------
// The request body

interface Upload {
  body: string | StreamedBody;
  byteLength: number;
  sent: 'list' | 'ALL';
  /** Why a list was replaced by ALL; empty when it was not. */
  fallbackReason: string;
}

/**
 * The exact body that will be sent. A list is streamed from the buffer it was read from, so a 20 MiB
 * list is never held as a second copy; a list whose body would pass the service's limit becomes ALL.
 */
function prepareUpload(envelope: Envelope, targets: ImpactedTargets): Upload {
  if (targets !== 'ALL') {
    const { head, tail } = listBodyEnds(envelope);
    const byteLength = head.length + targets.jsonArrayByteLength() + tail.length;
    if (byteLength <= MAX_BODY_BYTES) {
      const chunks = function* () {
        yield head;
        yield* targets.jsonArrayChunks();
        yield tail;
      };
      return {
        body: { byteLength, open: () => Readable.from(chunks()) },
        byteLength,
        sent: 'list',
        fallbackReason: '',
      };
    }
    const all = allBody(envelope);
    return {
      ...all,
      fallbackReason: `the list of ${targets.size} targets makes a request body of ${byteLength} bytes, over the service's limit of 20 MiB (${MAX_BODY_BYTES} bytes)`,
    };
  }
  return allBody(envelope);
}

function allBody(envelope: Envelope): Upload {
  const request: SetImpactedTargetsRequest = { ...envelope, impactedTargets: 'ALL' };
  const body = JSON.stringify(request);
  return { body, byteLength: Buffer.byteLength(body), sent: 'ALL', fallbackReason: '' };
}

// ---------------------------------------------------------------------------------------------------
// Outputs and summary

/** The first targets only: a person reads a few, and the list may hold millions. */
function uploadDetails(
  envelope: Envelope,
  targets: ImpactedTargets,
  sent: UploadedTargetsDetails['sent'],
  fallbackReason: string,
): UploadedTargetsDetails {
  return {
    kind: 'uploaded-targets',
    prNumber: envelope.pr.number,
    targets: targets === 'ALL' ? 'ALL' : targets.first(SHOWN_TARGETS),
    targetCount: targets === 'ALL' ? 0 : targets.size,
    sent,
    fallbackReason,
  };
}

function countOutputs(
  targets: ImpactedTargets,
  sent: 'list' | 'ALL' | '',
  fallbackReason: string,
): Record<string, OutputValue> {
  return {
    'impacted-targets-count': targets === 'ALL' ? '' : targets.size,
    'impacted-targets-sent': sent,
    'impacted-targets-fallback-reason': fallbackReason,
  };
}

/** What was uploaded first, then the targets; the request itself (its size, the token) collapsed. */
function uploadSummary(
  context: ResolvedContext,
  envelope: Envelope,
  targets: ImpactedTargets,
  upload: Upload,
  authenticatedBy: string,
): Markdown {
  const summary = heading(context, envelope, `🎯 ${uploadedWhat(targets, upload.sent)} uploaded`);
  if (upload.fallbackReason)
    summary.paragraph(
      `**ALL was sent instead of the list**, because ${escapeMarkdown(upload.fallbackReason)}.`,
    );
  const request = new Markdown().facts([
    ['Sent', describeSent(targets, upload.sent, upload.fallbackReason)],
    ['Request body', plural(upload.byteLength, 'byte')],
    ['Authenticated by', authenticatedBy],
    ['Head sha', envelope.pr.sha],
  ]);
  return withTargets(summary, targets).details('The request', request.toString());
}

/** "🎯 3 impacted targets uploaded for #12", then in one line the PR, its head and its target branch. */
function heading(context: ResolvedContext, envelope: Envelope, title: string): Markdown {
  const number = envelope.pr.number;
  const pr = link(`${repoSlug(context.repo)}#${number}`, pullRequestUrl(context.repo, number));
  return new Markdown()
    .heading(`${title} for #${number}`)
    .paragraph(
      `For ${pr} at ${codeSpan(envelope.pr.sha.slice(0, 7))}, into ${codeSpan(envelope.targetBranch)}.`,
    );
}

function uploadedWhat(targets: ImpactedTargets, sent: 'list' | 'ALL'): string {
  if (targets === 'ALL' || sent === 'ALL') return 'ALL impacted targets';
  return targets.size === 0 ? 'No impacted target (an empty list)' : plural(targets.size, 'impacted target');
}

function describeSent(targets: ImpactedTargets, sent: 'list' | 'ALL', fallbackReason: string): string {
  if (targets === 'ALL') return 'ALL, as asked: every target is impacted';
  if (sent === 'ALL') return `ALL instead of the list, because ${fallbackReason}`;
  if (targets.size === 0) return 'an empty list: the PR impacts no target';
  return `a list of ${plural(targets.size, 'target')}`;
}

/** The first targets, escaped, in a collapsed block. */
function withTargets(summary: Markdown, targets: ImpactedTargets): Markdown {
  if (targets === 'ALL' || targets.size === 0) return summary;
  const shown = targets.first(SHOWN_TARGETS);
  const lines = shown.map((target) => {
    const cut = target.length > SHOWN_TARGET_CHARS ? `${target.slice(0, SHOWN_TARGET_CHARS)}…` : target;
    return `- ${escapeMarkdown(cut)}`;
  });
  const title =
    shown.length < targets.size
      ? `First ${shown.length} of ${targets.size} targets`
      : `All ${targets.size} targets`;
  return summary.details(title, lines.join('\n'));
}

/** The envelope when the context knows all it holds, without failing when it does not. */
function knownEnvelope(context: ResolvedContext): Envelope | undefined {
  const { targetBranch, prNumber, headSha } = context;
  if (!targetBranch || prNumber === undefined || !headSha) return undefined;
  return { repo: context.repo, targetBranch, pr: { number: prNumber, sha: headSha } };
}

function requireHeadSha(context: ResolvedContext): string {
  if (!context.headSha) {
    throw new ContextError(
      words`The head sha of PR #${String(context.prNumber)} is not known for event ${context.trigger}. ${give('pr-sha')} (the PR's head sha).`,
    );
  }
  return context.headSha;
}
