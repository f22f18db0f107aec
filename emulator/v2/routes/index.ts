// Every v2 operation's handler, by operationId (the type holds it to all of V2_ROUTES).
import type { V2Handlers } from '../call.js';
import { dynamicCiHandlers } from './dynamic-ci.js';
import { historyHandlers } from './history.js';
import { pullRequestReadHandlers } from './pull-request-reads.js';
import { pullRequestWriteHandlers } from './pull-request-writes.js';
import { queueExtraHandlers } from './queue-extras.js';
import { queueListHandlers } from './queue-lists.js';
import { queueReadHandlers } from './queue-reads.js';
import { queueWriteHandlers } from './queue-writes.js';
import { repositoryHandlers } from './repositories.js';
import { runHandlers } from './runs.js';
import { testCaseHandlers } from './test-cases.js';

export const V2_HANDLERS: V2Handlers = {
  ...repositoryHandlers,
  ...queueReadHandlers,
  ...queueWriteHandlers,
  ...queueListHandlers,
  ...queueExtraHandlers,
  ...pullRequestReadHandlers,
  ...pullRequestWriteHandlers,
  ...historyHandlers,
  ...runHandlers,
  ...dynamicCiHandlers,
  ...testCaseHandlers,
};
