import { run } from '../core/run.js';

await run();
