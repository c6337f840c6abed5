#!/usr/bin/env bash
# Fails (and shows the diff) when a C++ source is not formatted per .clang-format.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
fmt=$(command -v clang-format-14 || command -v clang-format)
status=0
while IFS= read -r -d '' file; do
  if ! diff -u "$file" <("$fmt" --style=file "$file") >/tmp/format-diff.$$ 2>&1; then
    echo "not clang-formatted: $file"
    head -n 20 /tmp/format-diff.$$
    status=1
  fi
done < <(git ls-files -z '*.cpp' '*.h')
rm -f /tmp/format-diff.$$
[ $status -eq 0 ] && echo "clang-format: all sources formatted"
exit $status
