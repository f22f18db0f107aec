// One short phrase for what went wrong reaching the service, for the outage warning and output.
import { ApiError } from '../../../api/errors.js';

export function describeOutage(error: Error): string {
  const said = error instanceof ApiError ? error.toString() : error.message;
  const line = said.replace(/\s+/g, ' ').trim();
  return line.length > 600 ? `${line.slice(0, 600)}…` : line;
}
