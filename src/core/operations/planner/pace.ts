// A plan is seconds to minutes of replays: between two of them it hands the event loop back (an MCP
// server goes on reading its messages, sending progress, keeping its time) and stops when called off.

/** The plan was called off (an agent cancelled, or its time ran out) between two replays. */
export class PlanStopped extends Error {
  override name = 'PlanStopped';
}

export interface PlanPace {
  /** Each candidate replayed, as `done` of `total`. */
  progress?: (done: number, total: number) => void;
  /** Aborts when the plan should stop: it answers with the candidates replayed so far. */
  signal?: AbortSignal;
}

/** Yields to the event loop, then throws PlanStopped when the plan was called off. */
export async function between(pace: PlanPace): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (pace.signal?.aborted) throw new PlanStopped('the plan was called off');
}
