// Durations as a person reads them: "1h 47m", "12m", "4m 30s", "45s".

export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (hours) return minutes ? `${hours}h ${minutes}m` : `${hours}h`;
  if (minutes >= 10 || (minutes && !rest)) return `${minutes}m`;
  if (minutes) return `${minutes}m ${rest}s`;
  return `${rest}s`;
}

/** A clock time of day in UTC, "14:05 UTC", for the one place where a time beats a duration. */
export function formatTimeOfDay(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}

/**
 * A moment in a table cell: "3h ago, 2026-01-05 08:00 UTC" (how long ago first, the time to the minute
 * after); '' when it is not a time.
 */
export function agoAt(timestamp: unknown, nowMs: number): string {
  const since = timeSince(timestamp, nowMs);
  if (!since) return '';
  const at = new Date(Date.parse(timestamp as string)).toISOString();
  const when = since === 'just now' ? since : `${since} ago`;
  return `${when}, ${at.slice(0, 10)} ${at.slice(11, 16)} UTC`;
}

/**
 * How long ago a timestamp from the service was, against the service's own time: "12m"; "just now" when
 * it is ahead of that time (two clocks), '' when it is not a time.
 */
export function timeSince(timestamp: unknown, nowMs: number): string {
  if (typeof timestamp !== 'string') return '';
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return '';
  return at > nowMs ? 'just now' : formatDuration(nowMs - at);
}

const DAY_MS = 24 * 3600 * 1000;

/** How long a state has lasted, in whole days as the nightly report says it: "today", "1 day", "22 days". */
export function formatDaysSince(timestamp: unknown, nowMs: number): string {
  const at = typeof timestamp === 'string' ? Date.parse(timestamp) : NaN;
  if (Number.isNaN(at)) return '';
  const days = Math.floor((nowMs - at) / DAY_MS);
  return days <= 0 ? 'today' : days === 1 ? '1 day' : `${days} days`;
}
