// Colour by meaning: green for what went well, red for what failed, yellow for what waits, dim for
// details. Node's own util.styleText writes the escape codes; whether to use them is decided once, by
// the caller, and a page made without colour has no escape code at all.
import { styleText } from 'node:util';

export type Tone = 'good' | 'bad' | 'waiting' | 'muted' | 'strong' | 'plain';

type Format = Extract<Parameters<typeof styleText>[0], string>;

const FORMATS: Record<Exclude<Tone, 'plain'>, Format> = {
  good: 'green',
  bad: 'red',
  waiting: 'yellow',
  muted: 'dim',
  strong: 'bold',
};

/** Paints text in a tone, or leaves it as it is when colour is off. */
export type Paint = (text: string, tone: Tone, bold?: boolean) => string;

export function painter(colour: boolean): Paint {
  if (!colour) return (text) => text;
  return (text, tone, bold = false) => {
    if (!text) return text;
    const formats: Format[] = tone === 'plain' ? [] : [FORMATS[tone]];
    if (bold && tone !== 'strong') formats.push('bold');
    return formats.length ? styleText(formats, text) : text;
  };
}

const PR_STATE_TONES: Record<string, Tone> = {
  MERGED: 'good',
  TESTS_PASSED: 'good',
  FAILED: 'bad',
  CANCELLED: 'muted',
  PENDING_FAILURE: 'bad',
  PENDING: 'waiting',
  TESTING: 'waiting',
  NOT_READY: 'waiting',
};

/** A PR state (any case) in its tone. */
export function prStateTone(state: string): Tone {
  return PR_STATE_TONES[state.toUpperCase()] ?? 'plain';
}

const QUEUE_STATE_TONES: Record<string, Tone> = {
  RUNNING: 'good',
  PAUSED: 'waiting',
  DRAINING: 'waiting',
  SWITCHING_MODES: 'waiting',
};

export function queueStateTone(state: string): Tone {
  return QUEUE_STATE_TONES[state.toUpperCase()] ?? 'plain';
}
