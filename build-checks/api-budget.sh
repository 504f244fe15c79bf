#!/usr/bin/env bash
# The public API budget of every module (docs/BUILD.md#api-budget): types = lines of
# <module>/api/*.txt that declare a class, interface, record, enum or annotation (nested ones
# included); lines = all lines but the header and the `exports` lines. With a git revision as the
# argument it counts that revision's signature files instead of the working tree's.
set -euo pipefail
cd "$(dirname "$0")/.."
rev="${1:-}"
count() {
  awk -F': ' '!/^#/ && !/^exports/ {
      n++; k = $1; sub(/.*[.$]/, "", k)
      if ($2 ~ ("(class|interface|record|enum|@interface) ([A-Za-z0-9_]+[.$])*" k "( |<|$)")) t++
    } END { printf "%d types / %d lines\n", t, n }'
}
for file in $(git ls-files '*/api/*.txt' | grep -v '/src/'); do
  module="${file%%/api/*}"
  if [ -n "$rev" ]; then
    printf '%-24s %s\n' "$module" "$(git show "$rev:$file" 2>/dev/null | count)"
  else
    printf '%-24s %s\n' "$module" "$(count < "$file")"
  fi
done
