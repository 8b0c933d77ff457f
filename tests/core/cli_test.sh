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
# --chunks reaches the config: 4 chunks on 4 ranks are 16 stages; Narayanan's bubble (p-1)(F+B) = 9.
json=$("$cli" simulate --schedule interleaved-1f1b --ranks 4 --microbatches 8 --chunks 4 --format json)
case "$json" in *'"stages":16,'*'"bubble":{"max":9.0,'*) ;; *) echo "FAIL: interleaved-1f1b --chunks 4"; failures=$((failures + 1));; esac
expect_ok "sweep csv" sweep --schedules all --ranks 4:8:2 --microbatches 2R,4R --format csv
expect_ok "lesson" lesson
# Chrome trace: exactly one complete ("X") event per op of the simulation.
trace=$("$cli" simulate --schedule dualpipe --ranks 4 --microbatches 8 --format chrome)
complete=$(printf '%s' "$trace" | grep -o '"ph":"X"' | wc -l)
[ "$complete" -eq "$("$cli" simulate --schedule dualpipe --ranks 4 --microbatches 8 --format json | grep -o '"start"' | wc -l)" ] ||
  { echo "FAIL: chrome trace has $complete op events"; failures=$((failures + 1)); }

expect_error "unknown schedule" 'pipesim: unknown_schedule: schedule must be one of gpipe, 1f1b, zb-h1, dualpipe, dualpipev, chimera, interleaved-1f1b, zb-h2, zb-v (got "pipedream")' \
  simulate --schedule pipedream --ranks 4 --microbatches 8
expect_error "chunks on a fixed layout" 'pipesim: invalid_config: chunks applies only to interleaved-1f1b; 1f1b has a fixed layout (got 2)' \
  simulate --schedule 1f1b --ranks 4 --microbatches 8 --chunks 2
expect_error "odd ranks" 'pipesim: invalid_config: ranks must be an even integer >= 2 for dualpipe (got 3)' \
  simulate --schedule dualpipe --ranks 3 --microbatches 8
expect_error "too few micro-batches" 'pipesim: invalid_config: microbatches must be >= 2 * ranks = 16 for dualpipe (got 10)' \
  simulate --schedule dualpipe --ranks 8 --microbatches 10
expect_error "non-integer ranks" 'pipesim: invalid_config: ranks must be an integer (got 2.7)' \
  simulate --schedule 1f1b --ranks 2.7 --microbatches 8
expect_error "negative cost" 'pipesim: invalid_config: costs.backward must be a finite number > 0 (got -2)' \
  simulate --schedule 1f1b --ranks 4 --microbatches 8 --backward -2
# A flag's number is a JSON number (issue 13): "inf" is not one, as it is not in a config.
expect_error "non-finite cost" 'pipesim: invalid_config: costs.forward must be a number (got inf)' \
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

# Exercise calculators (issue 5): same messages as their JSON requests.
expect_ok "chimera" simulate --schedule chimera --ranks 4 --microbatches 8
expect_error "chimera needs M divisible by ranks" 'pipesim: invalid_config: microbatches must be a multiple of ranks = 8 for chimera (got 20)' \
  simulate --schedule chimera --ranks 8 --microbatches 20
json=$("$cli" recover --ranks 8 --microbatches 16 --from 1f1b --to dualpipe --format json)
case "$json" in *'"makespanFrom":69.0,"makespanTo":54.0,'*) ;; *) echo "FAIL: recover 8x16 makespans are not 69 and 54"; failures=$((failures + 1));; esac
expect_ok "recover text" recover --ranks 8 --microbatches 16
# Issue 26: the saving against M, and a whole-run figure only with its M (P = 16 over 14.8e12
# tokens: 0.18 x 31 / (3M + 14) x 14.8e6, 750,764 GPU-hours at M = 32 and 105,606 at M = 256).
text=$("$cli" recover --ranks 16 --microbatches 32 --training-tokens 14.8e12)
case "$text" in *'over the run 750,764 GPU-hours for 1.48e+13 tokens, at M = 32'*'256     0.9446  0.9821      0.007135549872      105,606'*) ;;
  *) echo "FAIL: recover --training-tokens does not print the run's saving with its M and the saving at M = 256"; failures=$((failures + 1));; esac
expect_error "recover unknown schedule" 'pipesim: unknown_schedule: to must be one of gpipe, 1f1b, zb-h1, dualpipe, dualpipev, chimera, interleaved-1f1b, zb-h2, zb-v (got "dualpipes")' \
  recover --ranks 8 --microbatches 16 --to dualpipes
json=$("$cli" params --model llama3-70b --pp 8 --format json)
case "$json" in *'"totalParams":70553706496,'*) ;; *) echo "FAIL: params llama3-70b total is not 70553706496"; failures=$((failures + 1));; esac
expect_ok "params custom" params --model custom --layers 4 --hidden 64 --intermediate 256 --vocab 100 --heads 4 --pp 2
expect_error "params ep" 'pipesim: invalid_config: ep must divide the routed experts = 256 (got 48)' \
  params --model deepseek-v3 --pp 16 --ep 48
expect_error "params recipe" 'pipesim: invalid_config: recipe must be one of mixed-adam, deepseek-v3 (got "sgd")' \
  params --model llama3-70b --pp 8 --recipe sgd
# The memory model: the ZeRO paper's worked example (§5, Figure 1: 7.5B parameters, K = 12, 64
# data-parallel GPUs, stage 1: 4 x 7.5 + 12 x 7.5 / 64 = 31.4 GB), mixed-precision Adam by default.
text=$("$cli" memory --params 7.5e9 --dp 64 --zero 1)
case "$text" in *'model states     31.4 GB per GPU'*) ;; *) echo "FAIL: memory --params 7.5e9 --dp 64 --zero 1 does not print 31.4 GB"; failures=$((failures + 1));; esac
json=$("$cli" memory --params 7.5e9 --dp 64 --zero 1 --format json)
case "$json" in *'"perGpu":{"params":7500000000.0,"nonRoutedParams":7500000000.0,"routedParams":0.0,"bytes":{"weights":15000000000.0,"gradients":15000000000.0,"masterWeights":468750000.0,"optimizerStates":937500000.0,"total":31406250000.0}}'*) ;; *) echo "FAIL: memory --format json model states"; failures=$((failures + 1));; esac
expect_error "memory ep" 'pipesim: invalid_config: ep must divide dp = 32 (got 64)' \
  memory --model deepseek-v3 --pp 16 --ep 64 --dp 32
expect_error "memory both" 'pipesim: invalid_config: give either model (llama3-70b, deepseek-v3, custom) or params (a parameter count), not both' \
  memory --model llama3-70b --params 7e10
json=$("$cli" trace --schedule dualpipe --ranks 4 --microbatches 8 --format json)
case "$json" in *'"firstAllBusySlot":1,'*) ;; *) echo "FAIL: dualpipe 4x8 first all-busy slot is not 1"; failures=$((failures + 1));; esac
expect_error "trace off-grid cost" 'pipesim: invalid_config: costs.overlapped must be a multiple of slotLength = 1 for a slot grid (got 2.5)' \
  trace --schedule dualpipe --ranks 4 --microbatches 8 --overlapped 2.5

# Communication model and planner (issue 4).
presets=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../lessons/planner-presets" && pwd)
json=$("$cli" simulate --schedule 1f1b --ranks 8 --microbatches 64 --comm-ratio 1 --format json)
case "$json" in *'"makespan":355.0,'*'"computeUtilization":0.5408450704225352,'*) ;;
  *) echo "FAIL: 1f1b 8x64 at 1:1 makespan is not 71 x 5 = 355 / compute utilization not 192/355"; failures=$((failures + 1));; esac
json=$("$cli" simulate --schedule 1f1b --ranks 8 --microbatches 64 --format json)
case "$json" in *'"comm"'*) echo "FAIL: comm fields without a comm model"; failures=$((failures + 1));; esac
json=$("$cli" overlap --comm-ratio 1 --format json)
case "$json" in *'"duration":3.0,"compute":3.0,"comm":2.0,"exposed":0.0,"hidden":2.0,'*) ;;
  *) echo "FAIL: one pair at 1:1 does not last 3 with nothing exposed"; failures=$((failures + 1));; esac
expect_ok "overlap text" overlap --comm-ratio 1 --comm-layers 4
expect_error "attn share without ratio" 'pipesim: invalid_config: --attn-share needs --comm-ratio' \
  simulate --schedule 1f1b --ranks 4 --microbatches 8 --attn-share 0.3
expect_error "negative ratio" 'pipesim: invalid_config: costs.comm.ratio must be a finite number in [0, 500000] (got -1)' \
  simulate --schedule 1f1b --ranks 4 --microbatches 8 --comm-ratio -1
expect_error "overlap needs a comm model" 'pipesim: invalid_config: missing --comm-ratio (or --input with a comm model)' overlap
json=$("$cli" plan --input "$presets/deepseek-v3-2048-h800.json" --format json)
case "$json" in *'"schedule":"dualpipe","scheduleTitle":"DualPipe","ranks":16,'*) ;;
  *) echo "FAIL: the DeepSeek-V3 preset does not plan DualPipe at P = 16"; failures=$((failures + 1));; esac
expect_ok "plan markdown" plan --input "$presets/dense-70b-1024.json"
json=$("$cli" plan --input "$presets/dense-7b-8gpu.json" --format json)
case "$json" in *'"reject":{"rule":"fits-one-gpu",'*) ;; *) echo "FAIL: 7B on 8 GPUs is not rejected"; failures=$((failures + 1));; esac
expect_error "plan missing field" 'pipesim: invalid_config: missing field cluster.gpus' \
  plan --input <(printf '{"cluster":{}}')
expect_error "plan wrong type" 'pipesim: invalid_config: model.layers must be an integer (got "61")' \
  plan --input <(sed 's/"layers": 61/"layers": "61"/' "$presets/deepseek-v3-2048-h800.json")
expect_error "plan needs input" 'pipesim: invalid_config: missing --input (a spec file, or - for stdin)' plan
expect_error "plan format" 'pipesim: invalid_config: format must be md|json (got html)' \
  plan --input "$presets/dense-70b-1024.json" --format html

# torch.distributed.pipelining CSV out and back in, and runtime timing (issue 12).
csv=/tmp/pipesim-cli-csv.$$
"$cli" export --schedule dualpipe --ranks 4 --microbatches 8 > "$csv"
metrics='^(makespan|bubble max|bubble total|bubble frac)'
direct=$("$cli" simulate --schedule dualpipe --ranks 4 --microbatches 8 --backward 1.5 --weight 0.9 | grep -E "$metrics")
again=$("$cli" simulate --input "$csv" --backward 1.5 --weight 0.9 | grep -E "$metrics")
[ -n "$direct" ] && [ "$direct" = "$again" ] ||
  { echo "FAIL: export then simulate --input differs from simulate"; failures=$((failures + 1)); }
# At unit costs (F = B = 1) the export is torch's step grid, idle steps as empty cells (worked by
# hand in tests/core/pytorch_csv_test.cpp); at the default B = 2 the compact rows.
grid=$("$cli" export --schedule 1f1b --ranks 2 --microbatches 2 --backward 1 | tr -d '\r')
[ "$grid" = "$(printf '0F0,0F1,,0B0,,0B1\n,1F0,1B0,1F1,1B1')" ] ||
  { echo "FAIL: export at unit costs is not the step grid: $grid"; failures=$((failures + 1)); }
compact=$("$cli" export --schedule 1f1b --ranks 2 --microbatches 2 | tr -d '\r')
[ "$compact" = "$(printf '0F0,0F1,0B0,0B1\n1F0,1B0,1F1,1B1')" ] ||
  { echo "FAIL: export at unequal costs is not compact: $compact"; failures=$((failures + 1)); }
expect_error "export costs beside a request" 'pipesim: invalid_config: --backward cannot be combined with --input' \
  export --input <(printf '{}') --backward 1
printf '0F0,1X0\n' > "$csv"
expect_error "bad CSV cell" \
  'pipesim: invalid_schedule: row 1, column 2: "1X0" is not a compute action such as 0F1, 1I0, 2W3, 3B0 or (0F7;7B3)OVERLAP_F_B' \
  simulate --input "$csv"
rm -f "$csv"
expect_error "unknown timing" 'pipesim: invalid_config: timing must be one of dependency, runtime (got "eager")' \
  simulate --schedule dualpipe --ranks 4 --microbatches 8 --timing eager
expect_ok "runtime timing" simulate --schedule dualpipev --ranks 4 --microbatches 10 --timing runtime
# Per-stage costs: 1F1B 2x2 with stage 1 twice stage 0 takes 15 (tests/core/stage_costs_test.cpp);
# the compact list, its xN repeat and a JSON file say the same.
json=$("$cli" simulate --schedule 1f1b --ranks 2 --microbatches 2 --stage-costs 1/2,2/4 --format json)
case "$json" in *'"makespan":15.0,'*) ;; *) echo "FAIL: --stage-costs 1/2,2/4 makespan is not 15"; failures=$((failures + 1));; esac
stages=$(mktemp --suffix=.json)
printf '{"stageCosts":[{"forward":1,"backward":2},{"forward":2,"backward":4}]}' > "$stages"
[ "$json" = "$("$cli" simulate --schedule 1f1b --ranks 2 --microbatches 2 --stage-costs "$stages" --format json)" ] ||
  { echo "FAIL: --stage-costs FILE.json differs from the list"; failures=$((failures + 1)); }
rm -f "$stages"
expect_ok "stage costs repeated" simulate --schedule dualpipe --ranks 4 --microbatches 8 --stage-costs 0.5x2,1,1.5
expect_ok "layer split" simulate --schedule dualpipe --ranks 16 --microbatches 32 --layer-split deepseek-v3
expect_ok "split command" split --model deepseek-v3 --stages 16
expect_error "stage count" 'pipesim: invalid_config: stageCosts must have one entry per pipeline stage: 4 here (got 3)' \
  simulate --schedule 1f1b --ranks 4 --microbatches 8 --stage-costs 1x3
expect_error "stage costs syntax" \
  'pipesim: invalid_config: --stage-costs must be stages like 1/2/1/3,0.5/1,1x14 (F/B/W/F&B, empty fields take the costs, xN repeats) or a .json file (got 1/2/3/4/5)' \
  simulate --schedule 1f1b --ranks 1 --microbatches 2 --stage-costs 1/2/3/4/5
expect_error "stage cost range" 'pipesim: invalid_config: stageCosts.1.forward must be a finite number > 0 (got 0)' \
  simulate --schedule 1f1b --ranks 2 --microbatches 2 --stage-costs 1,0
expect_error "both stage flags" 'pipesim: invalid_config: --layer-split cannot be combined with --stage-costs' \
  simulate --schedule 1f1b --ranks 2 --microbatches 2 --stage-costs 1,1 --layer-split deepseek-v3

# Megatron-Core's combined 1F1B (issue 26): switches without a value, its rules, the pair's order.
# One rank, M = 16, ratio 1: F0 and B15 alone (2 + 3), 15 pairs of 3: 50, hiding 30 of 32.
json=$("$cli" simulate --schedule 1f1b --ranks 1 --microbatches 16 --comm-ratio 1 --a2a-overlap --format json)
case "$json" in *'"a2aOverlap":true,"makespan":50.0,'*'"hidden":30.0,'*'"partOrder":"megatron"'*) ;;
  *) echo "FAIL: 1f1b 1x16 --a2a-overlap at 1:1 does not last 50 hiding 30"; failures=$((failures + 1));; esac
expect_ok "export combined 1F1B" export --schedule interleaved-1f1b --ranks 4 --microbatches 8 --a2a-overlap --delay-wgrad
expect_error "a2a overlap on dualpipe" \
  'pipesim: invalid_config: a2aOverlap is Megatron-Core'"'"'s combined 1F1B (--overlap-moe-expert-parallel-comm), so schedule must be one of 1f1b, interleaved-1f1b (got "dualpipe")' \
  simulate --schedule dualpipe --ranks 4 --microbatches 8 --a2a-overlap
expect_error "a2a overlap on 1f1b across ranks" \
  'pipesim: invalid_config: a2aOverlap on more than one rank needs chunks >= 2, as Megatron-Core requires virtual pipeline stages when PP > 1 (1f1b has 1 per rank on 8 ranks)' \
  simulate --schedule 1f1b --ranks 8 --microbatches 16 --a2a-overlap
expect_error "delay wgrad alone" \
  'pipesim: invalid_config: delayWgrad needs a2aOverlap: Megatron-Core'"'"'s --delay-wgrad-compute requires --overlap-moe-expert-parallel-comm' \
  simulate --schedule 1f1b --ranks 1 --microbatches 4 --delay-wgrad
expect_error "switch with a value" 'pipesim: invalid_config: --a2a-overlap takes no value (got "true")' \
  simulate --schedule 1f1b --ranks 1 --microbatches 4 --a2a-overlap=true
expect_error "switch twice" 'pipesim: invalid_config: --a2a-overlap is given twice' \
  simulate --schedule 1f1b --ranks 1 --microbatches 4 --a2a-overlap --a2a-overlap
expect_error "switch beside --input" 'pipesim: invalid_config: --a2a-overlap cannot be combined with --input' \
  simulate --input - --a2a-overlap
json=$("$cli" overlap --comm-ratio 1 --order megatron --format json)
case "$json" in *'"order":"megatron"'*) ;; *) echo "FAIL: overlap --order megatron"; failures=$((failures + 1));; esac
expect_error "unknown pair order" 'pipesim: invalid_config: order must be one of deepseek, megatron, megatron-delay-wgrad (got "nvidia")' \
  overlap --comm-ratio 1 --order nvidia

rm -f /tmp/pipesim-cli-err.$$
if [ "$failures" -ne 0 ]; then echo "$failures CLI check(s) failed"; exit 1; fi
echo "CLI contract: all checks passed"
