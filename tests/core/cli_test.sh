#!/usr/bin/env bash
# The CLI's contract: exit 0 with output on success; exit 1, one line on stderr naming the field,
# rule and value, and nothing on stdout for bad input.
set -u
cli=${PIPESIM:?set PIPESIM to the pipesim binary}
failures=0

expect_ok() {  # description, args...
  local what=$1; shift
  local out
  if ! out=$("$cli" "$@" 2>/dev/null) || [ -z "$out" ]; then
    echo "FAIL: $what"; failures=$((failures + 1))
  fi
}

expect_error() {  # description, expected stderr line, args...
  local what=$1 expected=$2; shift 2
  local out err status
  out=$("$cli" "$@" 2>/tmp/pipesim-cli-err.$$); status=$?
  err=$(cat /tmp/pipesim-cli-err.$$)
  if [ "$status" -ne 1 ] || [ -n "$out" ] || [ "$err" != "$expected" ]; then
    echo "FAIL: $what: status $status, stdout '${out:0:80}', stderr '$err' (expected '$expected')"
    failures=$((failures + 1))
  fi
}

expect_ok "simulate text" simulate --schedule dualpipe --ranks 8 --microbatches 20
json=$("$cli" simulate --schedule dualpipe --ranks 8 --microbatches 20 --format json)
case "$json" in *'"bubble":{"max":6.0,'*) ;; *) echo "FAIL: dualpipe 8x20 bubble.max is not 6"; failures=$((failures + 1));; esac
json=$("$cli" simulate --schedule dualpipe --ranks 8 --microbatches 20 --overlapped 2.4 --format json)
case "$json" in *'"bubble":{"max":4.2'*) ;; *) echo "FAIL: dualpipe 8x20 F&B=2.4 bubble.max is not 4.2"; failures=$((failures + 1));; esac
from_stdin=$(echo '{"schedule":"dualpipe","ranks":8,"microbatches":20}' | "$cli" simulate --input - --format json)
[ "$from_stdin" = "$("$cli" simulate --schedule dualpipe --ranks 8 --microbatches 20 --format json)" ] ||
  { echo "FAIL: --input - differs from flags"; failures=$((failures + 1)); }
expect_ok "sweep csv" sweep --schedules all --ranks 4:8:2 --microbatches 2R,4R --format csv
expect_ok "lesson" lesson
# Chrome trace: exactly one complete ("X") event per op of the simulation.
trace=$("$cli" simulate --schedule dualpipe --ranks 4 --microbatches 8 --format chrome)
complete=$(printf '%s' "$trace" | grep -o '"ph":"X"' | wc -l)
[ "$complete" -eq "$("$cli" simulate --schedule dualpipe --ranks 4 --microbatches 8 --format json | grep -o '"start"' | wc -l)" ] ||
  { echo "FAIL: chrome trace has $complete op events"; failures=$((failures + 1)); }

expect_error "unknown schedule" 'pipesim: unknown_schedule: schedule must be one of gpipe, 1f1b, zb-h1, dualpipe, dualpipev (got "pipedream")' \
  simulate --schedule pipedream --ranks 4 --microbatches 8
expect_error "odd ranks" 'pipesim: invalid_config: ranks must be an even integer >= 2 for dualpipe (got 3)' \
  simulate --schedule dualpipe --ranks 3 --microbatches 8
expect_error "too few micro-batches" 'pipesim: invalid_config: microbatches must be >= 2 * ranks = 16 for dualpipe (got 10)' \
  simulate --schedule dualpipe --ranks 8 --microbatches 10
expect_error "non-integer ranks" 'pipesim: invalid_config: ranks must be an integer (got 2.7)' \
  simulate --schedule 1f1b --ranks 2.7 --microbatches 8
expect_error "negative cost" 'pipesim: invalid_config: costs.backward must be a finite number > 0 (got -2)' \
  simulate --schedule 1f1b --ranks 4 --microbatches 8 --backward -2
expect_error "non-finite cost" 'pipesim: invalid_config: costs.forward must be a finite number > 0 (got Infinity)' \
  simulate --schedule 1f1b --ranks 4 --microbatches 8 --forward inf
expect_error "non-numeric cost" 'pipesim: invalid_config: costs.weight must be a number (got one)' \
  simulate --schedule 1f1b --ranks 4 --microbatches 8 --weight one
expect_error "too large" 'pipesim: too_large: ranks x microbatches is too large: about 3145728 ops for 1f1b, above the limit of 2000000' \
  simulate --schedule 1f1b --ranks 1024 --microbatches 1536
expect_error "malformed JSON" "pipesim: parse_error: input is not valid JSON: parse error at line 1, column 13: syntax error while parsing value - unexpected '}'; expected '[', '{', or a literal" \
  simulate --input <(printf '{"schedule":}')
expect_error "unknown option" 'pipesim: invalid_config: unknown option --rank' \
  simulate --schedule 1f1b --rank 4 --microbatches 8
expect_error "missing flag" 'pipesim: invalid_config: missing --microbatches' \
  simulate --schedule 1f1b --ranks 4
expect_error "unknown command" 'pipesim: invalid_config: unknown command "simulat" (try pipesim help)' simulat

rm -f /tmp/pipesim-cli-err.$$
if [ "$failures" -ne 0 ]; then echo "$failures CLI check(s) failed"; exit 1; fi
echo "CLI contract: all checks passed"
