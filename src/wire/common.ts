// Pieces every part of the wire shares: enum schemas (exact for what we write, any case for what we
// read), the repository reference, paging and formats.
import { FormatRegistry, Kind, Type, TypeRegistry, type Static, type TUnsafe } from '@sinclair/typebox';

export const UINT32_MAX = 4294967295;
export const PositiveInt = Type.Integer({ minimum: 1, maximum: UINT32_MAX });

const STRING_ENUM = 'StringEnum';
TypeRegistry.Set<{ enum: readonly string[] }>(
  STRING_ENUM,
  (schema, value) => typeof value === 'string' && schema.enum.includes(value),
);

/**
 * A string enum exactly as the service writes it: plain JSON Schema `{type: 'string', enum}` (what ajv
 * and fastify's serializer read), checked by TypeBox too.
 */
export function exactEnum<const T extends readonly string[]>(values: T): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ [Kind]: STRING_ENUM, type: 'string', enum: [...values] });
}

/** A string enum typed as the given values (what we send) that accepts any case on input. */
export function anyCaseEnum<const T extends readonly string[]>(values: T): TUnsafe<T[number]> {
  const anyCase = (value: string) =>
    [...value]
      .map((c) =>
        c.toLowerCase() === c.toUpperCase() ? escapeRegex(c) : `[${c.toLowerCase()}${c.toUpperCase()}]`,
      )
      .join('');
  return Type.Unsafe<T[number]>(Type.String({ pattern: `^(?:${values.map(anyCase).join('|')})$` }));
}

function escapeRegex(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// The formats the spec uses, so that TypeBox checks them as ajv does (ajv-formats' fast mode).
const FORMATS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:?\d{2})$/,
  uuid: /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i,
  uri: /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/)?[^\s]*$/i,
};
for (const [name, pattern] of Object.entries(FORMATS)) {
  if (!FormatRegistry.Has(name)) FormatRegistry.Set(name, (value) => pattern.test(value));
}

export const DateTime = Type.String({ format: 'date-time' });
export const Uuid = Type.String({ format: 'uuid' });
export const Uri = Type.String({ format: 'uri' });

export const Repo = Type.Object({
  host: Type.String({ minLength: 1 }),
  owner: Type.String({ minLength: 1 }),
  name: Type.String({ minLength: 1 }),
});
export type Repo = Static<typeof Repo>;

export const PageQuery = Type.Object({
  page_size: Type.Integer({ minimum: 1, maximum: 100 }),
  page_token: Type.Optional(Type.String()),
});
export const Page = Type.Object({
  total_rows: Type.Number({ minimum: 0 }),
  total_pages: Type.Number({ minimum: 0 }),
  page_index: Type.Number({ minimum: 0 }),
  next_page_token: Type.String(),
  prev_page_token: Type.String(),
  last_page_token: Type.String(),
});
export type Page = Static<typeof Page>;

/** A string or null, as the spec's `type: ["string", "null"]`. */
export const NullableString = Type.Union([Type.String(), Type.Null()]);
