// Tests that need a tool (helpers/tools.ts): run when it is here; otherwise skipped, with one line in the
// test output naming the tool and how to get it (a warning, and the skipped test's title). .ci/run installs
// every tool and sets TESTS_REQUIRE_TOOLS=1, under which a missing tool fails the test instead.
import { describe, expect, it } from '@jest/globals';
import { relative } from 'node:path';
import { missingTools, type Tool } from './tools.js';

const required = () => process.env.TESTS_REQUIRE_TOOLS === '1';
const said = new Set<string>();

/**
 * Straight to stderr, not console.warn: jest shows no console output of a file whose tests were all
 * skipped, and this is one line, not a stack.
 */
function sayOnce(line: string): void {
  if (said.has(line)) return;
  said.add(line);
  const file = expect.getState().testPath;
  process.stderr.write(`${file ? `${relative(process.cwd(), file)}: ` : ''}${line}\n`);
}

/** What is missing for `what`, said once; undefined when every tool is here. */
function skipLine(tools: Tool[], what: string): string | undefined {
  const missing = missingTools(tools);
  if (!missing) return undefined;
  const line = `skipped: ${what}: ${missing}`;
  if (!required()) sayOnce(line);
  return line;
}

/** A test that stands in for those `what` needs tools for: skipped, or failing under TESTS_REQUIRE_TOOLS. */
function standIn(line: string): void {
  if (required()) {
    it(line.replace(/^skipped: /, 'needs tools: '), () => {
      throw new Error(`${line.replace(/^skipped: /, '')} (TESTS_REQUIRE_TOOLS=1: every tool must be here)`);
    });
  } else {
    it.skip(line, () => undefined);
  }
}

/** describe(name, body) when every tool is here. */
export function describeWithTools(tools: Tool[], name: string, body: () => void): void {
  const line = skipLine(tools, name);
  if (line) describe(name, () => standIn(line));
  else describe(name, body);
}

/** it(name, test, timeout) when every tool is here. */
export function itWithTools(
  tools: Tool[],
  name: string,
  test: () => Promise<unknown> | void,
  timeout?: number,
): void {
  const line = skipLine(tools, name);
  if (line) standIn(line);
  else it(name, test, timeout);
}

/**
 * For one check inside a test: true when every tool is here. Otherwise the check is skipped, said once
 * (under TESTS_REQUIRE_TOOLS it throws).
 */
export function toolsFor(tools: Tool[], check: string): boolean {
  const line = skipLine(tools, check);
  if (line && required()) throw new Error(`${line.replace(/^skipped: /, '')} (TESTS_REQUIRE_TOOLS=1)`);
  return !line;
}
