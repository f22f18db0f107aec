// The request body of set-impacted-targets when it carries a list: the envelope's JSON with the list as
// its last field, so that the list (up to 20 MiB) can be streamed between two small pieces.
import type { RequestOf } from '../../../wire/index.js';

type SetImpactedTargetsRequest = RequestOf<'setImpactedTargets'>;

/** The request without its list: the queue reference and the PR. */
export type Envelope = Omit<SetImpactedTargetsRequest, 'impactedTargets'>;

/** The bytes before the list (`{...,"impactedTargets":`) and after it (`}`). */
export function listBodyEnds(envelope: Envelope): { head: Buffer; tail: Buffer } {
  const field: keyof SetImpactedTargetsRequest = 'impactedTargets';
  return {
    head: Buffer.from(`${JSON.stringify(envelope).slice(0, -1)},${JSON.stringify(field)}:`),
    tail: Buffer.from('}'),
  };
}
