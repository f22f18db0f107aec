// How v2 answers a v1 endpoint whose row in src/wire/ says `v2: 'translated'`. Each area's file here
// (pull-requests.ts, queues.ts, flaky-tests.ts) exports the rows of its endpoints beside their functions;
// service-client.ts gathers them, and an endpoint that none of them answers is a type error there naming it.
import type { TranslatedEndpoint } from '../../../wire/index.js';
import type { PayloadOf } from '../client.js';
import type { WireAnswerOf } from '../typed-answers.js';
import type { V2Session } from './session.js';

/** v1's request in, v1's answer out, typed as v1's wire writes it. */
export type Translation<E extends TranslatedEndpoint> = (
  session: V2Session,
  payload: PayloadOf<E>,
) => Promise<WireAnswerOf<E>>;

/** Every translated endpoint's translation: what service-client.ts gathers from the areas' rows. */
export type AllTranslations = { readonly [E in TranslatedEndpoint]: Translation<E> };

/** Some endpoints' translations, by name: a name whose row is not `translated` is a type error. */
export type Translations = { readonly [E in TranslatedEndpoint]?: Translation<E> };
