// A small JUnit report as jest-junit writes it, and the flaky-tests seed that quarantines one of its two
// failures for the emulator's control surface (POST /_emulator/flaky-tests), for the quarantine gate
// examples of each CI.
/** A JUnit report as jest-junit writes it: two failures in src/cart.test.js. */
export const CART_JUNIT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jest tests" tests="3" failures="2" errors="0" time="0.5">
  <testsuite name="Cart" tests="3" failures="2" errors="0" time="0.5">
    <testcase classname="Cart adds an item" name="Cart adds an item" time="0.01" file="src/cart.test.js"/>
    <testcase classname="Cart syncs when offline" name="Cart syncs when offline" time="0.02" file="src/cart.test.js">
      <failure>Error: ECONNREFUSED 127.0.0.1:5432</failure>
    </testcase>
    <testcase classname="Cart expires after a timeout" name="Cart expires after a timeout" time="0.02" file="src/cart.test.js">
      <failure>expect(received).toBe(expected)</failure>
    </testcase>
  </testsuite>
</testsuites>
`;

/** The seed that quarantines "Cart syncs when offline" in `repo`, under the organization your-org. */
export function quarantineSyncsWhenOffline(repo: { host: string; owner: string; name: string }) {
  return {
    repositories: [
      {
        repo,
        org_url_slug: 'your-org',
        tests: [
          {
            name: 'Cart syncs when offline',
            classname: 'Cart syncs when offline',
            file_path: 'src/cart.test.js',
            status: 'flaky',
            quarantine_override: 'ALWAYS_QUARANTINE',
          },
        ],
      },
    ],
  };
}
