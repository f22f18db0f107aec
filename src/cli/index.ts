#!/usr/bin/env node
// The CLI's entry point (the ncc bundle dist/cli/index.js, `merge-queue-action` in package.json's bin).
import { parseCommandLine } from './args.js';
import { runCli, stdoutCarriesData } from './main.js';
import { pageOnTerminal } from './pager.js';

const argv = process.argv.slice(2);
if (argv[0] === 'mcp') {
  // The MCP server is chunks of this bundle that only this command loads (the code it shares with the
  // CLI is in the package once); it reads the command line itself.
  await import('../mcp/index.js');
} else {
  process.exitCode = await runCommand();
}

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
