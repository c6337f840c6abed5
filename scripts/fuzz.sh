#!/usr/bin/env bash
# Runs every libFuzzer target of the asan tree for SECONDS each (default 60): ./dev fuzz builds
# them first, ./dev test runs this for 20 s after the asan tests (docs/reliability.md).
# Each run starts from a fresh copy of the seed corpus under build/asan/fuzz/<target>/, so the
# source tree is never written; a crash, leak or timeout is saved in
# build/asan/fuzz/<target>/artifacts/ and fails the script. Prints libFuzzer's final stats.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:-60}
build=build/asan
status=0
for source in tests/fuzz/fuzz_*.cpp; do
  name=$(basename "$source" .cpp)
  target=${name#fuzz_}
  binary=$build/tests/fuzz/$name
  work=$build/fuzz/$target
  if [ ! -x "$binary" ]; then
    echo "$name: not built (./dev fuzz builds it; the asan preset needs DATACLIENT_FUZZ=ON)" >&2
    exit 1
  fi
  rm -rf "$work/corpus"
  mkdir -p "$work/corpus" "$work/artifacts"
  cp tests/fuzz/corpus/"$target"/* "$work/corpus/"
  dict=()
  [ -f "tests/fuzz/$target.dict" ] && dict=(-dict="tests/fuzz/$target.dict")
  echo "== $name: ${seconds}s from $(ls "$work/corpus" | wc -l) seeds"
  # A leak is reported by LSan at exit like a crash; Qt's own caches are suppressed as in ctest.
  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0 \
    "$binary" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${dict[@]}" "$work/corpus" \
    >"$work/log" 2>&1; then
    grep -E '^#[0-9]+[[:space:]]+DONE|^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' \
      "$work/log" || true
  else
    status=1
    echo "$name FAILED: input saved in $work/artifacts/, full log in $work/log" >&2
    grep -E -A30 '^==[0-9]+==ERROR|^SUMMARY|invariant broken|deadly signal|^ALARM' "$work/log" \
      | head -60 >&2 || tail -40 "$work/log" >&2
  fi
done
exit $status
