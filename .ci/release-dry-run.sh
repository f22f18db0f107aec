#!/usr/bin/env bash
# The release workflow's steps (.github/workflows/release.yml) on a scratch clone of this commit, as if
# its version were tagged now: everything but `gh release create`, the tag push and `npm publish`, which
# are printed or run with --dry-run instead. The tests are not run again: CI ran them on this commit.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

step() { printf -- '--- %s\n' "$*"; }

# Inside the repository (.tmp/ is ignored) so that node_modules can be hard-linked, not symlinked: the
# bundle's module ids come from paths relative to the project, and a symlink would change them.
scratch="$root/.tmp/release-dry-run"
rm -rf "$scratch"
trap 'rm -rf "$scratch"' EXIT
git clone --quiet --no-local "$root" "$scratch"
cd "$scratch"
cp -al "$root/node_modules" node_modules
git config user.name "release dry run"
git config user.email "release-dry-run@localhost"

version="$(node -p 'require("./package.json").version')"
tag="v$version"
if ! npm run -s release -- notes "$tag" >/dev/null 2>&1; then
  step "prepare $version (CHANGELOG.md's Unreleased becomes its section, as a maintainer would do)"
  npm run -s release -- prepare "$version"
  git commit --quiet --all --message "Release $version (dry run)"
fi
git tag "$tag"

step "verify: $tag is package.json's version, and CHANGELOG.md has its notes"
mkdir -p release
npm run -s release -- notes "$tag" >release/notes.md
# awk reads to the end: `| head` would end the writer with SIGPIPE (exit 141 under pipefail).
awk 'NR <= 20 { print "  | " $0 }' release/notes.md
echo "  ($(wc -l <release/notes.md) lines of release notes)"

step "verify: no snippet, example or plugin default names main: they name $tag"
# What prepare moves (scripts/release.ts): @main, #main, merge-queue@main and the main archive.
places=(README.md docs examples templates orb vars plugin.yml hooks)
if git grep -nE 'merge-queue-action(/[a-z-]+|\.git)?[@#]main\b|merge-queue@main\b|archive/refs/heads/main\.tar\.gz' -- "${places[@]}"; then
  echo "release dry run: the lines above still name main after prepare." >&2
  exit 1
fi
echo "  $(git grep -c -F "$tag" -- "${places[@]}" | awk -F: '{ n += $2 } END { print n }') pins of $tag"

step "verify: dist is what the source builds"
npm run -s bundle >/dev/null 2>&1
if [ -n "$(git status --porcelain dist/)" ]; then
  git status --porcelain dist/
  echo "release dry run: dist/ differs from what npm run bundle builds." >&2
  exit 1
fi
echo "  dist/ unchanged"

if [ -f .ci/pack-smoke.sh ] && node -e 'process.exit(require("./package.json").bin ? 0 : 1)'; then
  step "verify: the packed package installs in an empty directory and runs"
  bash .ci/pack-smoke.sh
fi

step "github-release: would run"
echo "  gh release create $tag --verify-tag --title $tag --notes-file release/notes.md"

step "github-release: move the major tag (not pushed)"
bash scripts/move-major-tag.sh "$tag"
major="v${version%%.*}"
if [ "$(git rev-parse "$major^{commit}")" != "$(git rev-parse "$tag^{commit}")" ]; then
  echo "release dry run: $major does not point at $tag." >&2
  exit 1
fi

step "npm: publish --dry-run"
npm publish --dry-run 2>&1 | grep -Ev '^npm notice [0-9.]+[kMG]?B ' | sed 's/^/  /'
echo "release dry run of $tag: every step passed."
