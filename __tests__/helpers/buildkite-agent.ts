// A recording stand-in for `buildkite-agent` (the real agent is a Go binary downloaded from Buildkite,
// which is not installable here): put its directory first on PATH and every call is appended to a JSON
// lines file. It keeps meta-data so that `meta-data get` answers what `meta-data set` stored, keeps the
// files `artifact upload` names (relative to the job's directory) for `artifact download` in a later
// job, and reads an annotation's body from stdin when none is given as an argument, as the agent does.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface AgentCall {
  args: string[];
  /** What the call read from stdin (annotate without a body argument). */
  stdin?: string;
}

const STAND_IN = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const dir = __dirname;
const args = process.argv.slice(2);
const metaFile = path.join(dir, 'meta-data.json');
const meta = fs.existsSync(metaFile) ? JSON.parse(fs.readFileSync(metaFile, 'utf8')) : {};
const record = (call) => fs.appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify(call) + '\\n');
const positional = args.filter((arg, i) => !arg.startsWith('--') && !(args[i - 1] || '').startsWith('--'));
if (args[0] === 'meta-data' && args[1] === 'set') {
  const value = args[3] !== undefined ? args[3] : fs.readFileSync(0, 'utf8');
  meta[args[2]] = value;
  fs.writeFileSync(metaFile, JSON.stringify(meta));
  record({ args: [...args.slice(0, 3), value] });
} else if (args[0] === 'meta-data' && args[1] === 'get') {
  record({ args });
  if (!(args[2] in meta)) process.exit(1);
  process.stdout.write(meta[args[2]]);
} else if (args[0] === 'artifact' && (args[1] === 'upload' || args[1] === 'download')) {
  record({ args });
  const stored = path.join(dir, 'artifacts', args[2]);
  const [from, to] = args[1] === 'upload' ? [args[2], stored] : [stored, path.join(args[3] || '.', args[2])];
  if (!fs.existsSync(from)) {
    console.error('buildkite-agent: no artifact ' + args[2]);
    process.exit(1);
  }
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
} else if (args[0] === 'annotate' && positional.length < 2) {
  record({ args, stdin: fs.readFileSync(0, 'utf8') });
} else {
  record({ args });
}
`;

export class BuildkiteAgentStandIn {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'buildkite-agent'), STAND_IN);
    // CommonJS for the stand-in whatever the enclosing package says.
    writeFileSync(join(dir, 'package.json'), '{"type":"commonjs"}\n');
    chmodSync(join(dir, 'buildkite-agent'), 0o755);
  }

  calls(): AgentCall[] {
    const file = join(this.dir, 'calls.jsonl');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AgentCall);
  }

  /** meta-data set calls as key -> value (the last one wins, as on the agent). */
  metaData(): Record<string, string> {
    return Object.fromEntries(
      this.calls()
        .filter((call) => call.args[0] === 'meta-data' && call.args[1] === 'set')
        .map((call) => [call.args[2]!, call.args[3]!]),
    );
  }

  annotations(): { style: string | undefined; context: string | undefined; body: string }[] {
    return this.calls()
      .filter((call) => call.args[0] === 'annotate')
      .map(({ args, stdin }) => {
        const flag = (name: string) => {
          const at = args.indexOf(`--${name}`);
          if (at >= 0) return args[at + 1];
          return args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
        };
        const positional = args
          .slice(1)
          .filter((arg, i, rest) => !arg.startsWith('--') && !(rest[i - 1] ?? '').startsWith('--'));
        return { style: flag('style'), context: flag('context'), body: stdin ?? positional[0] ?? '' };
      });
  }
}
