// Every v2 operation's handler, by operationId.
import type { V2Handlers } from '../call.js';
import { pullRequestReadHandlers } from './pull-request-reads.js';
import { pullRequestWriteHandlers } from './pull-request-writes.js';
import { queueReadHandlers } from './queue-reads.js';
import { repositoryHandlers } from './repositories.js';

export const V2_HANDLERS: Partial<V2Handlers> = {
  ...repositoryHandlers,
  ...queueReadHandlers,
  ...pullRequestReadHandlers,
  ...pullRequestWriteHandlers,
};
