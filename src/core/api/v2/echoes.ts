// Whether an answer is about what was asked: the ids and coordinates it hands back (a queue, a
// repository, a pull request) are the ones the request named, and have their documented form. A lookup
// that answers with another queue would otherwise have the next write land there; it is refused before
// anything is written with it.
import { ID_FORMS, isIdOf, type IdKind, type V2OperationId } from '../../../wire/v2/index.js';
import { isObject } from '../../../wire/readers.js';
import type { AnswerProblem } from '../answers.js';
import type { V2Request } from './request.js';

type Json = Record<string, unknown>;

/** Where an answer is not about what was asked: `"data[0].targetBranch" is "evil", not "main" as asked`. */
interface Mismatch {
  field: string;
  found: unknown;
  /** What was asked, or the form the id must have. */
  expected: string;
}

type Echo<Id extends V2OperationId> = (asked: V2Request<Id>, answer: Json) => Mismatch | undefined;

function same(field: string, found: unknown, asked: unknown): Mismatch | undefined {
  if (asked === undefined || found === asked) return undefined;
  return { field, found, expected: `${JSON.stringify(asked)} as asked` };
}

function idOf(kind: IdKind, field: string, found: unknown): Mismatch | undefined {
  return isIdOf(kind, found) ? undefined : { field, found, expected: ID_FORMS[kind].what };
}

/** The first mismatch of a list's items, its field named with the item's place. */
function inEach(answer: Json, check: (item: Json) => Mismatch | undefined): Mismatch | undefined {
  const items = Array.isArray(answer.data) ? answer.data : [];
  for (let index = 0; index < items.length; index++) {
    const item: unknown = items[index];
    const mismatch = check(isObject(item) ? item : {});
    if (mismatch) return { ...mismatch, field: `data[${index}].${mismatch.field}` };
  }
  return undefined;
}

/** A provider URL as the service may spell it back: any case, a trailing slash or `.git`. */
function sameRepositoryUrl(found: unknown, asked: string | undefined): Mismatch | undefined {
  const plain = (url: string) => url.replace(/(?:\.git)?\/*$/, '').toLowerCase();
  if (asked === undefined || (typeof found === 'string' && plain(found) === plain(asked))) return undefined;
  return { field: 'url', found, expected: `${JSON.stringify(asked)} as asked` };
}

const queueOf =
  (field: string) =>
  (asked: { path?: { id: string } }, answer: Json): Mismatch | undefined =>
    same(field, answer[field], asked.path?.id);

const pullRequestById = (asked: { path?: { id: string } }, answer: Json) =>
  same('id', answer.id, asked.path?.id);

/** A pull request's queue entry, when it has one, in the queue asked about. */
function entryIn(pr: Json, queueId: string | undefined): Mismatch | undefined {
  const entry = pr.queueEntry;
  if (entry === undefined) return undefined;
  return same('queueEntry.mergeQueueId', isObject(entry) ? entry.mergeQueueId : entry, queueId);
}

const ECHOES: { [Id in V2OperationId]?: Echo<Id> } = {
  'repositories.resolveByProviderUrl': (asked, answer) =>
    inEach(
      answer,
      (repo) => idOf('repository', 'id', repo.id) ?? sameRepositoryUrl(repo.url, asked.query?.providerUrl),
    ),
  'repositories.get': (asked, answer) => same('id', answer.id, asked.path?.id),
  'mergeQueues.list': (asked, answer) =>
    inEach(
      answer,
      (queue) =>
        idOf('mergeQueue', 'id', queue.id) ??
        same('repositoryId', queue.repositoryId, asked.query?.repositoryId) ??
        same('targetBranch', queue.targetBranch, asked.query?.targetBranch),
    ),
  'mergeQueues.create': (asked, answer) =>
    idOf('mergeQueue', 'id', answer.id) ??
    same('repositoryId', answer.repositoryId, asked.body?.repositoryId) ??
    same('targetBranch', answer.targetBranch, asked.body?.targetBranch),
  'mergeQueues.get': queueOf('id'),
  'mergeQueues.updateConfig': queueOf('id'),
  'mergeQueues.pause': queueOf('id'),
  'mergeQueues.resume': queueOf('id'),
  'mergeQueues.drain': queueOf('id'),
  'mergeQueues.switchModes': queueOf('id'),
  'mergeQueues.submitPullRequest': (asked, answer) =>
    idOf('pullRequest', 'id', answer.id) ??
    same('number', answer.number, asked.body?.number) ??
    entryIn(answer, asked.path?.id),
  'mergeQueues.listPullRequests': (asked, answer) => inEach(answer, (pr) => entryIn(pr, asked.path?.id)),
  'pullRequests.resolveByCoordinates': (asked, answer) => {
    const numbers = asked.query?.number?.split(',').map(Number);
    return inEach(
      answer,
      (pr) =>
        idOf('pullRequest', 'id', pr.id) ??
        same('repositoryId', pr.repositoryId, asked.query?.repositoryId) ??
        (numbers && !numbers.includes(pr.number as number)
          ? { field: 'number', found: pr.number, expected: `one of ${numbers.join(', ')} as asked` }
          : undefined),
    );
  },
  'pullRequests.get': pullRequestById,
  'pullRequests.reprioritize': pullRequestById,
  'pullRequests.updateQueueEntry': pullRequestById,
  'pullRequests.dequeue': pullRequestById,
  'pullRequests.restartTests': pullRequestById,
  'pullRequests.queueEntryHistory': (asked, answer) =>
    inEach(answer, (step) =>
      step.pullRequestId === undefined
        ? undefined
        : same('pullRequestId', step.pullRequestId, asked.path?.id),
    ),
  'mergeQueueVerificationRuns.get': (asked, answer) => same('id', answer.id, asked.path?.id),
  'testCollections.get': (asked, answer) => same('id', answer.id, asked.path?.id),
};

/**
 * Why the answer of `id` is not about what `asked` named; undefined when it is. The value the answer
 * holds is the service's: it goes apart from our words.
 */
export function echoProblem<Id extends V2OperationId>(
  id: Id,
  asked: V2Request<Id>,
  answer: unknown,
): AnswerProblem | undefined {
  const echo = ECHOES[id] as Echo<Id> | undefined;
  if (!echo || !isObject(answer)) return undefined;
  const mismatch = echo(asked, answer);
  if (!mismatch) return undefined;
  const found = mismatch.found === undefined ? 'missing' : 'another value';
  const what = `an answer about something other than what was asked ("${mismatch.field}" is ${found}, not ${mismatch.expected})`;
  if (mismatch.found === undefined) return { what };
  return { what, said: typeof mismatch.found === 'string' ? mismatch.found : JSON.stringify(mismatch.found) };
}
