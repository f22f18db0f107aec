#!/usr/bin/env bash
# The package as npm users get it: `npm pack`, the tarball installed in an empty directory (with nothing
# of this repository's node_modules in reach), and the CLI run from there with npx: --help, --version,
# the MCP server's handshake, and create-queue, submit-pull-request and get-submitted-pull-request
# against the emulator (started from this checkout with `npm run emulator -- --port 0`). Then the ways in
# before the package is on npm (README, "Before the package is on npm"): npx on the packed tarball, and
# npx on the archive of this commit as GitHub serves a tag's (its committed dist/cli/), each answering
# get-submitted-pull-request. Needs `npm run bundle` to have built dist/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

work="$(mktemp -d)"
emulator_pid=""
cleanup() {
  if [ -n "$emulator_pid" ]; then kill "$emulator_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "pack smoke test: $*" >&2
  exit 1
}

tarball="$(npm pack --silent --pack-destination "$work")"
tar -tzf "$work/$tarball" >"$work/contents.txt"
echo "packed $tarball: $(wc -l <"$work/contents.txt") files"
grep -qx 'package/dist/cli/index.js' "$work/contents.txt" || fail "the tarball has no dist/cli/index.js"
# One copy of each file: the MCP server is chunks of the CLI's bundle (dist/cli/), sharing its code.
mkdir "$work/unpacked"
tar -xzf "$work/$tarball" -C "$work/unpacked"
duplicates="$(cd "$work/unpacked" && find package -type f -exec md5sum {} + | sort | awk '$1 == last { print $2 } { last = $1 }')"
[ -z "$duplicates" ] || fail "the tarball carries the same file twice: $duplicates"
if grep -E '^package/(src|__tests__|emulator|node_modules)/' "$work/contents.txt"; then
  fail "the tarball carries sources or tests (above): check package.json files"
fi

mkdir "$work/app"
cd "$work/app"
echo '{ "name": "pack-smoke", "private": true }' >package.json
npm install --no-audit --no-fund "$work/$tarball" 2>&1 | tee "$work/install.log"
if grep -E 'EBADENGINE|install-scripts|deprecated' "$work/install.log"; then
  fail "installing the package warned (above)"
fi
# The CLI is one bundle: installing it installs nothing else.
installed="$(find node_modules -mindepth 1 -maxdepth 1 -not -name '.*' -printf '%f ')"
[ "$installed" = "merge-queue-action " ] || fail "installing the package brought in more than itself: $installed"
echo "installed: merge-queue-action alone ($(du -sh node_modules/merge-queue-action | cut -f1))"

cli() { npx --no-install merge-queue-action "$@"; }
cli --help | awk 'NR <= 5'
[ "$(cli --version)" = "$(node -p "require('$root/package.json').version")" ] || fail "--version is not package.json's"
# The MCP server (its own bundle) answers the protocol's handshake on stdout and writes nothing else there.
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pack-smoke","version":"1"}}}'
handshake="$(printf '%s\n' "$init" | MERGE_QUEUE_API_TOKEN=pack-smoke-token timeout 60 npx --no-install merge-queue-action mcp 2>/dev/null)"
case "$handshake" in
'{"result":{'*'"serverInfo":{"name":"merge-queue-action"'*) echo "mcp: answered initialize" ;;
*) fail "mcp did not answer initialize alone on stdout: $handshake" ;;
esac

# The emulator picks a free port and prints its base URL.
(cd "$root" && exec node --import tsx emulator/cli.ts --port 0 --token pack-smoke-token --time-scale 600) \
  >"$work/emulator.log" 2>&1 &
emulator_pid=$!
api_url=""
for _ in $(seq 1 100); do
  api_url="$(grep -Eo 'http://[^ ]+/v1' "$work/emulator.log" | head -n 1 || true)"
  [ -n "$api_url" ] && break
  sleep 0.1
done
[ -n "$api_url" ] || fail "the emulator did not start: $(cat "$work/emulator.log")"
echo "emulator: $api_url"

export MERGE_QUEUE_API_URL="$api_url" MERGE_QUEUE_API_TOKEN=pack-smoke-token
export MERGE_QUEUE_REPO=octo-org/pack-smoke MERGE_QUEUE_TARGET_BRANCH=main
cli create-queue --json >"$work/create.json" || fail "create-queue failed: $(cat "$work/create.json")"
cli submit-pull-request --pr-number 7 --json >"$work/submit.json" || fail "submit-pull-request failed: $(cat "$work/submit.json")"
cli get-submitted-pull-request --pr-number 7 --json >"$work/get.json" ||
  fail "get-submitted-pull-request failed: $(cat "$work/get.json")"
# shellcheck disable=SC2016 # the $ is JavaScript's, inside a template literal
node -e '
  const result = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const { outputs } = result;
  // is-submitted is true while the PR is in the queue: by now the emulator may have merged it.
  const left = ["MERGED", "FAILED", "CANCELLED"].includes(outputs.state);
  if (result.exitCode !== 0 || outputs["pr-number"] !== 7 || !outputs.state || outputs["is-submitted"] !== !left) {
    console.error("get-submitted-pull-request did not find PR 7:", JSON.stringify(result));
    process.exit(1);
  }
  console.log(`get-submitted-pull-request: PR #7 is ${result.outputs.state}`);
' "$work/get.json"

# Without the registry's package: npx on the tarball, and on the tag's archive (a git archive of this
# commit, shaped as https://github.com/<owner>/<repo>/archive/refs/tags/<tag>.tar.gz is), each from a
# directory of its own with nothing installed.
version="$(node -p "require('$root/package.json').version")"
git -C "$root" archive --format=tar.gz --prefix="merge-queue-action-$version/" HEAD >"$work/tag-archive.tar.gz"
for file in "$tarball" tag-archive.tar.gz; do
  mkdir -p "$work/npx-$file" && cd "$work/npx-$file"
  cp "$work/$file" .
  spec="./$file"
  npx --yes "$spec" get-submitted-pull-request --pr-number 7 --json >"$work/npx.json" ||
    fail "npx $spec failed: $(cat "$work/npx.json")"
  # shellcheck disable=SC2016 # the $ is JavaScript's, inside a template literal
  node -e '
    const { outputs } = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    if (outputs["pr-number"] !== 7 || !outputs.state) process.exit(1);
    console.log(`npx ${process.argv[2]}: PR #7 is ${outputs.state}`);
  ' "$work/npx.json" "$spec" || fail "npx $spec did not find PR 7: $(cat "$work/npx.json")"
done
cd "$work/app"

status=0
MERGE_QUEUE_API_TOKEN=wrong-token cli get-queue >/dev/null 2>&1 || status=$?
[ "$status" -eq 3 ] || fail "a refused token exits $status, not 3 (the service refused)"
echo "pack smoke test: the packed CLI installs alone and runs against the emulator."
