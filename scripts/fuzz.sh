#!/usr/bin/env bash
# Runs each libFuzzer harness of tests/fuzz (built by `cmake --preset fuzz`) for SECONDS, from its
# committed seed corpus (read only) into build/fuzz/corpus/<name> (kept between runs), and prints
# each run's executions and coverage. Exit 1 if any harness finds a crash, leak, sanitizer report
# or broken property; its input is then in build/fuzz/artifacts/.
# Usage: scripts/fuzz.sh [SECONDS] [HARNESS...]   (default 60 s, every harness)
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}; shift || true
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(request op_label plan_spec text pytorch_csv cli_args trace)
declare -A max_len=([request]=4096 [op_label]=64 [plan_spec]=4096 [text]=1024 [pytorch_csv]=4096 [cli_args]=512 [trace]=4096)
mkdir -p build/fuzz/artifacts
failed=0
for h in "${harnesses[@]}"; do
  bin=build/fuzz/tests/fuzz/fuzz_$h
  [ -x "$bin" ] || { echo "fuzz: $bin is not built (cmake --preset fuzz && cmake --build --preset fuzz)"; exit 1; }
  mkdir -p "build/fuzz/corpus/$h"
  dict=()
  [ -f "tests/fuzz/$h.dict" ] && dict=(-dict="tests/fuzz/$h.dict")
  log=build/fuzz/$h.log
  echo "fuzz: $h for ${seconds}s"
  "$bin" -max_total_time="$seconds" -max_len="${max_len[$h]}" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="build/fuzz/artifacts/$h-" "${dict[@]}" \
    "build/fuzz/corpus/$h" "tests/fuzz/corpus/$h" >"$log" 2>&1
  status=$?
  # The last status line ("#N DONE cov: C ft: F corp: ...") and the executions.
  grep -E '^#[0-9]+[[:space:]]+(DONE|pulse)' "$log" | tail -1
  grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$log"
  if [ $status -ne 0 ]; then
    echo "fuzz: $h FAILED (exit $status); see $log"
    grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -5
    failed=1
  fi
done
exit $failed
