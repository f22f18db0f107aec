/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  // Every answer and webhook of every emulator a test starts is checked against the service's spec.
  setupFilesAfterEnv: [
    '<rootDir>/__tests__/helpers/spec-conformance.ts',
    '<rootDir>/__tests__/helpers/property-seed.ts',
  ],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } },
    ],
  },
  testTimeout: 30000,
  maxWorkers: 2,
  // jest keeps the ES modules each test file loads (--experimental-vm-modules): a worker grew past 1.3 GB
  // over the suite, and ending a process that large took longer than the 500 ms jest waits before it
  // kills the worker and reports a leak. A worker over 300 MB between two files is replaced instead.
  workerIdleMemoryLimit: '300MB',
};
