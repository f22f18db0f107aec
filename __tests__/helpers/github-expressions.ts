// GitHub Actions expressions (`${{ ... }}`, and `if:` conditions) evaluated by GitHub's own evaluator,
// @actions/expressions (the one its workflow language service uses), over the contexts a job has. The
// runner's status functions (success(), failure(), always(), cancelled()) are supplied here, and an `if:`
// without one is read as `success() && (...)`, as the runner reads it.
import { Evaluator, Lexer, Parser, data } from '@actions/expressions';
import { truthy } from '@actions/expressions/result';

export type Contexts = Record<string, unknown>;

const CONTEXT_NAMES = ['github', 'env', 'vars', 'secrets', 'inputs', 'steps', 'needs', 'runner', 'job'];
const STATUS_CALL = /\b(success|failure|always|cancelled)\s*\(/;

function statusFunctions(failed: boolean) {
  const answers: [string, boolean][] = [
    ['success', !failed],
    ['failure', failed],
    ['always', true],
    ['cancelled', false],
  ];
  return new Map(
    answers.map(([name, answer]) => [
      name,
      { name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(answer) },
    ]),
  );
}

function evaluate(expression: string, contexts: Contexts, failed: boolean): data.ExpressionData {
  const lexed = new Lexer(expression).lex();
  const functions = statusFunctions(failed);
  const tree = new Parser(lexed.tokens, CONTEXT_NAMES, [...functions.values()]).parse();
  const context = JSON.parse(JSON.stringify(contexts), data.reviver) as data.Dictionary;
  return new Evaluator(tree, context, functions).evaluate();
}

/** A string with each `${{ expression }}` replaced by its value as a string. */
export function interpolate(text: string, contexts: Contexts): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expression: string) =>
    evaluate(expression, contexts, false).coerceString(),
  );
}

/** Every string in a value (a `with:` or `env:` map) interpolated. */
export function interpolateAll(values: Record<string, unknown> | undefined, contexts: Contexts) {
  return Object.fromEntries(
    Object.entries(values ?? {}).map(([name, value]) => [name, interpolate(String(value), contexts)]),
  );
}

/** Whether a job's or step's `if:` holds; `failed` says whether what came before it failed. */
export function condition(source: unknown, contexts: Contexts, failed: boolean): boolean {
  const text = source === undefined ? 'success()' : String(source).trim();
  const expression = /^\$\{\{([\s\S]*)\}\}$/.exec(text)?.[1] ?? text;
  const holds = truthy(evaluate(expression, contexts, failed));
  return STATUS_CALL.test(expression) ? holds : !failed && holds;
}
