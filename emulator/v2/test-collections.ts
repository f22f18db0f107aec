// Test collections made over v2 (POST /v2/test-collections): kept by name, empty (the emulator assigns
// tests to the collection of their repository only).
import type { V2 } from '../../src/wire/v2/index.js';
import { SeededRandom } from '../../src/queue-model/index.js';
import { shortIdOf } from './ids.js';

export class TestCollectionStore {
  private readonly made: V2<'TestCollection'>[] = [];
  private readonly random: SeededRandom;

  constructor(
    seed: number,
    private readonly now: () => number,
  ) {
    this.random = new SeededRandom(seed ^ 0x7c011ec7);
  }

  create(request: V2<'CreateTestCollectionRequest'>): V2<'TestCollection'> {
    const at = new Date(this.now()).toISOString();
    const collection: V2<'TestCollection'> = {
      id: shortIdOf(`made collection:${this.random.hex(32)}`),
      name: request.name,
      description: request.description ?? null,
      testCaseCount: 0,
      quarantineEnabled: true,
      autoQuarantineEnabled: false,
      createdAt: at,
      updatedAt: at,
    };
    this.made.push(collection);
    return collection;
  }

  all(): V2<'TestCollection'>[] {
    return [...this.made];
  }
}
