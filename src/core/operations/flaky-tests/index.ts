// The flaky-tests operations (the registry imports this module); each lives in flaky-tests/.
export { listFailingTests } from './failing.js';
export { listQuarantinedTests } from './quarantined.js';
export { getTestDetails, linkTicketToTestCase } from './test-case.js';
export { listUnhealthyTests } from './unhealthy.js';
