// What lint-impacted-targets-config finds, as data: lint.ts makes it, lint-summary.ts words it.

/** One part of the config and the tracked files it claims. */
export interface Claim {
  /** `barriers`, `inert`, `docs preset`, `rule <label>`, ... */
  by: string;
  /** What a change to one of its files impacts, in words. */
  impacts: string;
  count: number;
  /** The first few files it claims, in git's order. */
  examples: string[];
}

export interface LintReport {
  config: string;
  trackedCount: number;
  /** Every part of the config that claims files, in compute's order; each rule even when it claims none. */
  claims: Claim[];
  unclaimed: string[];
  /** What a file nothing claims impacts (the config's unmatched). */
  unclaimedImpacts: string;
  /** Globs that match no tracked file, each with where it is in the config. */
  unused: string[];
}
