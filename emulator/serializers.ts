// Answers are written from the wire's response schemas by fastify's schema-based serializer
// (fast-json-stringify): code compiled from the schema writes each field it names, several times faster than
// JSON.stringify walking the object. It writes only the fields the schema names and coerces values to their
// declared types, so the suite checks, for every answer it sees, that it says what JSON.stringify would have
// said (see observe.ts).
import type { FastifyRequest } from 'fastify';
import fastJson from 'fast-json-stringify';
import type { TSchema } from '@sinclair/typebox';
import { ENDPOINTS, type EndpointName, type ResponseOf } from '../src/wire/index.js';
import { noteSchemaAnswer, observed } from './observe.js';

/** The endpoints whose 200 answer has a schema. */
export type AnsweringEndpoint = {
  [E in EndpointName]: (typeof ENDPOINTS)[E] extends { response: TSchema } ? E : never;
}[EndpointName];

type Serializer = (value: unknown) => string;

/** Compiled once per process: every emulator in it shares them. */
const compiled = new Map<EndpointName, Serializer>();

function serializerOf(endpoint: AnsweringEndpoint): Serializer {
  let serialize = compiled.get(endpoint);
  if (!serialize) {
    serialize = fastJson(ENDPOINTS[endpoint].response) as Serializer;
    compiled.set(endpoint, serialize);
  }
  return serialize;
}

/**
 * The writer of an endpoint's answers: compiles the schema now (when the route is registered), and for
 * each answer returns its JSON text. `request` lets the observers compare it with JSON.stringify's.
 */
export function answerWriter<E extends AnsweringEndpoint>(
  endpoint: E,
): (value: ResponseOf<E>, request: FastifyRequest) => string {
  const serialize = serializerOf(endpoint);
  return (value, request) => {
    if (observed()) noteSchemaAnswer(request.raw, JSON.stringify(value));
    return serialize(value);
  };
}
