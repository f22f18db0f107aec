// Runs a declarative Jenkinsfile with Groovy (Debian's groovy package), as a Jenkins controller would
// for one build, with a shared library's vars/ steps: the Jenkinsfile and vars/*.groovy are compiled and
// run as they are, and only Jenkins' own steps are stood in for, each doing what Jenkins does with it:
//   sh            runs the script with `sh -xe -c` in the workspace, with the build's environment;
//                 a non-zero exit fails the step, and with it the stage and the build
//   withEnv       adds NAME=value variables for the steps in its block
//   credentials   in `environment`, the secret text of the credential with that id
//   error         fails the build with its message
//   archiveArtifacts  lists the files it archives (they must exist unless allowEmptyArchive)
//   junit         records the JUnit reports a glob matches (none fails the build); a failed test in
//                 them marks the build UNSTABLE, which a later failure turns to FAILURE
//   when          changeRequest(), branch, triggeredBy, expression, allOf, anyOf, not
//   post          a stage's `always` block runs after its steps, whether they failed or not
//   agent         ignored: every stage runs here, as on an agent with the tools it needs
// Usage: groovy run-pipeline.groovy <Jenkinsfile> <library root>, in the workspace, with the build's
// variables (CHANGE_ID, BRANCH_NAME, ...) in the environment and, as JSON in JENKINS_STANDIN: the
// build's parameters ("params"), the credentials store ("credentials", id -> secret text) and what
// started it ("cause", e.g. TimerTrigger). Prints a log like Jenkins' and ends with
// "Finished: SUCCESS" (exit 0), "Finished: UNSTABLE" (exit 0) or "Finished: FAILURE" (exit 1).
import groovy.json.JsonSlurper
import java.nio.file.FileSystems
import java.lang.annotation.Retention
import java.lang.annotation.RetentionPolicy
import org.codehaus.groovy.control.CompilerConfiguration

@Retention(RetentionPolicy.SOURCE)
@interface Library {
  String[] value()
}

class BuildFailed extends RuntimeException {
  BuildFailed(String message) { super(message) }
}

class Build {
  Map<String, String> env = new LinkedHashMap<>(System.getenv())
  Map params = [:]
  Map credentials = [:]
  String cause = ''
  File workspace = new File('.').canonicalFile
  File library
  List<String> masked = []
  List<String> archived = []
  boolean unstable = false

  String mask(String text) {
    masked.inject(text) { shown, secret -> shown.replace(secret, '****') }
  }

  void log(String line) { println mask(line) }
}

/** The Jenkinsfile's and the library steps' base class: the steps Jenkins provides. */
abstract class PipelineScript extends Script {
  Build getBuild() { binding.getVariable('build') as Build }

  def getEnv() { new EnvView(build) }

  def getParams() { build.params }

  def pipeline(Closure body) { new Pipeline(build, this).run(body) }

  def echo(String message) { build.log(message) }

  def error(String message) { throw new BuildFailed(message) }

  def sh(String script) { sh(script: script) }

  def sh(Map args) {
    build.log("[Pipeline] sh${args.label ? " (${args.label})" : ''}")
    ProcessBuilder process = new ProcessBuilder('sh', '-xe', '-c', args.script as String)
    process.directory(build.workspace)
    process.environment().clear()
    process.environment().putAll(build.env)
    process.redirectErrorStream(true)
    Process running = process.start()
    running.inputStream.eachLine { build.log(it) }
    int code = running.waitFor()
    if (code != 0) throw new BuildFailed("script returned exit code ${code}")
  }

  def withEnv(List<String> variables, Closure body) {
    Map<String, String> before = new LinkedHashMap<>(build.env)
    variables.each { String variable ->
      int at = variable.indexOf('=')
      build.env[variable.substring(0, at)] = variable.substring(at + 1)
    }
    try {
      body()
    } finally {
      build.env.clear()
      build.env.putAll(before)
    }
  }

  def archiveArtifacts(Map args) {
    List<String> files = (args.artifacts as String).split(/\s*,\s*/).findAll { new File(build.workspace, it).exists() }
    if (files.isEmpty() && !args.allowEmptyArchive) throw new BuildFailed("No artifacts found that match '${args.artifacts}'")
    build.log("Archiving artifacts: ${files.join(', ')}")
    build.archived.addAll(files)
  }

  def junit(String pattern) {
    def glob = FileSystems.default.getPathMatcher("glob:${pattern}")
    List<File> reports = []
    build.workspace.eachFileRecurse { File file ->
      if (file.isFile() && glob.matches(build.workspace.toPath().relativize(file.toPath()))) reports << file
    }
    if (reports.isEmpty()) throw new BuildFailed('No test report files were found. Configuration error?')
    int failures = reports.sum { File report -> (report.text =~ /<failure[\s>]/).count } as int
    build.log("Recording test results: ${reports.size()} file(s), ${failures} failed test(s)")
    if (failures > 0) build.unstable = true
  }

  /** A step of the shared library: vars/<name>.groovy, whose call() runs with these steps. */
  def methodMissing(String name, args) {
    File step = new File(build.library, "vars/${name}.groovy")
    if (!step.exists()) throw new MissingMethodException(name, getClass(), args as Object[])
    Script library = PipelineRunner.shell(build).parse(step)
    library.invokeMethod('call', args)
  }
}

/** env.NAME reads and writes the build's environment, as Jenkins' env global does. */
class EnvView {
  Build build
  EnvView(Build build) { this.build = build }
  def propertyMissing(String name) { build.env[name] }
  def propertyMissing(String name, value) { build.env[name] = value as String }
}

class Pipeline {
  Build build
  PipelineScript script
  Map<String, String> environment = [:]
  List<Map> stages = []

  Pipeline(Build build, PipelineScript script) {
    this.build = build
    this.script = script
  }

  def getAny() { 'any' }

  def agent(label) {}

  def parameters(Closure body) { PipelineRunner.within(new Parameters(build), body) }

  def triggers(Closure body) { PipelineRunner.within(new Triggers(build), body) }

  def environment(Closure body) { PipelineRunner.within(new Environment(build), body) }

  def stages(Closure body) { PipelineRunner.within(new Stages(stages), body) }

  def run(Closure body) {
    PipelineRunner.within(this, body)
    for (Map stage : stages) {
      build.log("[Pipeline] stage (${stage.name})")
      if (!stage.when.every { Closure condition -> condition() }) {
        build.log("Stage \"${stage.name}\" skipped due to when conditional")
        continue
      }
      try {
        inScript(stage.steps)
      } finally {
        if (stage.always) inScript(stage.always as Closure)
      }
    }
  }

  private inScript(Closure body) {
    body.resolveStrategy = Closure.DELEGATE_FIRST
    body.delegate = script
    body()
  }
}

class Parameters {
  Build build
  Parameters(Build build) { this.build = build }
  def booleanParam(Map spec) { build.params.putIfAbsent(spec.name, spec.defaultValue) }
  def string(Map spec) { build.params.putIfAbsent(spec.name, spec.defaultValue) }
}

class Triggers {
  Build build
  Triggers(Build build) { this.build = build }
  def cron(String spec) { if (spec) build.log("Timer: ${spec}") }
}

class Environment {
  Build build
  Environment(Build build) { this.build = build }
  def credentials(String id) {
    String secret = build.credentials[id]
    if (secret == null) throw new BuildFailed("Could not find credentials entry with ID '${id}'")
    build.masked << secret
    secret
  }
  def propertyMissing(String name, value) { build.env[name] = value as String }
  def propertyMissing(String name) { build.env[name] }
}

class Stages {
  List<Map> stages
  Stages(List<Map> stages) { this.stages = stages }
  def stage(String name, Closure body) {
    Stage stage = new Stage()
    PipelineRunner.within(stage, body)
    stages << [name: name, when: stage.conditions, steps: stage.body, always: stage.alwaysBlock]
  }
}

class Stage {
  List<Closure> conditions = []
  Closure body
  Closure alwaysBlock
  def when(Closure conditions) { this.conditions.addAll(PipelineRunner.conditions(conditions)) }
  def steps(Closure body) { this.body = body }
  def post(Closure conditions) { PipelineRunner.within(this, conditions) }
  def always(Closure body) { this.alwaysBlock = body }
}

/** The conditions of a `when` block, each a closure answering whether it holds for this build. */
class When {
  Build build
  List<Closure> conditions = []
  When(Build build) { this.build = build }
  def changeRequest() { conditions << { build.env.CHANGE_ID != null } }
  def branch(String pattern) {
    conditions << { (build.env.BRANCH_NAME ?: '') ==~ pattern.replace('*', '.*') }
  }
  def triggeredBy(String cause) { conditions << { build.cause == cause } }
  def expression(Closure test) { conditions << { test() as boolean } }
  def allOf(Closure body) {
    List<Closure> all = PipelineRunner.conditions(body, build)
    conditions << { all.every { it() } }
  }
  def anyOf(Closure body) {
    List<Closure> any = PipelineRunner.conditions(body, build)
    conditions << { any.any { it() } }
  }
  def not(Closure body) {
    List<Closure> inner = PipelineRunner.conditions(body, build)
    conditions << { !inner.every { it() } }
  }
}

class PipelineRunner {
  static Build current

  static GroovyShell shell(Build build) {
    CompilerConfiguration config = new CompilerConfiguration()
    config.scriptBaseClass = PipelineScript.name
    new GroovyShell(PipelineRunner.classLoader, new Binding(build: build), config)
  }

  static within(Object delegate, Closure body) {
    body.resolveStrategy = Closure.DELEGATE_FIRST
    body.delegate = delegate
    body()
  }

  static List<Closure> conditions(Closure body, Build build = current) {
    When when = new When(build)
    within(when, body)
    when.conditions
  }
}

Build build = new Build()
Map standIn = new JsonSlurper().parseText(System.getenv('JENKINS_STANDIN') ?: '{}') as Map
build.params.putAll(standIn.params ?: [:])
build.credentials.putAll(standIn.credentials ?: [:])
build.cause = standIn.cause ?: 'BranchEventCause'
build.library = new File(args[1]).canonicalFile
build.env.remove('JENKINS_STANDIN')
PipelineRunner.current = build

try {
  PipelineRunner.shell(build).parse(new File(args[0])).run()
  build.log(build.unstable ? 'Finished: UNSTABLE' : 'Finished: SUCCESS')
} catch (BuildFailed failure) {
  build.log("ERROR: ${failure.message}")
  build.log('Finished: FAILURE')
  System.exit(1)
}
