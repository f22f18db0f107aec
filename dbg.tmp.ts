import { MergeQueueEngine, EmulatorError } from './src/emulator/engine/engine.js';
const repo = { host: 'github.com', owner: 'prop', name: 'queue' };
const [commands, seed, settings] = JSON.parse(process.argv[2]!);
const e = new MergeQueueEngine({ seed });
e.createQueue(repo, 'main');
e.updateQueue(repo, 'main', settings);
let sha = 1;
const dump = () => { for (const h of e.history.splice(0)) console.log(new Date(h.at).toISOString().slice(11, 16), JSON.stringify(h.kind === 'run' ? [h.runKind, h.status, h.prNumbers, h.reason, h.runId.slice(0,4)] : [h.prNumber, h.from, h.to, h.reason, h.runId?.slice(0,4)])); };
for (const c of commands) {
  try {
    switch (c.kind) {
      case 'submit': e.submitPullRequest(repo, 'main', c.pr, { ...(c.priority !== undefined ? { priority: c.priority } : {}), ...(c.noBatch !== undefined ? { noBatch: c.noBatch } : {}) }); break;
      case 'cancel': e.cancelPullRequest(repo, 'main', c.pr); break;
      case 'restart': e.restartTestsOnPullRequest(repo, 'main', c.pr); break;
      case 'targets': e.setImpactedTargets(repo, c.pr, c.fresh ? `sha-${sha++}` : e.core.pullRequest(repo, c.pr).headSha, c.targets); break;
      case 'newSha': e.setPullRequest(repo, c.pr, { headSha: `sha-${sha++}` }); break;
      case 'update': e.updateQueue(repo, 'main', c.settings); break;
      case 'ci': e.ci.set('github.com/prop/queue', c.pr, { outcome: c.outcome, durationMs: c.durationMinutes * 60000 }); break;
      case 'advance': e.advance(c.minutes * 60000); break;
    }
  } catch (err) { if (!(err instanceof EmulatorError)) throw err; console.log('  refused', c.kind, (err as Error).message); }
  console.log('--', JSON.stringify(c)); dump();
}
e.updateQueue(repo, 'main', { state: 'running' });
e.runUntilIdle(30 * 24 * 3600_000);
console.log('-- final'); dump();
const q = e.findQueue(repo, 'main')!;
for (const s of q.live) console.log(s.prNumber, s.state, s.position, !!s.bisection, s.pendingSince, s.run?.id.slice(0,4), s.run?.status);
console.log(q.state, q.settings, q.batchTimerAt, e.clock.now(), [...q.liveRuns].map(r => [r.id.slice(0,4), r.status, r.members.map(m=>m.prNumber)]));
