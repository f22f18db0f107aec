// One Jenkins build of a Jenkinsfile with this repository as its shared library, run by Groovy through
// helpers/jenkins/run-pipeline.groovy (Jenkins' own steps stood in for, the Jenkinsfile and vars/ run as
// they are), in a workspace, with the build's variables, parameters, credentials and cause.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { runScript, type ScriptRun } from './run-script.js';
import { TOOLS } from './tools.js';

const RUNNER = resolve('__tests__/helpers/jenkins/run-pipeline.groovy');

export interface JenkinsBuild {
  workspace: string;
  /** The variables Jenkins sets for the build (CHANGE_ID, BRANCH_NAME, ...) and the agent's own. */
  env: Record<string, string>;
  params?: Record<string, unknown>;
  /** Credential id -> secret text. */
  credentials?: Record<string, string>;
  /** What started the build, as `triggeredBy` names it (e.g. TimerTrigger). */
  cause?: string;
}

/** Groovy's launcher looks for Java under JAVA_HOME, else Debian's default-java: the java on PATH's. */
function javaHome(): Record<string, string> {
  if (process.env.JAVA_HOME || existsSync('/usr/lib/jvm/default-java')) return {};
  try {
    return { JAVA_HOME: dirname(dirname(realpathSync('/usr/bin/java'))) };
  } catch {
    return {};
  }
}

export function runJenkinsBuild(jenkinsfile: string, build: JenkinsBuild): Promise<ScriptRun> {
  const standIn = { params: build.params, credentials: build.credentials, cause: build.cause };
  return runScript(
    TOOLS.groovy().path ?? 'groovy',
    [RUNNER, resolve(jenkinsfile), resolve('.')],
    {
      ...javaHome(),
      WORKSPACE: build.workspace,
      ...build.env,
      JENKINS_STANDIN: JSON.stringify(standIn),
    },
    { cwd: build.workspace, timeoutMs: 180_000 },
  );
}
