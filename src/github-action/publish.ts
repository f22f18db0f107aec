// Writes a result where the runner reads it: step outputs and the job summary. Both pass through
// redact() so that no secret can leave through them, even one echoed back by the service.
import * as core from '@actions/core';
import type { OutputValue } from '../core/operations/types.js';
import { escapeMarkdown, type Markdown } from '../core/report/markdown.js';

export type Redact = (text: string) => string;

/**
 * Replaces every occurrence of the given secrets with `***`: as given, and as the summary and the
 * outputs may spell them once escaped (markdown, JSON, a URL), where the plain form no longer matches.
 */
export function redactor(secrets: (string | undefined)[]): Redact {
  const present = secrets.filter((s): s is string => !!s && s.length >= 4);
  const spellings = [
    ...new Set(
      present.flatMap((secret) => [
        secret,
        escapeMarkdown(secret),
        JSON.stringify(secret).slice(1, -1),
        encodeURIComponent(secret),
      ]),
    ),
  ].sort((a, b) => b.length - a.length);
  return (text) => spellings.reduce((out, spelling) => out.split(spelling).join('***'), text);
}

export function publishOutputs(outputs: Record<string, OutputValue>, redact: Redact): void {
  for (const [name, value] of Object.entries(outputs)) {
    core.setOutput(name, redact(String(value)));
  }
}

/** Appends the summary; a runner without a summary file gets a warning, not a failure. */
export async function publishSummary(summary: Markdown, redact: Redact): Promise<void> {
  try {
    await core.summary.addRaw(redact(summary.toString())).write();
  } catch (error) {
    core.warning(`The job summary was not written: ${(error as Error).message}`);
  } finally {
    core.summary.emptyBuffer();
  }
}
