#!/usr/bin/env bash
# Checks that the emulator's metrics are valid Prometheus text (format 0.0.4) with `promtool check
# metrics`: starts the emulator, gives it traffic (queues, PRs that merge, fail, wait and are cancelled,
# a batch that is bisected, a branch name that needs escaping), then checks GET /v1/getMergeQueueMetrics
# for every repository and for one. Installs Debian's `prometheus` package (it ships promtool) when
# promtool is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v promtool >/dev/null 2>&1; then
  echo "promtool is missing: installing Debian's prometheus package"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends prometheus >/dev/null
fi
promtool --version 2>&1 | awk 'NR == 1'

token="promtool-check-token"
work="$(mktemp -d)"
# setsid: the emulator (npm and the node process under it) gets a process group of its own, ended as one.
setsid npm run -s emulator -- --port 0 --token "$token" >"$work/emulator.log" 2>&1 &
emulator_group=$!
cleanup() {
  kill -TERM -- "-$emulator_group" 2>/dev/null || true
  wait "$emulator_group" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

url=""
for _ in $(seq 1 300); do
  url="$(sed -n 's/^Merge-queue API emulator listening on //p' "$work/emulator.log")"
  [ -n "$url" ] && break
  if ! kill -0 "$emulator_group" 2>/dev/null; then
    cat "$work/emulator.log" >&2
    echo "The emulator stopped before it listened." >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  cat "$work/emulator.log" >&2
  echo "The emulator did not print its URL within 30 s." >&2
  exit 1
fi
origin="${url%/v1}"
echo "Emulator: $url"

post() { # post <url> <json>
  curl -sS --fail-with-body -X POST "$1" -H "x-api-token: $token" -H 'content-type: application/json' -d "$2" >/dev/null
}
api() { post "$url/$1" "$2"; }
emulator_control() { post "$origin/_emulator/$1" "$2"; }

web='{"host":"github.com","owner":"acme","name":"web"}'
api_repo='{"host":"github.com","owner":"acme","name":"api"}'
quoted_branch='release/\"quoted\"'

api createQueue "{\"repo\":$web,\"targetBranch\":\"main\",\"concurrency\":2}"
api updateQueue "{\"repo\":$web,\"targetBranch\":\"main\",\"batch\":true,\"batchingMinSize\":2,\"bisectionConcurrency\":2}"
api createQueue "{\"repo\":$api_repo,\"targetBranch\":\"$quoted_branch\",\"mode\":\"single\"}"
emulator_control ci '{"repo":"acme/web","prNumber":3,"outcome":"fail"}'
emulator_control ci '{"repo":"acme/web","prNumber":4,"outcome":"flaky","flakyFailures":1}'
emulator_control pull-requests '{"repo":"acme/web","number":7,"mergeability":"not_mergeable"}'
for pr in 1 2 3 4 5 6 7 8; do
  api submitPullRequest "{\"repo\":$web,\"targetBranch\":\"main\",\"pr\":{\"number\":$pr}}"
done
api submitPullRequest "{\"repo\":$api_repo,\"targetBranch\":\"$quoted_branch\",\"pr\":{\"number\":1}}"
emulator_control clock/advance '{"minutes":12}'
api cancelPullRequest "{\"repo\":$web,\"targetBranch\":\"main\",\"pr\":{\"number\":8}}"
api restartTestsOnPullRequest "{\"repo\":$web,\"targetBranch\":\"main\",\"pr\":{\"number\":6}}"
emulator_control clock/advance '{"minutes":45}'

check() { # check <query> <what> <file name>
  local file="$work/$3"
  curl -sS --fail-with-body -D "$work/headers" "$url/getMergeQueueMetrics$1" -H "x-api-token: $token" -o "$file"
  if ! grep -qi '^content-type: text/plain; version=0.0.4' "$work/headers"; then
    echo "getMergeQueueMetrics ($2) answered without Content-Type text/plain; version=0.0.4:" >&2
    cat "$work/headers" >&2
    exit 1
  fi
  echo "promtool check metrics: $2 ($(grep -vc '^#' "$file") samples)"
  # The service documents the rolling one-hour counts as gauges named ..._1h_total: promtool's naming
  # lint on exactly those is let through; anything else it says fails the check.
  local said status=0
  said="$(promtool check metrics <"$file" 2>&1)" || status=$?
  local other
  other="$(printf '%s\n' "$said" | grep -v -E '^(mq_pr_conclusions_1h_total|mq_pr_restarts_1h_total) non-counter metrics should not have "_total" suffix$' | grep -v '^$' || true)"
  if [ "$status" -ne 0 ] && [ -n "$other" ]; then
    printf '%s\n' "$said" >&2
    exit 1
  fi
  [ -n "$said" ] && printf '%s\n' "$said"
  return 0
}
check "" "every repository" all.prom
check "?repo=acme/web&repoHost=github.com" "acme/web" acme-web.prom
echo "The emulator's metrics pass promtool."
