// Runs many actions at once, each the way runAction does, in a few long-lived child processes (see
// action-worker.ts). The worker is bundled once with esbuild (which tsx brings), so that a child starts
// in a fraction of the time it takes to load the sources through a TypeScript loader. A run that outlives
// its watchdog is reported as hung and its child replaced, so that a hanging action shows up as a failed
// check instead of stalling the suite.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { ActionRun, RunOptions } from './action-runner.js';

const WORKER_SOURCE = join(process.cwd(), '__tests__', 'helpers', 'action-worker.ts');

export interface PooledRun extends ActionRun {
  /** What the action wrote to stderr meanwhile (nothing, normally). */
  stderr: string;
  /** The run did not end before the watchdog. */
  hung: boolean;
  seconds: number;
}

interface Worker {
  child: ChildProcess;
  stderr: string;
  ready: Promise<void>;
}

interface Reply {
  id?: number;
  run?: ActionRun;
  crash?: string;
  ready?: boolean;
}

export class ActionPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: ((worker: Worker) => void)[] = [];
  private readonly all = new Set<Worker>();
  private nextId = 1;

  private constructor(
    size: number,
    private readonly worker: string,
    private readonly dir: string,
  ) {
    for (let i = 0; i < size; i++) this.idle.push(this.spawn());
  }

  static async start(size: number): Promise<ActionPool> {
    const dir = mkdtempSync(join(tmpdir(), 'mqa-action-pool-'));
    const worker = join(dir, 'action-worker.mjs');
    await build({
      entryPoints: [WORKER_SOURCE],
      outfile: worker,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
      // The CommonJS packages inside (@actions/*) call require(); an ES module has none of its own. The
      // import is renamed: bundled ES modules (fdir, under tinyglobby) import createRequire themselves.
      banner: {
        js: "import { createRequire as __bannerCreateRequire } from 'node:module'; const require = __bannerCreateRequire(import.meta.url);",
      },
    });
    return new ActionPool(size, worker, dir);
  }

  async run(options: RunOptions, watchdogMs: number): Promise<PooledRun> {
    const worker = await this.acquire();
    await worker.ready;
    worker.stderr = '';
    const id = this.nextId++;
    const started = performance.now();
    const seconds = () => Math.round((performance.now() - started) / 100) / 10;
    return new Promise<PooledRun>((resolve) => {
      const watchdog = setTimeout(() => {
        worker.child.off('message', onMessage);
        this.replace(worker);
        resolve({
          outputs: {},
          summary: '',
          log: '',
          failed: true,
          error: '',
          stderr: '',
          hung: true,
          seconds: seconds(),
        });
      }, watchdogMs);
      const onMessage = (reply: Reply) => {
        if (reply.id !== id) return;
        clearTimeout(watchdog);
        worker.child.off('message', onMessage);
        const run: ActionRun = reply.run ?? {
          outputs: {},
          summary: '',
          log: reply.crash ?? '',
          failed: true,
          error: '',
        };
        const stderr = worker.stderr;
        this.release(worker);
        resolve({ ...run, stderr, hung: false, seconds: seconds() });
      };
      worker.child.on('message', onMessage);
      worker.child.send({ id, options });
    });
  }

  async close(): Promise<void> {
    await Promise.all(
      [...this.all].map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.child.exitCode !== null || worker.child.signalCode !== null) return resolve();
            worker.child.once('exit', () => resolve());
            worker.child.kill();
          }),
      ),
    );
    this.all.clear();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private spawn(): Worker {
    const child = fork(this.worker, [], { execArgv: [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    const worker: Worker = {
      child,
      stderr: '',
      ready: new Promise((resolve) => {
        const onReady = (reply: Reply) => {
          if (!reply.ready) return;
          child.off('message', onReady);
          resolve();
        };
        child.on('message', onReady);
      }),
    };
    child.stderr?.on('data', (chunk: Buffer) => (worker.stderr += chunk.toString('utf8')));
    this.all.add(worker);
    return worker;
  }

  private replace(worker: Worker): void {
    this.all.delete(worker);
    worker.child.kill('SIGKILL');
    this.release(this.spawn());
  }

  private acquire(): Promise<Worker> {
    const worker = this.idle.pop();
    if (worker) return Promise.resolve(worker);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(worker: Worker): void {
    const next = this.waiting.shift();
    if (next) next(worker);
    else this.idle.push(worker);
  }
}
