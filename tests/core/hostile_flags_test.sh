#!/usr/bin/env bash
# Every flag of every command with empty, comma-only, repeated-separator and range-edge values
# (issue 30; beside the hostile-input catalogue, hostile_cli_test.sh). The flags are the ones
# `pipesim help` lists, so a new flag is covered without editing this file; each command is
# tried from a valid base command line with one flag replaced. Every run must end in exit 0
# (with output and nothing on stderr) or in exit 1 with exactly one line on stderr of at most
# 300 bytes, "pipesim: <code>: ...", and nothing on stdout (exit 3 for --output, which names a
# file to write); never a signal (`sweep --ranks 4,,8` was SIGSEGV, exit 139) or exit 2. Empty
# list entries name the list. Prints the count and the slowest refusal (wall time, not asserted).
set -u
cli=${PIPESIM:?set PIPESIM to the pipesim binary}
spec=${PIPESIM_PLAN_SPEC:?set PIPESIM_PLAN_SPEC to a planner spec}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1  # --output with these values writes files named ",", ":" ... here
failures=0
runs=0
slowest_us=0
slowest=""
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Empty, comma-only, repeated separators, range edges, and a few more a typo makes. Each is given
# as `--flag value`; the empty one also as `--flag=`.
values=('' ',' ',,' '4,,8' ',4' '4,' ':' '4::8' ':4' '1:0' '4:8:0' '1:2147483647' '2147483647:2147483647'
        '0' '-1' '2147483648' '1e309' '0R' 'R' '-' '=')

# A minimal Kineto trace for trace-import's base: one compute and one NCCL kernel on two streams.
cat >"$work/trace.json" <<'EOF_TRACE'
{"traceEvents":[
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":0,"dur":10,"args":{"device":0,"stream":7}},
{"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce","pid":0,"tid":20,"ts":5,"dur":10,"args":{"device":0,"stream":20}}
]}
EOF_TRACE

# Valid base command lines, one per line: "command args..." (with --comm-ratio, so that
# --attn-share and --comm-layers get as far as reading their values).
bases=$(cat <<EOF
simulate --schedule 1f1b --ranks 4 --microbatches 8 --comm-ratio 1
export --schedule zb-h1 --ranks 4 --microbatches 8
sweep --schedules 1f1b --ranks 4 --microbatches 8 --comm-ratio 1
lesson --comm-ratio 1
schedules
catalogue
recover --ranks 8 --microbatches 16 --from 1f1b --to dualpipe
params --model custom --pp 2 --layers 4 --hidden 64 --intermediate 128 --vocab 100 --heads 4
trace --schedule 1f1b --ranks 4 --microbatches 8
plan --input $spec
overlap --comm-ratio 1
trace-import --input $work/trace.json
EOF
)
mapfile -t flags < <("$cli" help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u | sed 's/^--//')
[ "${#flags[@]}" -ge 40 ] || fail "pipesim help lists only ${#flags[@]} flags"

# run <expected status for a refusal> args... : one checked invocation.
run() {
  local refusal=$1; shift
  local status start end us err lines
  start=${EPOCHREALTIME/./}
  "$cli" "$@" </dev/null >"$work/out" 2>"$work/err"; status=$?
  end=${EPOCHREALTIME/./}
  runs=$((runs + 1))
  us=$((end - start))
  err=$(head -c 400 "$work/err")
  lines=$(wc -l <"$work/err")
  local what="pipesim$(printf ' %q' "$@")"
  if [ "$status" -eq 0 ]; then
    [ -s "$work/err" ] && fail "$what: exit 0 with stderr: ${err:0:200}"
    return 0
  fi
  if [ "$us" -gt "$slowest_us" ]; then slowest_us=$us; slowest=$what; fi
  if [ "$status" -ne 1 ] && [ "$status" -ne "$refusal" ]; then
    fail "$what: exit status $status: ${err:0:200}"
  elif [ "$lines" -ne 1 ] || [ "$(wc -c <"$work/err")" -gt 300 ] || [[ "$err" != "pipesim: "[a-z_]*": "* ]]; then
    fail "$what: stderr is not one short line: ${err:0:300}"
  elif [ "$status" -eq 1 ] && [ -s "$work/out" ]; then
    fail "$what: exit 1 with $(wc -c <"$work/out") bytes on stdout"
  fi
  return "$status"
}

while read -r -a base; do
  command=${base[0]}
  for flag in "${flags[@]}"; do
    # The base without this flag (and its value), then the flag with each value.
    args=()
    for ((i = 1; i < ${#base[@]}; i++)); do
      if [ "${base[i]}" = "--$flag" ]; then i=$((i + 1)); else args+=("${base[i]}"); fi
    done
    # A flag the command does not take is refused by name once; its values are not tried.
    "$cli" "$command" "${args[@]}" "--$flag" x >/dev/null 2>"$work/err" </dev/null
    [ "$(cat "$work/err")" = "pipesim: invalid_config: unknown option --$flag" ] && continue
    refusal=1
    [ "$flag" = output ] && refusal=3
    for value in "${values[@]}"; do
      run "$refusal" "$command" "${args[@]}" "--$flag" "$value"
    done
    run "$refusal" "$command" "${args[@]}" "--$flag="
  done
done <<<"$bases"

# The list flags say which entry is empty, whatever the list.
for flag in schedules ranks microbatches; do
  for value in '' ',' ',,' '4,,8' ',4' '4,'; do
    err=$("$cli" sweep --"$flag" "$value" 2>&1 >/dev/null)
    [ "$err" = "pipesim: invalid_config: $flag has an empty entry (got \"$value\")" ] ||
      fail "sweep --$flag '$value': $err"
  done
done

echo "hostile CLI flags: $runs runs of ${#flags[@]} flags; slowest refusal $((slowest_us / 1000)) ms: $slowest"
if [ "$failures" -ne 0 ]; then echo "$failures hostile-flag check(s) failed"; exit 1; fi
echo "hostile CLI flags: all checks passed"
