// How the MCP server's messages name an input: the tool's argument when the call gave it (`prNumber`),
// else the server's own option or variable, which whoever started the server set.
import type { Wording } from '../core/index.js';

/** The tool argument that carries an input: `pr-number` is `prNumber`. */
export function argumentOf(input: string): string {
  return input.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function serverOption(input: string): string {
  if (input === 'api-token') return 'MERGE_QUEUE_API_TOKEN or TRUNK_API_TOKEN in the server’s environment';
  return `--${input} or MERGE_QUEUE_${input.toUpperCase().replace(/-/g, '_')} when starting the server`;
}

/** The wording of one tool call, which gave the inputs in `fromArguments`. */
export function mcpWording(fromArguments: ReadonlySet<string>): Wording {
  const byArgument = (input: string) => fromArguments.has(input);
  return {
    subject: (input) => (byArgument(input) ? `Argument ${argumentOf(input)}` : serverOption(input)),
    name: (input) =>
      byArgument(input)
        ? argumentOf(input)
        : input === 'api-token'
          ? 'MERGE_QUEUE_API_TOKEN'
          : `the server’s --${input}`,
    give: (input) =>
      byArgument(input) ? `give the ${argumentOf(input)} argument` : `give ${serverOption(input)}`,
    // The agent cannot fix a token: the person who set the server up gives it in its environment.
    reach: (input) =>
      input === 'api-token'
        ? 'MERGE_QUEUE_API_TOKEN (or TRUNK_API_TOKEN) is set in the env of this server’s entry in the agent’s MCP settings'
        : `${serverOption(input)} is given`,
    supply: () =>
      'set MERGE_QUEUE_API_TOKEN (or TRUNK_API_TOKEN) to your organization API token in the env of this server’s entry in the agent’s MCP settings, then restart the server',
    again: 'call the tool again',
    // No tool creates or administers a queue: a person runs the CLI.
    operation: (name) => `a person runs \`merge-queue-action ${name}\``,
  };
}
