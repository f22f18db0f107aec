// What every v2 translation works with: the typed transport, the run's id cache and the log.
import type { Words } from '../../words.js';
import type { IdResolver } from './ids.js';
import type { V2Transport } from './transport.js';

export interface V2Session {
  v2: V2Transport;
  ids: IdResolver;
  /** Lines for the run's log (a write read back after its answer was lost, say). */
  log?: (message: Words) => void;
}
