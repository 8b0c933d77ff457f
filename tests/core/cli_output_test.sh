#!/usr/bin/env bash
# Every write checked (issue 30): each command that writes, with its output on a full device
# (/dev/full), on a closed stdout, and in an --output file on a location that cannot take it,
# must exit 3 with exactly one line on stderr, "pipesim: output_failed: cannot write ...: <the
# OS's reason>", and leave no partial file behind (an --output file that existed stays as it
# was). Before, a full or closed stdout exited 0 with nothing said, the output lost.
set -u
cli=${PIPESIM:?set PIPESIM to the pipesim binary}
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
failures=0
checks=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# One invocation of every command that writes (the large simulation streams 55 MB of JSON).
commands=(
  "simulate --schedule dualpipe --ranks 8 --microbatches 20"
  "simulate --schedule dualpipe --ranks 8 --microbatches 20 --format json"
  "simulate --schedule zb-h1 --ranks 4 --microbatches 8 --format chrome"
  "simulate --schedule dualpipev --ranks 64 --microbatches 4096 --format json"
  "export --schedule zb-h1 --ranks 4 --microbatches 8"
  "sweep --schedules all --ranks 4:8:2 --microbatches 2R,4R"
  "sweep --schedules all --ranks 4:8:2 --microbatches 2R,4R --format csv"
  "sweep --schedules all --ranks 4:8:2 --microbatches 2R,4R --format json"
  "lesson"
  "lesson --format json"
  "schedules"
  "schedules --format json"
  "catalogue"
  "recover --ranks 8 --microbatches 16 --from 1f1b --to dualpipe"
  "params --model deepseek-v3 --pp 16 --ep 64 --dp 128"
  "trace --schedule 1f1b --ranks 4 --microbatches 8"
  "overlap --comm-ratio 1"
  "simulate --schedule interleaved-1f1b --ranks 2 --microbatches 4 --chunks 2 --comm-ratio 1 --a2a-overlap"
  "plan --input ${PIPESIM_PLAN_SPEC:-lessons/planner-presets/deepseek-v3-2048-h800.json}"
  "help"
)

# expect_output_failed <description> <expected stderr line: a glob> <status> ; stderr in $work/err
expect_output_failed() {
  local what=$1 pattern=$2 status=$3 err
  err=$(cat "$work/err")
  checks=$((checks + 1))
  if [ "$status" -ne 3 ] || [ "$(wc -l <"$work/err")" -ne 1 ] || [[ "$err" != $pattern ]]; then
    fail "$what: status $status, stderr '${err:0:200}' (expected '$pattern')"
  fi
}

for command in "${commands[@]}"; do
  # shellcheck disable=SC2086  # each command is a list of words
  "$cli" $command >/dev/null 2>"$work/err" || fail "$command: fails on /dev/null: $(cat "$work/err")"
  "$cli" $command >/dev/full 2>"$work/err"
  expect_output_failed "$command >/dev/full" 'pipesim: output_failed: cannot write standard output: No space left on device' $?
  "$cli" $command >&- 2>"$work/err"
  expect_output_failed "$command >&-" 'pipesim: output_failed: cannot write standard output: Bad file descriptor' $?
  "$cli" $command --output /dev/full 2>"$work/err"
  expect_output_failed "$command --output /dev/full" 'pipesim: output_failed: cannot write "/dev/full": No space left on device' $?
done

# An --output file that cannot grow past 8 KiB (RLIMIT_FSIZE: write(2) fails with EFBIG once
# SIGXFSZ is ignored): the earlier file stays whole, and no temporary file is left beside it.
mkdir "$work/out"
printf 'earlier\n' >"$work/out/result.json"
( trap '' XFSZ; ulimit -f 8
  exec "$cli" simulate --schedule dualpipe --ranks 8 --microbatches 64 --format json --output "$work/out/result.json" ) 2>"$work/err"
expect_output_failed "--output past the file size limit" "pipesim: output_failed: cannot write \"$work/out/result.json\": File too large" $?
[ "$(cat "$work/out/result.json")" = earlier ] || fail "the earlier file was changed"
[ "$(ls "$work/out")" = result.json ] || fail "files left beside the output: $(ls "$work/out" | tr '\n' ' ')"

# Places no file can be written: a missing directory, a directory, a path under a file.
for target in "$work/missing/result.json" "$work/out" "$work/out/result.json/x" ""; do
  "$cli" catalogue --output "$target" 2>"$work/err"
  expect_output_failed "--output '$target'" "pipesim: output_failed: cannot write \"$target\": *" $?
done
# A read-only directory: permissions stop anyone but root; for root, a read-only tmpfs when it
# can mount one (else this case is skipped, and said so).
readonly_dir=""
if [ "$(id -u)" -ne 0 ]; then
  mkdir "$work/ro" && chmod a-w "$work/ro" && readonly_dir="$work/ro"
elif mkdir "$work/ro" && mount -t tmpfs -o ro,size=64k tmpfs "$work/ro" 2>/dev/null; then
  readonly_dir="$work/ro"
  trap 'umount "$work/ro" 2>/dev/null; chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
fi
if [ -n "$readonly_dir" ]; then
  "$cli" catalogue --output "$readonly_dir/catalogue.json" 2>"$work/err"
  expect_output_failed "--output in a read-only directory" "pipesim: output_failed: cannot write \"$readonly_dir/catalogue.json\": *" $?
  [ -z "$(ls -A "$readonly_dir")" ] || fail "files left in the read-only directory"
else
  echo "skipped: a read-only directory (root without mount rights)"
fi
# A full file system, where one can be mounted (root): ENOSPC part-way through a 55 MB result.
if [ "$(id -u)" -eq 0 ] && mkdir "$work/full" && mount -t tmpfs -o size=1m tmpfs "$work/full" 2>/dev/null; then
  "$cli" simulate --schedule dualpipev --ranks 64 --microbatches 4096 --format json --output "$work/full/big.json" 2>"$work/err"
  expect_output_failed "--output on a full file system" "pipesim: output_failed: cannot write \"$work/full/big.json\": No space left on device" $?
  [ -z "$(ls -A "$work/full")" ] || fail "a partial file was left on the full file system: $(ls -A "$work/full")"
  umount "$work/full"
else
  echo "skipped: a full file system (needs root to mount a small tmpfs)"
fi

# Success: the file holds exactly what stdout would, and only it is left; - is standard output.
"$cli" sweep --schedules all --ranks 4:8:2 --format csv --output "$work/out/sweep.csv" ||
  fail "--output to a writable file failed"
cmp -s "$work/out/sweep.csv" <("$cli" sweep --schedules all --ranks 4:8:2 --format csv) ||
  fail "--output differs from stdout"
[ "$(ls "$work/out" | sort | tr '\n' ' ')" = "result.json sweep.csv " ] || fail "temporary files left: $(ls "$work/out")"
[ "$("$cli" schedules --output -)" = "$("$cli" schedules)" ] || fail "--output - is not standard output"
# The file replaced keeps its mode (the temporary is made 0600).
printf 'x' >"$work/out/shared.txt" && chmod 640 "$work/out/shared.txt"
"$cli" schedules --output "$work/out/shared.txt" || fail "--output over an existing file failed"
[ "$(stat -c %a "$work/out/shared.txt")" = 640 ] || fail "--output changed the mode to $(stat -c %a "$work/out/shared.txt")"
rm "$work/out/shared.txt"
# A bad input with --output creates nothing: the file is opened only once the command succeeded.
"$cli" simulate --schedule dualpipe --ranks 3 --microbatches 8 --output "$work/out/bad.json" 2>/dev/null
[ ! -e "$work/out/bad.json" ] || fail "a failed command created its --output file"
"$cli" catalogue --output a --output b 2>"$work/err"
[ "$(cat "$work/err")" = 'pipesim: invalid_config: --output is given twice' ] || fail "--output twice: $(cat "$work/err")"

echo "CLI output checks: $checks output failures checked"
if [ "$failures" -ne 0 ]; then echo "$failures output check(s) failed"; exit 1; fi
echo "CLI output checks: all passed"
