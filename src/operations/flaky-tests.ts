// The flaky-tests operations (the registry imports this module); each lives in flaky-tests/.
export { listFailingTests } from './flaky-tests/failing.js';
export { listQuarantinedTests } from './flaky-tests/quarantined.js';
export { getTestDetails, linkTicketToTestCase } from './flaky-tests/test-case.js';
export { listUnhealthyTests } from './flaky-tests/unhealthy.js';
