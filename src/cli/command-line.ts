// The CLI's command run (index.ts loads it for any command but mcp): the command line, the terminal's
// streams and pager, and the exit code.
import { parseCommandLine } from './args.js';
import { runCli, stdoutCarriesData } from './main.js';
import { pageOnTerminal } from './pager.js';

const argv = process.argv.slice(2);
process.exitCode = await runCommand();

async function runCommand(): Promise<number> {
  const isTTY = process.stdout.isTTY === true;
  // When stdout carries a result (--json, a file given as -), anything else a host writes there (the GitHub
  // Actions host's workflow commands) goes to stderr, which the runner reads too.
  const stdout = process.stdout.write.bind(process.stdout);
  if (carriesData(argv)) {
    process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  }
  return runCli({
    argv,
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
    stdout: { write: (text: string) => stdout(text), isTTY },
    stderr: process.stderr,
    page: (text) => pageOnTerminal(text, process.env),
  });
}

function carriesData(args: string[]): boolean {
  try {
    return stdoutCarriesData(parseCommandLine(args));
  } catch {
    return false; // runCli says what is wrong with the command line
  }
}
