// The structure-only copies of the service's OpenAPI documents in src/wire/ (what the tests validate the
// emulator against): no prose in them, and `npm run spec:structure -- --check` tells a stale copy.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { structureOf } from '../../scripts/openapi-structure.js';

const COPIES = { v1: 'src/wire/v1/openapi.structure.json', v2: 'src/wire/v2/openapi.structure.json' };
const committed = (copy: string) => JSON.parse(readFileSync(copy, 'utf8'));

describe('structureOf', () => {
  const document = {
    openapi: '3.1.0',
    info: { title: 'Some API', version: '1.2.3', description: 'All about it.' },
    tags: [{ name: 'queues', description: 'Queues.' }],
    paths: {
      '/getThing': {
        post: {
          summary: 'Gets a thing',
          tags: ['queues'],
          'x-source': ['https://example.com/docs'],
          requestBody: {
            content: { 'application/json': { example: { id: 1 }, schema: { type: 'object' } } },
          },
          responses: {
            '200': {
              description: 'The thing.',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    title: 'Thing',
                    required: ['title', 'description'],
                    properties: {
                      title: { type: 'string', description: 'Its title.', examples: ['A'] },
                      description: { type: 'string', format: 'date-time' },
                      kind: { enum: ['description', 'summary'], 'x-known-values': { a: ['B'] } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };

  it('keeps paths, schemas, enums, required fields and formats, and drops the prose', () => {
    expect(structureOf(document, 'a test')).toEqual({
      'x-structure-only': expect.stringContaining('made by a test'),
      openapi: '3.1.0',
      info: { version: '1.2.3' },
      paths: {
        '/getThing': {
          post: {
            requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
            responses: {
              '200': {
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      required: ['title', 'description'],
                      properties: {
                        title: { type: 'string' },
                        description: { type: 'string', format: 'date-time' },
                        kind: { enum: ['description', 'summary'], 'x-known-values': { a: ['B'] } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    });
  });

  it.each(Object.entries(COPIES))('finds no prose left in the committed %s copy', (_version, copy) => {
    const structure = committed(copy);
    expect(structureOf(structure, 'npm run spec:structure (scripts/spec-structure.ts)')).toEqual(structure);
    expect(Object.keys(structure.paths).length).toBeGreaterThan(10);
  });
});

describe('npm run spec:structure -- --check', () => {
  const check = (reference: string) =>
    spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/spec-structure.ts', '--check', '--reference', reference],
      {
        encoding: 'utf8',
      },
    );

  it('passes when the copies are what the documents give, and names a copy that is not', () => {
    // The copies are their own structure, so a reference folder holding them gives them back unchanged.
    const reference = mkdtempSync(join(tmpdir(), 'mqa-spec-reference-'));
    try {
      mkdirSync(join(reference, 'v2'));
      const v1 = committed(COPIES.v1);
      writeFileSync(join(reference, 'openapi.json'), JSON.stringify(v1));
      writeFileSync(join(reference, 'v2', 'openapi-v2.json'), readFileSync(COPIES.v2));
      const current = check(reference);
      expect([current.status, current.stderr]).toEqual([0, '']);
      expect(current.stdout).toContain(`${COPIES.v1} is current`);

      v1.paths['/newEndpoint'] = { post: { responses: { '200': { content: {} } } } };
      writeFileSync(join(reference, 'openapi.json'), JSON.stringify(v1));
      const stale = check(reference);
      expect(stale.status).toBe(1);
      expect(stale.stderr.trim()).toBe(
        `spec-structure: ${COPIES.v1} not what the service's document gives: run npm run spec:structure and commit the result.`,
      );
    } finally {
      rmSync(reference, { recursive: true, force: true });
    }
  }, 60_000);
});
