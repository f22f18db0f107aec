// A child process that runs the action in-process (runAction) once per message, so that a test can run
// many actions at the same time: runAction swaps process.env and stdout, which only one run per process
// may do. Bundled and started by ActionPool; answers each { id, options } with { id, run }.
import { runAction, type RunOptions } from './action-runner.js';

interface Job {
  id: number;
  options: RunOptions;
}

process.on('message', (job: Job) => {
  void runAction(job.options).then(
    (run) => process.send?.({ id: job.id, run }),
    (error: unknown) => process.send?.({ id: job.id, crash: String((error as Error)?.stack ?? error) }),
  );
});
process.send?.({ ready: true });
