#!/usr/bin/env node
// The CLI's entry point (the ncc bundle dist/cli/index.js, `merge-queue-action` in package.json's bin).
import { runCli } from './main.js';

const json = process.argv.includes('--json');
// Under --json, stdout carries only the result: anything else a host writes there (the GitHub Actions
// host's workflow commands) goes to stderr, which the runner reads too.
const stdout = process.stdout.write.bind(process.stdout);
if (json) process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

process.exitCode = await runCli({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdout: { write: (text: string) => stdout(text) },
  stderr: process.stderr,
  stdoutIsTerminal: process.stdout.isTTY === true,
});
