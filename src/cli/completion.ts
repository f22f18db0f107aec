// `merge-queue-action completion bash|zsh|fish`: a script for the shell to source, completing the
// operations, each operation's flags (its inputs, the common ones and the CLI's own) and the values of a
// flag that takes one of a few. Made from the registry, so a new operation or input completes at once.
import { COMMON_INPUTS, type InputSpec, OPERATION_NAMES, OPERATIONS } from '../core/index.js';
import { CLI_FLAGS } from './args.js';
import { COMMAND } from './help.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

const COMMANDS = [...OPERATION_NAMES, 'help', 'completion'];

function inputsOf(operation: string): InputSpec[] {
  const own = (OPERATIONS as Record<string, { inputs: readonly InputSpec[] }>)[operation]?.inputs ?? [];
  const byName = new Map([...COMMON_INPUTS, ...own].map((spec) => [spec.name, spec]));
  byName.delete('operation');
  return [...byName.values()];
}

function flagsOf(operation: string): string[] {
  const inputs = inputsOf(operation).flatMap((spec) =>
    spec.boolean ? [`--${spec.name}`, `--no-${spec.name}`] : [`--${spec.name}`],
  );
  return [...inputs, ...Object.keys(CLI_FLAGS).map((flag) => `--${flag}`)];
}

/** Each operation's flags that take one of a few values, as `operation:--flag` with those values. */
function valuedFlags(): [string, readonly string[]][] {
  return OPERATION_NAMES.flatMap((operation) =>
    inputsOf(operation).flatMap((spec) =>
      spec.values ? [[`${operation}:--${spec.name}`, spec.values] as [string, readonly string[]]] : [],
    ),
  );
}

const FUNCTION = '_merge_queue_action';

function bash(): string {
  const flags = OPERATION_NAMES.map((op) => `    ${op}) flags="${flagsOf(op).join(' ')}" ;;`);
  const values = valuedFlags().map(([key, list]) => `    ${key}) words="${list.join(' ')}" ;;`);
  return `# bash completion for ${COMMAND}: source this file, or add to ~/.bashrc:
#   source <(${COMMAND} completion bash)
${FUNCTION}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" words="" flags=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${COMMANDS.join(' ')}" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}:$prev" in
${values.join('\n')}
  esac
  if [ -n "$words" ]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${flags.join('\n')}
    help) flags="${OPERATION_NAMES.join(' ')}" ;;
    completion) flags="${SHELLS.join(' ')}" ;;
  esac
  COMPREPLY=($(compgen -W "$flags" -- "$cur"))
}
complete -F ${FUNCTION} ${COMMAND}
`;
}

function zsh(): string {
  const flags = OPERATION_NAMES.map((op) => `    ${op}) compadd -- ${flagsOf(op).join(' ')} ;;`);
  const values = valuedFlags().map(
    ([name, list]) => `    --${name}) compadd -- ${list.join(' ')}; return ;;`,
  );
  return `#compdef ${COMMAND}
# zsh completion for ${COMMAND}: source <(${COMMAND} completion zsh), after compinit.
${FUNCTION}() {
  if (( CURRENT == 2 )); then
    compadd -- ${COMMANDS.join(' ')}
    return
  fi
  case "\${words[2]}:\${words[CURRENT-1]}" in
${values.join('\n')}
  esac
  case "\${words[2]}" in
${flags.join('\n')}
    help) compadd -- ${OPERATION_NAMES.join(' ')} ;;
    completion) compadd -- ${SHELLS.join(' ')} ;;
  esac
}
compdef ${FUNCTION} ${COMMAND}
`;
}

function fish(): string {
  const lines = [
    `# fish completion for ${COMMAND}: ${COMMAND} completion fish | source`,
    `complete -c ${COMMAND} -f`,
    `complete -c ${COMMAND} -n '__fish_use_subcommand' -a '${COMMANDS.join(' ')}'`,
    `complete -c ${COMMAND} -n '__fish_seen_subcommand_from completion' -a '${SHELLS.join(' ')}'`,
  ];
  for (const operation of OPERATION_NAMES) {
    for (const spec of inputsOf(operation)) {
      const values = spec.values ? ` -r -a '${spec.values.join(' ')}'` : '';
      lines.push(
        `complete -c ${COMMAND} -n '__fish_seen_subcommand_from ${operation}' -l ${spec.name}${values}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const SCRIPTS: Record<Shell, () => string> = { bash, zsh, fish };

/** The script for `shell`, or undefined for a shell this does not know. */
export function completionScript(shell: string | undefined): string | undefined {
  return (SHELLS as readonly string[]).includes(shell ?? '') ? SCRIPTS[shell as Shell]() : undefined;
}
