// The form of each id v2 puts in a path, by the resource it names. An id from an input or from an answer
// is checked against its form before it is sent, and is then always exactly one path segment: `.`,
// `..`, `/`, `?`, `#` and `%` are outside every form, so no id can change the route it is sent to.

export interface IdForm {
  /** What the id is, for messages: `a merge queue id (letters, digits, _ and -)`. */
  readonly what: string;
  readonly pattern: RegExp;
}

const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
/** An id the document leaves opaque: letters and digits first, then also `_ . : ~ -`, at most 200. */
const OPAQUE = /^[A-Za-z0-9][A-Za-z0-9_.:~-]{0,199}$/;

export const ID_FORMS = {
  repository: { what: 'a repository id (a uuid)', pattern: UUID },
  mergeQueue: { what: 'a merge queue id (letters, digits, _ and -)', pattern: /^[A-Za-z0-9_-]{1,64}$/ },
  pullRequest: { what: 'a pull request id (a uuid)', pattern: UUID },
  verificationRun: { what: 'a verification run id (letters, digits, _ . : ~ -)', pattern: OPAQUE },
  testCollection: { what: 'a test collection id (8 letters and digits)', pattern: /^[0-9A-Za-z]{8}$/ },
  testCase: { what: 'a test case id (letters, digits, _ . : ~ -)', pattern: OPAQUE },
} as const satisfies Record<string, IdForm>;

export type IdKind = keyof typeof ID_FORMS;

/** The resource a path's placeholder names, by the collection segment before it. */
const KIND_OF_COLLECTION: Record<string, IdKind> = {
  repositories: 'repository',
  'merge-queues': 'mergeQueue',
  'pull-requests': 'pullRequest',
  'merge-queue-verification-runs': 'verificationRun',
  'test-collections': 'testCollection',
  'test-cases': 'testCase',
};

/** The form of the placeholder `{name}` in `path`, or undefined when no collection names it. */
export function idFormIn(path: string, name: string): IdForm | undefined {
  const segments = path.split('/');
  const at = segments.indexOf(`{${name}}`);
  const kind = at > 0 ? KIND_OF_COLLECTION[segments[at - 1] as string] : undefined;
  return kind && ID_FORMS[kind];
}

export function isIdOf(kind: IdKind, value: unknown): value is string {
  return typeof value === 'string' && ID_FORMS[kind].pattern.test(value);
}
