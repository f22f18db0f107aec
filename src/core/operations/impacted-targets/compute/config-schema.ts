// The targets config, as one schema: every key, its type, and what the error says is expected. The
// config is validated against it before anything else is read, and unknown keys are refused by name.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

const strict = { additionalProperties: false } as const;

const Glob = Type.String({ minLength: 1, description: 'a glob (a non-empty string)' });
const Globs = Type.Union([Glob, Type.Array(Glob, { minItems: 1 })], {
  description: 'a glob or a list of globs',
});
const Target = Type.String({ minLength: 1, description: 'a target name (a non-empty string)' });

const Rule = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, description: 'a name for the rule' })),
    match: Globs,
    exclude: Type.Optional(Globs),
    targets: Type.Array(Target, { description: 'a list of target names' }),
  },
  { ...strict, description: 'a rule: match, targets, and optionally exclude and name' },
);

const Unmatched = Type.Union(
  [
    Type.Literal('all'),
    Type.Literal('ignore'),
    Type.Object({ target: Target }, { ...strict, description: '{ target: <name> }' }),
  ],
  { description: 'all, ignore, or { target: <name> }' },
);

const Workspaces = Type.Object(
  {
    target: Type.Optional(
      Type.String({ minLength: 1, description: 'a target template using {name} and/or {dir}' }),
    ),
    depth: Type.Optional(Type.Union([Type.Literal(1), Type.Literal('all')], { description: '1 or all' })),
    root: Type.Optional(Target),
    tests: Type.Optional(Type.Array(Glob, { description: 'a list of globs' })),
    implicit: Type.Optional(
      Type.Record(Type.String({ minLength: 1 }), Globs, {
        description: 'a map of package name to the globs of its implicit dependents',
      }),
    ),
    peers: Type.Optional(
      Type.Union([Type.Literal('follow'), Type.Literal('ignore')], { description: 'follow or ignore' }),
    ),
    lockfile: Type.Optional(
      Type.Union([Type.Literal('resolved'), Type.Literal('root'), Type.Literal('ignore')], {
        description: 'resolved, root or ignore',
      }),
    ),
    renames: Type.Optional(
      Type.Union([Type.Literal('new-path'), Type.Literal('both')], { description: 'new-path or both' }),
    ),
  },
  {
    ...strict,
    description: 'workspace dependents: target, depth, root, tests, implicit, peers, lockfile and renames',
  },
);

const Command = Type.Object(
  {
    run: Type.Array(Type.String({ minLength: 1, description: 'a program or an argument' }), {
      minItems: 1,
      description: 'the command as a list: the program, then its arguments',
    }),
    'timeout-seconds': Type.Optional(
      Type.Integer({ minimum: 1, maximum: 3600, description: 'a whole number of seconds from 1 to 3600' }),
    ),
  },
  { ...strict, description: 'a command: run and timeout-seconds' },
);

export const TargetsConfigSchema = Type.Object(
  {
    version: Type.Optional(Type.Literal(1, { description: '1' })),
    rules: Type.Optional(Type.Array(Rule, { description: 'a list of rules' })),
    barriers: Type.Optional(Type.Array(Glob, { description: 'a list of globs' })),
    inert: Type.Optional(Type.Array(Glob, { description: 'a list of globs' })),
    'inert-target': Type.Optional(Target),
    unmatched: Type.Optional(Unmatched),
    'deleted-unmatched': Type.Optional(
      Type.Union([Type.Literal('all'), Type.Literal('like-unmatched')], {
        description: 'all or like-unmatched',
      }),
    ),
    groups: Type.Optional(
      Type.Record(Type.String({ minLength: 1 }), Type.Array(Target, { description: 'a list of targets' }), {
        description: 'a map of group name to a list of targets',
      }),
    ),
    dependents: Type.Optional(
      Type.Object(
        { workspaces: Type.Optional(Workspaces), command: Type.Optional(Command) },
        { ...strict, description: 'dependents: workspaces and/or command' },
      ),
    ),
    docs: Type.Optional(
      Type.Union(
        [
          Type.Literal('ignore'),
          Type.Object({ target: Target }, { ...strict, description: '{ target: <name> }' }),
        ],
        { description: 'ignore or { target: <name> }' },
      ),
    ),
    'merge-queue-target': Type.Optional(Target),
    'max-targets': Type.Optional(Type.Integer({ minimum: 1, description: 'a whole number of at least 1' })),
  },
  { ...strict, description: 'the targets config (a YAML mapping)' },
);

export type TargetsConfigDocument = Static<typeof TargetsConfigSchema>;
export type RuleDocument = Static<typeof Rule>;

/** The sub-schema at a path of the document (numeric segments step into arrays), if the path has one. */
export function schemaAt(path: readonly string[]): TSchema | undefined {
  let schema: TSchema | undefined = TargetsConfigSchema;
  for (const segment of path) {
    schema = schema && childSchema(schema, segment);
  }
  return schema;
}

function childSchema(schema: TSchema, segment: string): TSchema | undefined {
  if (schema.anyOf) {
    for (const option of schema.anyOf as TSchema[]) {
      const child = childSchema(option, segment);
      if (child) return child;
    }
    return undefined;
  }
  if (schema.type === 'object' && schema.properties) {
    return (schema.properties as Record<string, TSchema>)[segment];
  }
  if (schema.type === 'object' && schema.patternProperties) {
    return Object.values(schema.patternProperties as Record<string, TSchema>)[0];
  }
  if (schema.type === 'array' && /^\d+$/.test(segment)) return schema.items as TSchema;
  return undefined;
}

/** The keys a mapping at this place may hold, for the error about an unknown one. */
export function allowedKeys(schema: TSchema | undefined): string[] {
  if (!schema) return [];
  if (schema.anyOf) return (schema.anyOf as TSchema[]).flatMap(allowedKeys);
  if (schema.type === 'object' && schema.properties) return Object.keys(schema.properties);
  return [];
}
