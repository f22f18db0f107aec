#!/usr/bin/env node
// The CLI's entry point (the ncc bundle dist/cli/index.js, `merge-queue-action` in package.json's bin).
import { parseCommandLine } from './args.js';
import { runCli, stdoutCarriesData } from './main.js';

const argv = process.argv.slice(2);
if (argv[0] === 'mcp') {
  // The MCP server is a bundle of its own (dist/mcp/index.js, beside dist/cli/): only this command loads
  // it, and it reads the command line itself. The path is made at run time, so that the bundler neither
  // follows it nor copies the source as an asset.
  const server = import.meta.url.replace(/\/cli\/index\.(js|ts)$/, '/mcp/index.$1');
  await import(/* webpackIgnore: true */ server);
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
  });
}

function carriesData(args: string[]): boolean {
  try {
    return stdoutCarriesData(parseCommandLine(args));
  } catch {
    return false; // runCli says what is wrong with the command line
  }
}
