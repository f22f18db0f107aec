// A user's JavaScript project whose tests run with jest and report JUnit with jest-junit, as the quarantine
// gate examples expect: src/cart.test.js holds the tests of helpers/junit-sample.ts (one passes, "syncs
// when offline" fails and is the one quarantineSyncsWhenOffline quarantines, "expires after a timeout"
// fails). The registry is out of reach in tests, so the project's jest and jest-junit are this checkout's,
// as file: dependencies that `npm ci` links, and its lockfile is the one npm writes for them offline in
// the folder the project is checked out in (a lockfile names a link by its path relative to the project).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const CART_TESTS = `describe('Cart', () => {
  it('adds an item', () => {
    expect([1].length).toBe(1);
  });
  it('syncs when offline', () => {
    throw new Error('ECONNREFUSED 127.0.0.1:5432');
  });
  it('expires after a timeout', () => {
    expect('late').toBe('on time');
  });
});
`;

/** The project's files (package.json, package-lock.json, src/cart.test.js), to be checked out at `at`. */
export function jestProjectFiles(at: string): Record<string, string> {
  const packageJson = `${JSON.stringify(
    {
      name: 'shop',
      private: true,
      // gitlab-ci-local copies the project into .gitlab-ci-local/ inside it: jest would run both copies.
      jest: { testPathIgnorePatterns: ['/node_modules/', '<rootDir>/.gitlab-ci-local/'] },
      devDependencies: Object.fromEntries(
        ['jest', 'jest-junit'].map((name) => [name, `file:${resolve('node_modules', name)}`]),
      ),
    },
    null,
    2,
  )}\n`;
  const dir = resolve(at);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, 'package.json'), packageJson);
    execFileSync('npm', ['install', '--package-lock-only', '--offline', '--no-audit', '--no-fund'], {
      cwd: dir,
      stdio: 'ignore',
    });
    const lock = readFileSync(join(dir, 'package-lock.json'), 'utf8');
    return { 'package.json': packageJson, 'package-lock.json': lock, 'src/cart.test.js': CART_TESTS };
  } finally {
    for (const file of ['package.json', 'package-lock.json']) rmSync(join(dir, file), { force: true });
  }
}
