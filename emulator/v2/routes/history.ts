// Queue-entry history: one PR's transitions (oldest first; `direction=newest` for v1's order), and the
// histories of up to 50 PRs at once (an unknown id is an empty group).
import type { V2Handlers } from '../call.js';
import type { PullRequestRef } from '../directory.js';
import { V2Error, validationFailed } from '../errors.js';
import { stateEventsOf, transitionView } from '../views/history.js';

const MAX_IDS = 50;

export const historyHandlers: Pick<
  V2Handlers,
  'pullRequests.queueEntryHistory' | 'pullRequests.queueEntryHistoryBatch'
> = {
  'pullRequests.queueEntryHistory': (call, { directory }) => {
    const ref = directory.pullRequestById(call.path.id);
    // Each transition is named by its place in the whole history, which only grows at the end.
    const events = stateEventsOf(directory, ref).map((event, index) => ({ event, index }));
    if (call.query.direction === 'newest') events.reverse();
    return call.page(
      events,
      ({ index }) => String(index),
      ({ event }) => transitionView(directory, ref, event),
    );
  },
  'pullRequests.queueEntryHistoryBatch': (call, { directory }) => {
    // Ids are uuids, matched and echoed lower-cased whatever case they came in.
    const ids = [...new Set(call.query.pullRequestIds.split(',').map((id) => id.trim().toLowerCase()))];
    if (ids.some((id) => id === ''))
      throw validationFailed('pullRequestIds must be pull request ids separated by commas');
    if (ids.length > MAX_IDS)
      throw validationFailed(`pullRequestIds takes at most ${MAX_IDS} ids; got ${ids.length}`);
    const refs = ids.map((id): PullRequestRef | string => {
      try {
        return directory.pullRequestById(id);
      } catch (error) {
        if (error instanceof V2Error) return id;
        throw error;
      }
    });
    return call.page(
      refs,
      (ref) => (typeof ref === 'string' ? ref : ref.id),
      (ref) => {
        if (typeof ref === 'string') return { pullRequestId: ref, transitions: [] };
        const events = stateEventsOf(directory, ref);
        if (call.query.direction === 'newest') events.reverse();
        return { pullRequestId: ref.id, transitions: events.map((e) => transitionView(directory, ref, e)) };
      },
    );
  },
};
