// mergeQueue: a Jenkins shared library step (this repository is the library; see the README's Jenkins
// section) that runs one merge-queue-action operation with the CLI:
//
//   mergeQueue operation: 'submit-pull-request', inputs: ['wait-for': 'merged']
//
//   operation  the operation, e.g. submit-pull-request, set-impacted-targets, list-unhealthy-tests
//   inputs     the operation's inputs by name (as in docs/reference.md), handed to the CLI as
//              MERGE_QUEUE_<NAME> variables, never through the shell
//   cli        the command that runs the CLI; default env.MERGE_QUEUE_CLI, else the CLI committed at the
//              ref the archive below names (main, or a release tag), fetched over HTTPS (no git, no npm);
//              once a version is released, pin it: 'npx --yes merge-queue-action@<version>'
//
// The token comes from MERGE_QUEUE_API_TOKEN (bind it with credentials() in `environment`). The outputs
// are written to <operation>-outputs.json (readJSON reads them) and the summary to
// <operation>-summary.md, both archived with the build. The step fails with the CLI's exit code: 1 the
// outcome failed, 2 bad input or context, 3 the service refused, 4 the service unreachable.
def call(Map config = [:]) {
  String operation = config.operation ?: ''
  if (!(operation ==~ /[a-z]+(-[a-z]+)*/)) {
    error("mergeQueue: 'operation' must name an operation, e.g. mergeQueue(operation: 'submit-pull-request').")
  }
  List<String> variables = [
    "MQ_STEP_CLI=${config.cli ?: env.MERGE_QUEUE_CLI ?: 'npx --yes https://github.com/your-org/merge-queue-action/archive/refs/heads/main.tar.gz'}",
    "MQ_STEP_OPERATION=${operation}",
    "MQ_STEP_OUTPUTS=${operation}-outputs.json",
    "MQ_STEP_SUMMARY=${operation}-summary.md",
  ]
  (config.inputs ?: [:]).each { name, value ->
    if (!("${name}" ==~ /[a-z0-9]+(-[a-z0-9]+)*/)) {
      error("mergeQueue: inputs: '${name}' is not an input name (kebab-case, as in docs/reference.md).")
    }
    variables << "MERGE_QUEUE_${name.toString().toUpperCase().replace('-', '_')}=${value}"
  }
  try {
    withEnv(variables) {
      // Single quotes: the shell, not Groovy, expands the variables, so no value becomes shell code.
      sh(label: "merge-queue ${operation}", script: '$MQ_STEP_CLI "$MQ_STEP_OPERATION" --outputs-file "$MQ_STEP_OUTPUTS" --summary-file "$MQ_STEP_SUMMARY"')
    }
  } finally {
    archiveArtifacts(artifacts: "${operation}-outputs.json, ${operation}-summary.md", allowEmptyArchive: true)
  }
}
