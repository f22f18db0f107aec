// The service's queue rules as a library, headless on a virtual clock: the engine (submissions,
// lanes, batching, bisection, priorities), the simulated CI, the clock and the seeded random source.
// It imports only src/wire/. The emulator serves it over HTTP; the planner replays history through it.
export { awaitingAdmission, testsAlone } from './admission.js';
export { Bisections, type BisectionRuns } from './bisection.js';
export { CI_OUTCOMES, DEFAULT_CI_DURATION_MS, SimulatedCi } from './ci.js';
export type { CiBehaviour, CiOutcome, RunVerdict } from './ci.js';
export { CLOCK_HORIZON, realStartTime, VirtualClock, type TimerHandle } from './clock.js';
export { ACTIVE_STATES, EngineCore, queueKeyOf, releaseIfDone, repoKeyOf } from './core.js';
export type { EngineListener, Readiness } from './core.js';
export { MERGE_REFUSALS, MergeQueueEngine } from './engine.js';
export type { EngineOptions, ListOptions, MergeRefusal, PullRequestFacts, SubmitOptions } from './engine.js';
export { QueueModelError } from './errors.js';
export { compareInLine, dependenciesAhead, dependentsBehind, TargetUnion, unionOfTargets } from './lanes.js';
export { applySettings, bisectionConcurrencyOf, configurationOf, defaultSettings } from './queue-config.js';
export { SeededRandom } from './random.js';
export { REASONS, reasonInWords } from './reasons.js';
export { Scheduler } from './scheduler.js';
export { BLOCK_REASON_CODES, UNKNOWN } from './types.js';
export type {
  Bisection,
  BlockReason,
  BisectionGroup,
  HistoryEvent,
  Mergeability,
  PullRequestInfo,
  QueueRecord,
  QueueSettingsState,
  RunKind,
  RunStatus,
  Submission,
  Targets,
  TestRun,
} from './types.js';
export {
  DEFAULT_REQUIRED_STATUSES,
  enqueuedView,
  submittedView,
  testingDetailsView,
  testRunUrl,
} from './views.js';
