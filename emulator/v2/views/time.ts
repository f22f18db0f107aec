/** ISO 8601 of a virtual-clock instant. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
