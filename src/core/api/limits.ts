// The most each endpoint's answer may be, error answers included: its route (src/wire/routes.ts) names the
// kind of its answer, and ANSWER_CAPS (src/wire/limits.ts) says how big each kind may be and why.
import { ANSWER_CAPS, ROUTES, type EndpointName } from '../../wire/index.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** The cap on an endpoint's answers. */
export function answerLimitOf(endpoint: EndpointName): number {
  return ANSWER_CAPS[ROUTES[endpoint].answer];
}

/** A size as the error line shows it. */
export function describeBytes(bytes: number): string {
  return bytes >= MiB ? `${Math.round(bytes / MiB)} MiB` : `${Math.round(bytes / KiB)} KiB`;
}
