// The v1 endpoints answered over v2, so that operations stay unaware of which API answered: each call is
// translated into v2 requests (ids resolved once per run), each v2 answer checked once against its v2
// shape (transport.ts), and built into v1's answer by typed functions (to-v1.ts): what the compiler
// checks is not checked again. `v2` is the typed seam for operations only v2 has.
import { ROUTES, type EndpointName, type Route, type TranslatedEndpoint } from '../../../wire/index.js';
import { InputError } from '../../errors.js';
import { nameOf, words } from '../../words.js';
import { typedAnswer } from '../typed-answers.js';
import { apiBaseFor } from '../base-url.js';
import {
  ApiClient,
  type Answered,
  type CallOptions,
  type ClientOptions,
  type PayloadOf,
  type ServiceClient,
} from '../client.js';
import { FLAKY_TEST_TRANSLATIONS } from './flaky-tests.js';
import { IdResolver, type KnownIds } from './ids.js';
import { PULL_REQUEST_TRANSLATIONS } from './pull-requests.js';
import { QUEUE_TRANSLATIONS } from './queues.js';
import type { V2Session } from './session.js';
import type { AllTranslations, Translation } from './translation.js';
import { V2Transport } from './transport.js';

/**
 * How v2 answers each endpoint whose row in src/wire/ says `v2: 'translated'`, gathered from the areas'
 * files: a new such row is a type error here, naming it, until its area's file answers it. Of the
 * `v1-only` ones, those anyone may call (the service status, the device login) go to v1 without the key;
 * the others (the CI-run recorder) stop with one line, as v1 refuses a v2 key.
 */
const TRANSLATIONS: AllTranslations = {
  ...PULL_REQUEST_TRANSLATIONS,
  ...QUEUE_TRANSLATIONS,
  ...FLAKY_TEST_TRANSLATIONS,
};

function isTranslated(endpoint: EndpointName): endpoint is TranslatedEndpoint {
  return ROUTES[endpoint].v2 === 'translated';
}

function isPublic(endpoint: EndpointName): boolean {
  const route: Route = ROUTES[endpoint];
  return route.authenticated === false;
}

export interface V2ClientOptions extends ClientOptions {
  /** The v2 API key. */
  token: string;
  /** api-url as given: each version's base is derived from it (base-url.ts). */
  apiUrl: string;
  known?: KnownIds;
}

export class V2ServiceClient implements ServiceClient {
  /** Every operation of the v2 document, typed: `v2.call('pullRequests.reprioritize', {path, body})`. */
  readonly v2: V2Transport;
  private readonly session: V2Session;
  /** v1's client without the key, for the v1-only endpoints anyone may call. */
  private readonly v1Public: ApiClient;

  /** The run's ids (queues, pull requests), looked up once, for operations that call `v2` themselves. */
  get ids(): IdResolver {
    return this.session.ids;
  }

  constructor(options: V2ClientOptions) {
    this.v2 = new V2Transport({ ...options, baseUrl: apiBaseFor('v2', options.apiUrl) });
    this.v1Public = new ApiClient({
      ...options,
      token: undefined,
      baseUrl: apiBaseFor('v1', options.apiUrl),
    });
    this.session = { v2: this.v2, ids: new IdResolver(this.v2, options.known), log: options.onRetry };
  }

  async call<E extends EndpointName>(
    endpoint: E,
    payload: PayloadOf<E>,
    options: CallOptions = {},
  ): Promise<Answered<E>> {
    if (isTranslated(endpoint)) {
      return this.translated(endpoint, payload as PayloadOf<typeof endpoint>) as Promise<Answered<E>>;
    }
    if (isPublic(endpoint)) return this.v1Public.call(endpoint, payload, options);
    throw new InputError(
      'api-version',
      `is v2, and ${endpoint} has no v2 form (v1 refuses a v2 key)`,
      words`Run this step over v1: ${nameOf('api-version')} v1, and ${nameOf('api-token')} the v1 organization token.`,
    );
  }

  /**
   * A translated call's answer as v1's client hands it over: the typed answer, and its text (the
   * `response` output) written only when it is read. No `onAnswer`: the answer is whole only once every
   * v2 call it needs has been answered, so a listing asks for its next page once this one is kept.
   */
  private async translated<E extends TranslatedEndpoint>(
    endpoint: E,
    payload: PayloadOf<E>,
  ): Promise<Answered<E>> {
    const translate = TRANSLATIONS[endpoint] as Translation<E>;
    const wire = await translate(this.session, payload);
    const isText = typeof wire === 'string';
    let text: string | undefined;
    // The service's clock, as a v1 answer carries it: the summaries' times are the service's over both.
    const serverTimeMs = this.v2.newestServerTimeMs;
    return {
      status: 200,
      contentType: isText ? 'text/plain' : 'application/json',
      get text() {
        return (text ??= isText ? wire : wire === undefined ? '' : JSON.stringify(wire));
      },
      json: isText ? undefined : wire,
      answer: typedAnswer(endpoint, isText ? undefined : wire),
      ...(serverTimeMs === undefined ? {} : { serverTimeMs }),
    };
  }
}
