#!/usr/bin/env bash
# The hostile-input catalogue of issue 13 against the CLI: each input must end in exit 1, nothing
# on stdout, exactly one line on stderr of at most 300 bytes with the expected code, all within
# a sanity bound of HOSTILE_SECONDS (default 10) of CPU time. The bound only catches a hang or a
# quadratic blow-up (which on these multi-MB inputs would take hours), and counts CPU rather than
# wall time so that a machine busy with other builds does not fail it. Even CPU time inflates
# under contention, though: the costliest input, 15 MB of `{}` (5 million objects, ~345 MB of
# document), takes 1.5 s of CPU on a quiet 2-core VM and took 3.5 s at load 9, which failed the
# earlier 3-second bound.
set -u
cli=${PIPESIM:?set PIPESIM to the pipesim binary}
limit=${HOSTILE_SECONDS:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
checks=0
slowest_ms=0
slowest=""

# hostile <description> <expected code> <stdin file or -> args...
hostile() {
  local what=$1 code=$2 input=$3; shift 3
  local status out_bytes err lines bytes ms TIMEFORMAT='%3U %3S'
  [ "$input" = - ] && input=/dev/null
  { time "$cli" "$@" <"$input" >"$work/out" 2>"$work/err"; } 2>"$work/time"; status=$?
  ms=$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$work/time")
  out_bytes=$(wc -c <"$work/out")
  lines=$(wc -l <"$work/err")
  bytes=$(wc -c <"$work/err")
  err=$(head -c 400 "$work/err")
  checks=$((checks + 1))
  if [ "$ms" -gt "$slowest_ms" ]; then slowest_ms=$ms; slowest=$what; fi
  local why=""
  [ "$status" -eq 1 ] || why+=" exit status $status;"
  [ "$out_bytes" -eq 0 ] || why+=" $out_bytes bytes on stdout;"
  [ "$lines" -eq 1 ] && [ "$(tail -c 1 "$work/err" | od -An -c | tr -d ' ')" = '\n' ] || why+=" $lines lines on stderr;"
  [ "$bytes" -le 300 ] || why+=" $bytes bytes on stderr;"
  case "$err" in "pipesim: $code: "*) ;; *) why+=" not a $code;";; esac
  LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$work/err" && why+=" control characters;"
  iconv -f UTF-8 -t UTF-8 "$work/err" >/dev/null 2>&1 || why+=" not UTF-8;"
  [ "$ms" -le $((limit * 1000)) ] || why+=" took ${ms} ms of CPU;"
  if [ -n "$why" ]; then
    echo "FAIL: $what:$why stderr: ${err:0:300}"
    failures=$((failures + 1))
  fi
}

# Inputs, written once beforehand, so generating them is not what is timed.
py() { python3 -c "$1" >"$2"; }
py "print('['*100000 + ']'*100000)" "$work/deep.json"
py "print('{\"schedule\":\"1f1b\",\"ranks\":' + '['*100000 + ']'*100000 + ',\"microbatches\":8}')" "$work/deep-ranks.json"
py "print('{\"cluster\":' + '{\"a\":'*100000 + '1' + '}'*100000 + '}')" "$work/deep-plan.json"
py "print('{\"schedule\":\"1f1b\",\"ranks\":[' + '0,'*50000000 + '0],\"microbatches\":8}')" "$work/array-100mb.json"
head -c 100000000 /dev/zero | tr '\0' ' ' >"$work/spaces-100mb.json"
{ printf '{"schedule":"'; head -c 20000000 /dev/zero | tr '\0' 'p'; printf '","ranks":4,"microbatches":8}'; } >"$work/name-20mb.json"
{ printf '{"schedule":"'; head -c 10000000 /dev/zero | tr '\0' 'p'; printf '","ranks":4,"microbatches":8}'; } >"$work/name-10mb.json"
printf '{"schedule":"1f1b","ranks":4,"ranks":8,"microbatches":8}' >"$work/duplicate.json"
printf '{"schedule":"1f\\nb","ranks":4,"microbatches":8}' >"$work/newline-value.json"
printf '{"sched\\nule":"1f1b","ranks":4,"microbatches":8}' >"$work/newline-key.json"
printf '{"schedule":"\xff\xfe","ranks":4,"microbatches":8}' >"$work/bad-utf8.json"
printf '{"schedule":"custom","stages":1,"microbatches":1,"rankOps":[["F0.0@0\\nB0.0@0"]]}' >"$work/newline-label.json"
py "print('{\"schedule\":\"custom\",\"stages\":1,\"microbatches\":1,\"rankOps\":[[\"' + 'F'*5000000 + '\"]]}')" "$work/long-label.json"
py "print('{\"schedule\":\"1f1b\",\"ranks\":4,\"microbatches\":8,\"costs\":{\"' + 'k'*1000000 + '\":1}}')" "$work/long-key.json"
py "print('{\"schedule\":\"' + 'x'*3000000)" "$work/unterminated.json"
py "print('[' + '{},'*5000000 + '{}]')" "$work/objects-15mb.json"
printf '{"schedule":"custom","stages":2,"microbatches":1,"rankOps":[["F0.0@0","B0.0@0"],[{"op":"F","dir":0,"mb":0,"stage":1,"evil":1},"B0.0@1"]]}' >"$work/op-unknown-field.json"
printf '{"schedule":"custom","stages":1,"microbatches":2,"rankOps":[["F0.0@0",{"op":"FB","fdir":0,"fmb":1,"fstage":0,"bdir":0,"bmb":0,"bstage":0,"evil":1},"B0.1@0"]]}' >"$work/pair-unknown-field.json"
py "print('{' + ','.join('\"%x\":0' % i for i in range(1500000)) + '}')" "$work/keys-15mb.json"

hostile "100,000 nested arrays on stdin" parse_error "$work/deep.json" simulate --input -
hostile "100,000 nested arrays as ranks" parse_error "$work/deep-ranks.json" simulate --input -
hostile "100,000 nested objects in a planner spec" parse_error "$work/deep-plan.json" plan --input -
hostile "100 MB array as ranks on stdin" too_large "$work/array-100mb.json" simulate --input -
hostile "100 MB array as ranks from a file" too_large - simulate --input "$work/array-100mb.json"
hostile "100 MB of whitespace" too_large "$work/spaces-100mb.json" simulate --input -
hostile "100 MB of whitespace for the planner" too_large "$work/spaces-100mb.json" plan --input -
hostile "20 MB schedule name" too_large "$work/name-20mb.json" simulate --input -
hostile "10 MB schedule name" unknown_schedule "$work/name-10mb.json" simulate --input -
hostile "duplicate key" parse_error "$work/duplicate.json" simulate --input -
hostile "newline in a schedule name" unknown_schedule "$work/newline-value.json" simulate --input -
hostile "newline in a key" invalid_config "$work/newline-key.json" simulate --input -
hostile "invalid UTF-8 in a string" parse_error "$work/bad-utf8.json" simulate --input -
hostile "newline in an op label" invalid_schedule "$work/newline-label.json" simulate --input -
hostile "5 MB op label" invalid_schedule "$work/long-label.json" simulate --input -
hostile "1 MB unknown key" invalid_config "$work/long-key.json" simulate --input -
hostile "3 MB unterminated string" parse_error "$work/unterminated.json" simulate --input -
hostile "5 million empty objects" invalid_config "$work/objects-15mb.json" simulate --input -
hostile "an object of 1.5 million keys" invalid_config "$work/keys-15mb.json" simulate --input -
hostile "a directory as input" invalid_config - simulate --input "$work"
hostile "an unknown field in an op object" invalid_config "$work/op-unknown-field.json" simulate --input -
hostile "an unknown field in an FB op object" invalid_config "$work/pair-unknown-field.json" simulate --input -
hostile "an unknown field in an op object, exported" invalid_config "$work/op-unknown-field.json" export --input -
hostile "newline in a command" invalid_config - $'simu\nlate'
hostile "invalid UTF-8 in a command" invalid_config - $'simulate\xff'
hostile "100 KB command" invalid_config - "$(head -c 100000 /dev/zero | tr '\0' 'c')"
hostile "newline in a flag" invalid_config - simulate $'--sched\nule' 1f1b
hostile "newline in --schedule" unknown_schedule - simulate --schedule $'1f1b\nx' --ranks 4 --microbatches 8
hostile "100 KB --schedule" unknown_schedule - simulate --schedule "$(head -c 100000 /dev/zero | tr '\0' 's')" --ranks 4 --microbatches 8
hostile "newline in --format" invalid_config - simulate --schedule 1f1b --ranks 4 --microbatches 8 --format $'js\non'
hostile "hex ranks" invalid_config - simulate --schedule 1f1b --ranks 0x10 --microbatches 8
hostile "ranks with a leading space" invalid_config - simulate --schedule 1f1b --ranks ' 4' --microbatches 8
hostile "ranks with a trailing newline" invalid_config - simulate --schedule 1f1b --ranks $'4\n' --microbatches 8
hostile "ranks with a plus sign" invalid_config - simulate --schedule 1f1b --ranks +4 --microbatches 8
hostile "infinite cost" invalid_config - simulate --schedule 1f1b --ranks 4 --microbatches 8 --forward inf
hostile "NaN cost" invalid_config - simulate --schedule 1f1b --ranks 4 --microbatches 8 --forward nan
hostile "hex cost" invalid_config - simulate --schedule 1f1b --ranks 4 --microbatches 8 --forward 0x1p3
hostile "hex ranks list" invalid_config - sweep --schedules 1f1b --ranks 0x4,8 --microbatches 8
hostile "hex recover ranks" invalid_config - recover --ranks 0x8 --microbatches 16
hostile "newline in a recover schedule" unknown_schedule - recover --ranks 8 --microbatches 16 --to $'dual\npipe'
hostile "largest 1f1b run plus one" too_large - simulate --schedule 1f1b --ranks 1024 --microbatches 977
# The memory model: huge layouts and parameter counts fail fast; its schedule is simulated only for
# activations, under the simulator's size cap.
hostile "memory: parameters past the cap" invalid_config - memory --params 1e17
hostile "memory: NaN parameters" invalid_config - memory --params nan
hostile "memory: a layout of 2^31 GPUs" invalid_config - memory --params 1e9 --gpus 2147483648
hostile "memory: activations at P = 1024" too_large - memory --params 1e9 --pp 1024 --layers 1024 --hidden 8 --heads 1 --seq-length 8
hostile "memory: 100,000 nested sides" parse_error "$work/deep.json" memory --input -
hostile "memory: a newline in a recipe" invalid_config - memory --params 1e9 --recipe $'mixed\nadam'
hostile "simulate: a memory model with no model" invalid_config - simulate --schedule 1f1b --ranks 4 --microbatches 8 --zero 1

# Strict numbers do not reject what JSON accepts: 8.0 is an integer, 1e0 a cost.
out=$("$cli" simulate --schedule 1f1b --ranks 4.0 --microbatches 8 --forward 1e0 --format json 2>&1) ||
  { echo "FAIL: --ranks 4.0 --forward 1e0 are refused: $out"; failures=$((failures + 1)); }
# The messages quote values as summaries: escaped, cut, with the length.
err=$("$cli" simulate --schedule $'1f1b\nx' --ranks 4 --microbatches 8 2>&1)
# (the list of schedules between is the catalogue's, which grows)
[[ "$err" == 'pipesim: unknown_schedule: schedule must be one of '*' (got "1f1b\nx")' && "$err" != *$'\n'* ]] ||
  { echo "FAIL: newline in --schedule is not escaped: $err"; failures=$((failures + 1)); }
err=$("$cli" simulate --schedule 1f1b --ranks 0x10 --microbatches 8 2>&1)
[ "$err" = 'pipesim: invalid_config: ranks must be an integer (got 0x10)' ] ||
  { echo "FAIL: --ranks 0x10: $err"; failures=$((failures + 1)); }
err=$("$cli" simulate --input - <"$work/duplicate.json" 2>&1)
[ "$err" = 'pipesim: parse_error: input has the key "ranks" twice in one object' ] ||
  { echo "FAIL: duplicate key: $err"; failures=$((failures + 1)); }
err=$("$cli" simulate --input - <"$work/op-unknown-field.json" 2>&1)
[ "$err" = 'pipesim: invalid_config: unknown field "evil" in rankOps.1.0' ] ||
  { echo "FAIL: unknown field in an op object: $err"; failures=$((failures + 1)); }
err=$("$cli" simulate --input - <"$work/spaces-100mb.json" 2>&1)
[ "$err" = 'pipesim: too_large: input is larger than the limit of 16777216 bytes' ] ||
  { echo "FAIL: 100 MB of whitespace: $err"; failures=$((failures + 1)); }

echo "hostile CLI inputs: $checks checked; slowest refusal $slowest_ms ms of CPU: $slowest"
if [ "$failures" -ne 0 ]; then echo "$failures hostile-input check(s) failed"; exit 1; fi
echo "hostile CLI inputs: all checks passed"
