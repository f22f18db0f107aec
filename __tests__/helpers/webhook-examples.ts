// Real GitHub webhook payloads from @octokit/webhooks-examples, for tests and the demo.
import { createRequire } from 'node:module';
import type { WebhookDefinition } from '@octokit/webhooks-examples';

export type EventName = WebhookDefinition['name'];
export type Example<N extends EventName> = WebhookDefinition<N>['examples'][number];
export type ExampleSet = 'api.github.com' | 'ghes-35';

const require = createRequire(import.meta.url);

export function examples<N extends EventName>(name: N, server: ExampleSet = 'api.github.com'): Example<N>[] {
  const definitions = require(`@octokit/webhooks-examples/${server}/index.json`) as WebhookDefinition[];
  const definition = definitions.find((d) => d.name === name) as WebhookDefinition<N> | undefined;
  if (!definition) throw new Error(`no ${name} examples for ${server}`);
  return structuredClone(definition.examples);
}

/** The first example of the event that matches, as a fresh copy. */
export function example<N extends EventName>(
  name: N,
  matches: (payload: Example<N>) => boolean = () => true,
  server: ExampleSet = 'api.github.com',
): Example<N> {
  const found = examples(name, server).find(matches);
  if (!found) throw new Error(`no matching ${name} example for ${server}`);
  return found;
}
