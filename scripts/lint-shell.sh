#!/usr/bin/env bash
# `npm run lint:shell`: shellcheck over every tracked shell script: files ending in .sh, files whose
# first line starts bash or sh (.ci/run, CI plugins' hooks), and anything under a hooks/ folder.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v shellcheck >/dev/null; then
  echo "shellcheck is not installed: apt-get install shellcheck" >&2
  exit 1
fi

scripts=()
while IFS= read -r -d '' file; do
  [ -f "$file" ] || continue
  case "$file" in
    *.sh | hooks/* | */hooks/*) scripts+=("$file") ;;
    *) if head -n 1 "$file" | grep -Eq '^#!.*[/ ](ba)?sh( |$)'; then scripts+=("$file"); fi ;;
  esac
done < <(git ls-files -z --cached --others --exclude-standard)

shellcheck --external-sources "${scripts[@]}"
echo "shellcheck: ${#scripts[@]} script(s) clean: ${scripts[*]}"
