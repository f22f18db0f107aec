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
};
