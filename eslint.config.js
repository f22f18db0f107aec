import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** An import rule that keeps one part of the layout (DESIGN.md) from reaching into another. */
const layout = ({
  files,
  ignores = [],
  forbidden,
  why,
  allowActions = false,
  entry = false,
  extra = {},
}) => ({
  files,
  ignores,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: forbidden, message: why },
          ...(entry
            ? [
                {
                  group: ['**/core/**', '!**/core/index.js'],
                  message:
                    'An entry uses core through its public face, src/core/index.ts: export there what it needs.',
                },
              ]
            : []),
          ...(allowActions
            ? []
            : [{ group: ['@actions/*'], message: '@actions/* belongs to the GitHub Actions host only.' }]),
        ],
      },
    ],
    ...extra,
  },
});

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // No function of 80 lines or more outside the tests (a test's describe block is a list, not logic).
    files: ['src/**', 'emulator/**', 'scripts/**', 'bench/**'],
    rules: { 'max-lines-per-function': ['error', { max: 79, IIFEs: true }] },
  },
  layout({
    files: ['src/wire/**'],
    forbidden: [
      '**/core/**',
      '**/hosts/**',
      '**/cli/**',
      '**/github-action/**',
      '**/emulator/**',
      '**/queue-model/**',
    ],
    why: 'The wire imports nothing of ours.',
  }),
  layout({
    files: ['src/core/**'],
    forbidden: ['**/hosts/**', '**/cli/**', '**/github-action/**', '**/mcp/**', '**/emulator/**'],
    why: 'Core never imports a host or an entry point.',
    extra: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Core reads its environment through the Host.' },
      ],
    },
  }),
  layout({
    files: ['src/hosts/github-actions/**'],
    forbidden: ['**/cli/**', '**/github-action/**', '**/emulator/**'],
    why: 'A host never imports an entry point or the emulator.',
    allowActions: true,
  }),
  layout({
    files: ['src/hosts/**'],
    ignores: ['src/hosts/github-actions/**'],
    forbidden: ['**/cli/**', '**/github-action/**', '**/emulator/**'],
    why: 'A host never imports an entry point or the emulator.',
  }),
  layout({
    files: ['src/cli/**'],
    ignores: ['src/cli/index.ts'],
    forbidden: ['**/github-action/**', '**/mcp/**', '**/emulator/**'],
    why: "The CLI never imports the action's run, the MCP server (chunks only `mcp` loads) or the emulator.",
    entry: true,
  }),
  layout({
    files: ['src/cli/index.ts'],
    forbidden: ['**/mcp/**', '**/emulator/**'],
    why: "The bundle's entry starts the action's run, the MCP server or the CLI; the MCP server is chunks only `mcp` loads.",
    entry: true,
  }),
  layout({
    files: ['src/mcp/**'],
    forbidden: ['**/cli/**', '**/github-action/**', '**/emulator/**'],
    why: 'The MCP server never imports another entry point or the emulator.',
    entry: true,
  }),
  layout({
    files: ['src/github-action/**'],
    forbidden: ['**/cli/**', '**/mcp/**', '**/emulator/**'],
    why: 'The action never imports another entry point or the emulator.',
    allowActions: true,
    entry: true,
  }),
  layout({
    files: ['src/queue-model/**'],
    forbidden: [
      '**/core/**',
      '**/hosts/**',
      '**/cli/**',
      '**/github-action/**',
      '**/mcp/**',
      '**/emulator/**',
      '**/planner/**',
    ],
    why: 'The queue model imports only src/wire/ (and node builtins).',
  }),
  layout({
    files: ['emulator/**'],
    forbidden: [
      '**/src/core/**',
      '**/src/hosts/**',
      '**/src/cli/**',
      '**/src/github-action/**',
      '**/src/mcp/**',
    ],
    why: 'The emulator imports only src/wire/ and src/queue-model/.',
  }),
);
