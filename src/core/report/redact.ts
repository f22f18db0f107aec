// Hiding secrets from everything that leaves the run: log lines, outputs, summaries, report files.
import { escapeMarkdown } from './markdown.js';

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
