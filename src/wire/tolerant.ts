// Tolerant reading. The service has sent UPPERCASE enums and older field names, and adds fields and enum
// values without notice: a reader accepts all of that, but not a wrong shape. The readers of values that
// need no schema are in readers.ts.
import { Kind, Type, type TSchema } from '@sinclair/typebox';
import { anyCaseEnum } from './common.js';
import { isObject } from './readers.js';

const readers = new WeakMap<TSchema, TSchema>();

/**
 * The schema to check an answer with: `schema` with every enum opened to any string (compare values with
 * `enumValue`; unknown ones are kept), string constants in any case, no formats, unknown fields allowed.
 * Types and required fields stay: a wrong shape is still refused.
 */
export function tolerant<T extends TSchema>(schema: T): T {
  let reader = readers.get(schema);
  if (!reader) readers.set(schema, (reader = loosen(schema)));
  return reader as T;
}

function loosen(schema: TSchema): TSchema {
  if (schema[Kind] === 'StringEnum') return Type.String();
  if (schema[Kind] === 'Literal' && typeof schema.const === 'string') return anyCaseEnum([schema.const]);
  const copy: Record<string | symbol, unknown> = {};
  for (const key of Reflect.ownKeys(schema)) {
    const value = (schema as unknown as Record<string | symbol, unknown>)[key];
    if (key === 'format' || (key === 'additionalProperties' && value === false)) continue;
    if (key === 'properties' && isObject(value)) {
      copy[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, loosen(v as TSchema)]));
    } else if (key === 'items' && isObject(value)) copy[key] = loosen(value as TSchema);
    else if ((key === 'anyOf' || key === 'allOf' || key === 'oneOf') && Array.isArray(value)) {
      copy[key] = value.map((v) => loosen(v as TSchema));
    } else copy[key] = value;
  }
  return copy as unknown as TSchema;
}
