#!/usr/bin/env bash
# The orb's run command: runs one merge-queue-action operation with the CLI, from the command's
# parameters (PARAM_*), then exports the outputs as MERGE_QUEUE_OUTPUT_<NAME> for the job's later steps.
set -euo pipefail

token_env="${PARAM_API_TOKEN_ENV:-TRUNK_API_TOKEN}"
if [[ ! "$token_env" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
  echo "merge-queue orb: api-token must name an environment variable (letters, digits, _)." >&2
  exit 2
fi
if [[ -n "${!token_env:-}" ]]; then
  export MERGE_QUEUE_API_TOKEN="${!token_env}"
fi
if [[ -n "${PARAM_API_URL:-}" ]]; then
  export MERGE_QUEUE_API_URL="$PARAM_API_URL"
fi
if [[ -n "${PARAM_TARGET_BRANCH:-}" ]]; then
  export MERGE_QUEUE_TARGET_BRANCH="$PARAM_TARGET_BRANCH"
fi

read -r -a cli <<<"${PARAM_CLI:-npx --yes https://github.com/your-org/merge-queue-action/archive/refs/heads/main.tar.gz}"
read -r -a args <<<"${PARAM_ARGS:-}"
outputs_file="${PARAM_OUTPUTS_FILE:-merge-queue-outputs.json}"
summary_file="${PARAM_SUMMARY_FILE:-merge-queue-summary.md}"

status=0
"${cli[@]}" "$PARAM_OPERATION" --host circleci \
  --outputs-file "$outputs_file" --summary-file "$summary_file" "${args[@]}" || status=$?

# Outputs are written before a failing outcome ends the CLI, so later steps (when: always) see them too.
if [[ -s "$outputs_file" && -n "${BASH_ENV:-}" ]]; then
  while IFS= read -r -d '' name && IFS= read -r -d '' value; do
    printf 'export MERGE_QUEUE_OUTPUT_%s=%q\n' "$name" "$value" >>"$BASH_ENV"
  done < <(node -e '
    const outputs = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
    for (const [name, value] of Object.entries(outputs)) {
      const variable = name.toUpperCase().replace(/[^A-Z0-9]/g, "_");
      const text = typeof value === "string" ? value : JSON.stringify(value);
      process.stdout.write(variable + "\0" + text + "\0");
    }
  ' "$outputs_file")
fi
exit "$status"
