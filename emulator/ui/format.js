// Small pieces of the page's text: escaping (every value shown comes from outside, PR titles and authors
// included), durations as a person says them, and UTC times for hovering.

export const esc = (value) =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

/** "2026-11-25 23:44:10 UTC" from an ISO 8601 instant. */
export const utc = (iso) => `${String(iso).replace('T', ' ').slice(0, 19)} UTC`;

/** How long from one ISO instant to another, as "under a minute", "12 min", "3 h 5 min" or "2 d 4 h". */
export function duration(fromIso, toIso) {
  const minutes = Math.max(0, Math.floor((Date.parse(toIso) - Date.parse(fromIso)) / 60_000));
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** A duration that shows the instant it counts from, in UTC, on hover. */
export const since = (iso, now, suffix = '') =>
  `<time class="in-state" datetime="${esc(iso)}" title="${esc(`since ${utc(iso)}`)}">${esc(duration(iso, now))}${suffix}</time>`;

/** Words with their code on hover: a PR's state or reason. */
export const worded = (value, className) =>
  value
    ? `<span class="${className} ${esc(value.code)}" title="${esc(value.code)}">${esc(value.words)}</span>`
    : '';

/** "#12, #13" */
export const prList = (numbers) => numbers.map((n) => `#${esc(n)}`).join(', ');
