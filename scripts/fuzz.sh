#!/usr/bin/env bash
# Runs every libFuzzer target of the asan tree for SECONDS each (default 60): ./dev fuzz builds
# them first, ./dev test runs this for 20 s after the asan tests (docs/reliability.md).
# Targets run side by side, FUZZ_JOBS at a time (default: one per core), so CI pays 20 s per
# core rather than per target. Each starts from a fresh copy of its seed corpus under
# build/asan/fuzz/<target>/, so the source tree is never written; a crash, leak or timeout is
# saved in build/asan/fuzz/<target>/artifacts/ and fails the script. Prints libFuzzer's final
# stats per target.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:-60}
jobs=${FUZZ_JOBS:-$(nproc)}
build=build/asan

run() { # target: runs one fuzzer, its exit status in build/asan/fuzz/<target>/status
  local target=$1 work=$build/fuzz/$1 dict=()
  [ -f "tests/fuzz/$target.dict" ] && dict=(-dict="tests/fuzz/$target.dict")
  # A leak is reported by LSan like a crash; Qt's own caches are suppressed as in ctest.
  local status=0
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0 \
    "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -max_len=4096 -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${dict[@]}" \
    "$work/corpus" >"$work/log" 2>&1 || status=$?
  echo "$status" >"$work/status"
}

targets=()
for source in tests/fuzz/fuzz_*.cpp; do
  target=$(basename "$source" .cpp)
  target=${target#fuzz_}
  if [ ! -x "$build/tests/fuzz/fuzz_$target" ]; then
    echo "fuzz_$target: not built (./dev fuzz builds it; the asan preset sets DATACLIENT_FUZZ)" >&2
    exit 1
  fi
  work=$build/fuzz/$target
  rm -rf "$work/corpus" "$work/status"
  mkdir -p "$work/corpus" "$work/artifacts"
  cp tests/fuzz/corpus/"$target"/* "$work/corpus/"
  targets+=("$target")
done

echo "fuzzing ${targets[*]}: ${seconds}s each, $jobs at a time"
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
  run "$target" &
  running=$((running + 1))
done
wait

failed=0
for target in "${targets[@]}"; do
  work=$build/fuzz/$target
  echo "== fuzz_$target ($(ls tests/fuzz/corpus/"$target" | wc -l) seeds)"
  if [ "$(cat "$work/status")" = 0 ]; then
    grep -E '^#[0-9]+[[:space:]]+DONE|^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' \
      "$work/log" || true
  else
    failed=1
    echo "fuzz_$target FAILED: input saved in $work/artifacts/, full log in $work/log" >&2
    grep -E -B2 -A30 '^==[0-9]+== ?ERROR|runtime error|invariant broken|^ALARM' "$work/log" | head -60 >&2 \
      || tail -40 "$work/log" >&2
  fi
done
exit $failed
