#!/usr/bin/env bash
# scripts/move-major-tag.sh <tag> [--push]: points the major tag (v1 for v1.4.2) at the release tag's
# commit, so that `uses: owner/merge-queue-action@v1` gets the release. With --push, force-pushes that
# one tag to origin; without it, only the local tag moves (the release dry run).
# Pre-releases (v1.4.2-rc.1) move nothing.
set -euo pipefail

tag="${1:?usage: move-major-tag.sh <tag> [--push]}"
if [[ ! "$tag" =~ ^v([0-9]+)\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "move-major-tag: $tag is not a release tag (v1.2.3)." >&2
  exit 1
fi
if [ -n "${BASH_REMATCH[2]}" ]; then
  echo "move-major-tag: $tag is a pre-release; the major tag stays where it is."
  exit 0
fi
major="v${BASH_REMATCH[1]}"
commit="$(git rev-parse --verify "refs/tags/$tag^{commit}")"

git tag --force "$major" "$commit" >/dev/null
echo "move-major-tag: $major -> $commit ($tag)"
if [ "${2:-}" = "--push" ]; then
  git push --force origin "refs/tags/$major"
fi
