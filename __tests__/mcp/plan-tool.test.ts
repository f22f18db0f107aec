// plan_queue_settings as an agent meets it, spoken to with raw JSON-RPC over stdio (the built server in a
// child process), over two and a half days of a queue on the emulator read through API v2. A plan is tens
// of replays: the server must report each candidate as a progress notification with the request's
// progressToken, go on answering other requests while it plans, and stop planning when the call is
// cancelled. No clock in the assertions: the order of the messages says it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Ajv from 'ajv';
import type { Scenario } from '../../emulator/scenario.js';
import { plannedPullRequests } from '../helpers/planner-history.js';
import { useEmulator } from '../helpers/emulator.js';
import { serverEnvironment } from '../helpers/mcp-client.js';
import { RawMcp, type RpcMessage } from '../helpers/raw-mcp.js';

const REPO = 'acme/plan-mcp';
const PRS = 330;
const GAP_MINUTES = 10;
// The tool reads the last days before now: the emulator's history ends a day before the real clock.
const START = Math.floor((Date.now() - 4 * 86_400_000) / 60_000) * 60_000;

/** PR n: 20-40 minute CI; every 20th a culprit, every 25th flaky once; one every 10 minutes. */
function scenario(): Scenario {
  const pullRequests = plannedPullRequests(REPO, PRS, (i) => i * GAP_MINUTES);
  return { queues: [{ repo: REPO, targetBranch: 'main', concurrency: 4 }], pullRequests };
}

const emulator = useEmulator({ startTime: START, scenario: scenario() });
const sessions: RawMcp[] = [];

beforeAll(async () => {
  await emulator.control('POST', '/clock/advance', { minutes: PRS * GAP_MINUTES + 600 });
});

afterAll(async () => {
  await Promise.all(sessions.map((session) => session.close()));
});

async function serve(): Promise<RawMcp> {
  const env = serverEnvironment(emulator, REPO, { MERGE_QUEUE_API_TOKEN: emulator.v2Key });
  const session = new RawMcp([], env);
  sessions.push(session);
  await session.open();
  return session;
}

/** Calls the tool with a progress token, as a client that wants progress does. */
function planWithProgress(session: RawMcp, token: string, args: Record<string, unknown> = {}) {
  return session.request('tools/call', {
    name: 'plan_queue_settings',
    arguments: { days: 7, ...args },
    _meta: { progressToken: token },
  });
}

const progressOf = (session: RawMcp, token: string) =>
  session.messages.filter(
    (m) => m.method === 'notifications/progress' && m.params?.progressToken === token,
  ) as (RpcMessage & { params: { progress: number; message: string } })[];

/** Waits for the progress notification saying a candidate was replayed. */
const candidateReplayed = (session: RawMcp, token: string) =>
  session.until(
    (m) =>
      m.method === 'notifications/progress' &&
      m.params?.progressToken === token &&
      /plan: \d+ of \d+ candidates replayed/.test(String(m.params?.message)),
  );

describe('plan_queue_settings over the MCP server', () => {
  it('sends a progress notification per candidate with the request’s token, and answers other requests while it plans', async () => {
    const session = await serve();
    const id = await planWithProgress(session, 'plan-1');
    await candidateReplayed(session, 'plan-1');
    // Asked while the plan still has candidates to replay: answered before the plan is.
    const listId = await session.request('tools/list');
    const list = await session.answer(listId);
    const answer = await session.answer(id);
    expect(session.messages.indexOf(list)).toBeLessThan(session.messages.indexOf(answer));
    expect(answer.result?.isError).toBeUndefined();
    const report = answer.result?.structuredContent as {
      fit: boolean;
      partial: unknown;
      candidates: unknown[];
    };
    expect(report.fit).toBe(true);
    expect(report.partial).toBeNull();
    // What an SDK client checks: the answer is valid against the tool's declared output schema.
    const tool = (list.result?.tools as { name: string; outputSchema: object }[]).find(
      (t) => t.name === 'plan_queue_settings',
    )!;
    const valid = new Ajv.default({ strict: false }).compile(tool.outputSchema);
    expect({ valid: valid(report), errors: valid.errors ?? null }).toEqual({ valid: true, errors: null });

    const notes = progressOf(session, 'plan-1');
    const replayed = notes.map((n) => /plan: (\d+) of (\d+)/.exec(n.params.message)).filter(Boolean);
    const total = Number(replayed[0]![2]);
    expect(total).toBeGreaterThan(10);
    expect(replayed.map((m) => Number(m![1]))).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    const steps = notes.map((n) => n.params.progress);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(new Set(steps).size).toBe(steps.length);
    // Every notification came before the answer.
    expect(session.messages.indexOf(notes.at(-1)!)).toBeLessThan(session.messages.indexOf(answer));
  });

  it('names whatIf, the argument the agent gave, when its setting or value is not one the model takes', async () => {
    const session = await serve();
    const said = async (whatIf: Record<string, unknown>) => {
      const answer = await session.answer(await session.callTool('plan_queue_settings', { days: 7, whatIf }));
      expect(answer.result?.isError).toBe(true);
      return (answer.result?.content as { text: string }[])[0]!.text;
    };
    const unknown = await said({ concurency: 6 });
    expect(unknown).toMatch(
      /^whatIf: "concurency" is not a setting the model varies\. Use \{ setting: value \} with one of concurrency, /,
    );
    expect(await said({ concurrency: 0 })).toMatch(/^whatIf: "0" is not a value of concurrency\./);
    expect(unknown).not.toContain('vary');
  });

  it('stops planning when the call is cancelled: no progress after, and the next call is answered', async () => {
    const session = await serve();
    const id = await planWithProgress(session, 'plan-2');
    await candidateReplayed(session, 'plan-2');
    await session.cancel(id);
    // Messages are read in order: once this is answered, the cancellation was handled before it.
    await session.answer(await session.request('tools/list'));
    const seen = progressOf(session, 'plan-2').length;
    const whatIf = await session.answer(
      await session.callTool('plan_queue_settings', { days: 7, whatIf: { concurrency: 6 } }),
    );
    expect(whatIf.result?.structuredContent).toMatchObject({ fit: true, partial: null });
    expect(progressOf(session, 'plan-2')).toHaveLength(seen);
    expect(session.messages.some((m) => m.id === id && (m.result || m.error))).toBe(false);
  });
});
