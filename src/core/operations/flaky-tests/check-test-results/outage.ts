// One short phrase for what went wrong reaching the service, for the outage warning and output, in the
// host's words.
import { wordsOf } from '../../../failure.js';
import { say, type Wording } from '../../../words.js';

export function describeOutage(error: Error, wording?: Wording): string {
  const line = say(wordsOf(error), wording).replace(/\s+/g, ' ').trim();
  return line.length > 600 ? `${line.slice(0, 600)}…` : line;
}
