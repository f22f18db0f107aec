// One row per endpoint: the wire's rows say which endpoints v2 answers by translation, each area's file
// under src/core/api/v2/ gives the translations of its endpoints, and what is missing is a type error.
import { describe, expect, it } from '@jest/globals';
import { FLAKY_TEST_TRANSLATIONS } from '../../src/core/api/v2/flaky-tests.js';
import { PULL_REQUEST_TRANSLATIONS } from '../../src/core/api/v2/pull-requests.js';
import { QUEUE_TRANSLATIONS } from '../../src/core/api/v2/queues.js';
import type { AllTranslations } from '../../src/core/api/v2/translation.js';
import { ROUTES } from '../../src/wire/index.js';

const translatedRows = Object.entries(ROUTES)
  .filter(([, route]) => route.v2 === 'translated')
  .map(([name]) => name)
  .sort();

describe("the areas' v2 translations", () => {
  it('answer every endpoint whose row says translated, and no other', () => {
    const every: AllTranslations = {
      ...PULL_REQUEST_TRANSLATIONS,
      ...QUEUE_TRANSLATIONS,
      ...FLAKY_TEST_TRANSLATIONS,
    };
    expect(Object.keys(every).sort()).toEqual(translatedRows);
    expect(Object.values(every).every((translate) => typeof translate === 'function')).toBe(true);
  });

  it('are a type error, naming the endpoint, when one is missing', () => {
    const { getMergeQueueMetrics: _metrics, ...otherQueueRows } = QUEUE_TRANSLATIONS;
    // @ts-expect-error getMergeQueueMetrics is translated and no area answers it
    const lacking: AllTranslations = {
      ...PULL_REQUEST_TRANSLATIONS,
      ...otherQueueRows,
      ...FLAKY_TEST_TRANSLATIONS,
    };
    expect(Object.keys(lacking)).not.toContain('getMergeQueueMetrics');
  });
});
