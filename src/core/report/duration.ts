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
 * How long ago a timestamp from the service was, against the service's own time: "12m"; the timestamp as
 * given when it is not one or is ahead of that time.
 */
export function timeSince(timestamp: unknown, nowMs: number): string {
  if (typeof timestamp !== 'string') return '';
  const at = Date.parse(timestamp);
  return Number.isNaN(at) || at > nowMs ? timestamp : formatDuration(nowMs - at);
}
