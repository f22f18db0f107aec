// The runner's workflow commands (`::error title=...,file=...::message`), written to stdout, escaped as
// the runner reads them. These few lines stand in for @actions/core, whose import alone brings
// @actions/http-client and undici (for OIDC tokens this action never asks for): some 400 kB that every
// run would load and compile before its first request.
import { EOL } from 'node:os';

/** Where the runner places an annotation: the properties of `::error`, `::warning` and `::notice`. */
export interface CommandProperties {
  title?: string;
  file?: string;
  line?: number;
}

/** Writes `::<command> <properties>::<message>`; properties that are empty or absent are left out. */
export function issueCommand(command: string, properties: CommandProperties, message: string): void {
  const given = Object.entries(properties).filter(([, value]) => value !== undefined && value !== '');
  const list = given.map(([name, value]) => `${name}=${escapeProperty(String(value))}`).join(',');
  process.stdout.write(`::${command}${list ? ` ${list}` : ''}::${escapeData(message)}${EOL}`);
}

/** A plain log line (no command). */
export function info(message: string): void {
  process.stdout.write(`${message}${EOL}`);
}

/** Runs `work` inside a collapsible group of the log. */
export async function group<T>(title: string, work: () => Promise<T>): Promise<T> {
  issueCommand('group', {}, title);
  try {
    return await work();
  } finally {
    issueCommand('endgroup', {}, '');
  }
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
