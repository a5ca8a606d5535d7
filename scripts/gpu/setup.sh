# The one set-up of a lent GPU machine (source it from the project root: `source scripts/gpu/setup.sh`).
# Idempotent: installs what the carried bundles of scripts/gpu/pack.sh hold and is not there yet, then exports what
# the project's modules need. pack.sh cuts the model (a GGUF) into parts so that each call's carry fits beside the
# working tree in 64 MiB: carry .gpu/1, .gpu/2, ... one per call, in calls in a row (the machine goes cold after
# ~30 s idle), each running `source scripts/gpu/setup.sh`. The last bundle brings the wheels and the corpus; once
# every part named in `parts` is here, the model is joined, checked and converted (~50 s). A machine that went cold
# needs them all again.
# Before the first call, here: .venv/bin/python scripts/gpu/call_size.py .gpu/1 (the device counts a call as tar does).
G=/tmp/gpu
# DRY_RUN=FILE (tests/scripts/test_gpu_scripts.py): nothing is installed or run; each python3 command a part would run
# is written to FILE, one line each, its arguments quoted as bash would read them back (shlex.split does too: a JSON
# argument such as --lr_scheduler_kwargs '{"num_decay_steps": 152}' stays one), and the set-up counts as ready
if [ -n "$DRY_RUN" ]; then
python3() { { printf python3; printf ' %q' "$@"; echo; } >> "$DRY_RUN"; }
timeout() { while [ "${1#-}" != "$1" ]; do shift 2; done; shift; "$@"; }  # timeout [-s SIGNAL] DURATION COMMAND...
else  # (the install, not indented: its heredoc and its quoted Python keep their columns)
mkdir -p $G
for part in .gpu/*/model.part_* .gpu/*/parts; do
  [ -f "$part" ] && [ ! -f $G/$(basename $part) ] && cp "$part" $G/
done
wheels=$(ls .gpu/*/wheels/*.whl 2>/dev/null)
if [ -n "$wheels" ] && [ ! -f $G/.wheels-installed ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target $G/site $wheels \
    && touch $G/.wheels-installed
fi
if [ -f $G/.wheels-installed ] && [ -f $G/parts ] && [ ! -f $G/smollm2-135m-instruct/model.safetensors ] \
  && (cd $G && sha256sum -c --quiet parts >/dev/null 2>&1); then
  cat $G/model.part_* > $G/smollm2.gguf && rm $G/model.part_*
  echo "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53  $G/smollm2.gguf" | sha256sum -c --quiet \
    && PYTHONPATH=$G/site:$PWD python3 -c "import sys; from pathlib import Path; from base_models.models import \
_convert_gguf; _convert_gguf(Path(sys.argv[1]), Path(sys.argv[2]))" $G/smollm2.gguf $G/smollm2-135m-instruct \
    >/dev/null 2>&1 || echo "model conversion failed"   # the project's conversion: the same tokenizer as here
fi
if [ -f .gpu/*/corpus.tar.xz ] && [ ! -f $G/corpus/passages.jsonl ]; then
  python3 - .gpu/*/corpus.tar.xz $G/corpus <<'PY'
import pathlib, sys, tarfile
out = pathlib.Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
with tarfile.open(sys.argv[1]) as tar:  # the corpus folder's files (passages.jsonl, manifest.json), flattened
    for member in tar.getmembers():
        if member.isfile():
            (out / pathlib.Path(member.name).name).write_bytes(tar.extractfile(member).read())
PY
fi
fi
export PYTHONPATH=$G/site:$PWD INTERLEAVE_GRPO_CORPUS=$G/corpus HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1
export TOKENIZERS_PARALLELISM=false TRACKIO_DIR=/tmp/trackio
export M=$G/smollm2-135m-instruct          # the embedded model, bf16
export LAB=${LAB:-$PWD/.lab}                # runs/ and results/ of experiments on this machine (git-ignored)
CHAIN=$LAB/chain                            # the chain runner's folder of a sweep's `make curriculum` part
mkdir -p $LAB/runs $LAB/results
ready() { [ -n "$DRY_RUN" ] || { [ -f $G/.wheels-installed ] && [ -f $M/model.safetensors ] && [ -f $G/corpus/passages.jsonl ]; }; }
# keep_carried_starts: the adapters this call carried (.carry/NAME/, each with its adapter_model.safetensors) copied
# to $LAB/carry/NAME/, so that a start carried by an earlier call stays on the machine whatever later calls carry
keep_carried_starts() {
  [ -n "$DRY_RUN" ] || { mkdir -p $LAB/carry && for start in .carry/*/; do
    [ -f "$start/adapter_model.safetensors" ] && cp -r "$start" $LAB/carry/
  done; }
  # an earlier piece of the chain (chain_piece below), carried as .carry/chain/stage-K/...: into $CHAIN, where the
  # runner skips its steps and its time ledger reads their records (cp -n: a step this machine trained stays)
  [ -n "$DRY_RUN" ] || [ ! -d .carry/chain ] || { mkdir -p $CHAIN && cp -rn .carry/chain/. $CHAIN/; }
}
# sweep_ready: a sweep's first step after sourcing this file: the starts this call carried kept, the set-up checked
# (a sweep run before its bundles stops here, saying what to carry), the scores' folder made
sweep_ready() {
  keep_carried_starts
  ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
  mkdir -p $LAB/results/scores
}
# wait_for FILE: in a sweep's part, wait until another part has written FILE (at once in a dry run); after 20
# minutes give up and say so, so that a part that failed does not hold the parts after it in its lane
wait_for() {
  local waited=0
  while [ -z "$DRY_RUN" ] && [ ! -s "$1" ]; do
    [ $waited -ge 1200 ] && { echo "gave up waiting for $1 (did the part that writes it fail?)"; return 1; }
    sleep 10; waited=$((waited + 10))
  done
  [ -n "$DRY_RUN" ] || sleep 5   # the writer may still be closing it
}
# pack_out NAME PATH...: tar PATHs (relative to $LAB) into $OUT/NAME.tar.gz.part-* (15 MiB parts; $OUT takes files of
# at most 16 MiB). Join here with: cat NAME.tar.gz.part-* | tar xz
pack_out() { local name=$1; shift; (cd $LAB && tar cz "$@") | split -b 15m - $OUT/$name.tar.gz.part-; }
# results_back: $LAB/results (the probes' inputs.pt left out) into $OUT as results.tar.gz.part-aa, -ab, ...: a call
# brings back no file over 16 MiB, and a batch that keeps its answers can pass that (batch 36's extra call: 46 MB).
# scripts/gpu/collect_batch.py joins the parts.
results_back() { rm -f $OUT/results.tar.gz.part-*; pack_out results --exclude=inputs.pt results; }
# bf16 FOLDER: the folder's adapter cast to bfloat16 in place, as adapters/shipped (half the bytes to bring back)
bf16() {
  python3 - $1/adapter_model.safetensors <<'PY'
import sys, torch
from safetensors.torch import load_file, save_file
tensors = load_file(sys.argv[1])
save_file({k: v.to(torch.bfloat16) if v.is_floating_point() else v for k, v in tensors.items()}, sys.argv[1])
PY
}
# score NAME ADAPTER SPLIT STAGES [FLAGS...]: a greedy eval of 256 problems into $LAB/results/scores/NAME-SPLIT; its
# table row (FLAGS: more of training.cli.evaluate's, e.g. --completions to keep each answer's text)
score() {
  python3 -m training.cli.evaluate --model $M --adapter $2 --stages $4 --n 256 --split $3 --arithmetic false \
    --baseline false --out $LAB/results/scores/$1-$3 "${@:5}" 2>&1 | grep "^| stage" | sed "s/^/$1 $3: /"
}
# format_start: issue 17's supervised format start (training/recipes/sft-format-start.yaml, ~52 s on an H100) from a
# fresh adapter into $LAB/runs/sft-start; its last line on stdout
format_start() {
  python3 -m training.cli.warm_start --config training/recipes/sft-format-start.yaml --model $M --report_to none \
    --output_dir $LAB/runs/sft-start --results_dir $LAB/results/sft-start 2>&1 | grep -v "it/s\]" | tail -1
}
# back NAME FOLDER: the adapter in FOLDER back in bf16 as $OUT/adapter-NAME.tar.gz.part-*
back() {
  mkdir -p $LAB/out/$1 && cp $2/adapter_config.json $2/adapter_model.safetensors $LAB/out/$1/ && bf16 $LAB/out/$1
  pack_out adapter-$1 out/$1
}
# code_snapshot: the working tree, but for what lives outside the code (.lab, .gpu, .carry, .git, .venv), copied to a
# new folder $LAB/code/N, whose path it prints. Parts started in the background run there: every device call copies
# the working tree in again, and a part that starts python while one does can find a module missing (batch 34's
# i1-num: "No module named training.cli.train" as the next call's tree arrived, so it never ran)
code_snapshot() {
  local dest=$LAB/code/$(date +%s%N)
  mkdir -p $dest && tar c --exclude=./.lab --exclude=./.gpu --exclude=./.carry --exclude=./.git --exclude=./.venv . \
    | tar x -C $dest && echo $dest
}
# start_parts SCRIPT: PARTS="a b ..." of SCRIPT (PART=a bash SCRIPT, ...) in a new process session (setsid), so that
# they outlive the call (a command's other processes are killed when it returns); one after another, or all at once
# with TOGETHER=1. Each part's log is $LAB/results/bg-PART.log; its $OUT files reach $LAB/outbox once the part ends
# (whole, so that wait_parts never moves half a file). A part sees BG=1 (its script skips the closing results tar).
start_parts() {
  local code=${CODE:-$(code_snapshot)}
  mkdir -p $LAB/outbox $LAB/running
  run_part() {
    touch $LAB/running/$2; mkdir -p $LAB/staging/$2
    BG=1 OUT=$LAB/staging/$2 PART=$2 bash $1 > $LAB/results/bg-$2.log 2>&1
    mv $LAB/staging/$2/* $LAB/outbox/ 2>/dev/null; rm -f $LAB/running/$2
  }
  export -f run_part; export LAB CLOCK ARITH_STEPS FROM BACK_RAW
  if [ -n "$TOGETHER" ]; then
    for p in ${PARTS:?}; do setsid nohup bash -c "cd $code && run_part $1 $p" < /dev/null > /dev/null 2>&1 & done
  else
    setsid nohup bash -c "cd $code && for p in ${PARTS:?}; do run_part $1 \$p; done" < /dev/null > /dev/null 2>&1 &
  fi
  sleep 5; echo "started: $PARTS"; ls $LAB/running
}
# start_lanes SCRIPT "PARTS of GPU 0" "PARTS of GPU 1" ...: on a machine of several GPUs, one lane of parts a GPU, each
# lane's parts one after another (start_parts with CUDA_VISIBLE_DEVICES=N); TOGETHER=1 runs each lane's parts at once.
# LANE_GPUS="0 1 2 2 3": lane i on the GPU of LANE_GPUS's word i instead (two lanes may share one: a step-bound help
# of the 135M model ran ~6% slower beside another run on its card, batches 28-29, so two light lanes fit one GPU;
# a help bound by its clock trains fewer steps when it shares, so keep such a lane alone)
start_lanes() {
  local script=$1 i=0 gpus CODE; shift
  read -ra gpus <<< "${LANE_GPUS:-}"
  [ ${#gpus[@]} = 0 ] || [ ${#gpus[@]} = $# ] || { echo "LANE_GPUS names ${#gpus[@]} GPUs for $# lanes"; return 2; }
  CODE=$(code_snapshot)   # one copy for every lane
  for lane in "$@"; do CUDA_VISIBLE_DEVICES=${gpus[i]:-$i} PARTS="$lane" start_parts $script; i=$((i + 1)); done
}
# wait_parts: wait (at most WAIT s, 540 by default) while any started part runs; print each part log's last lines;
# move queued files into $OUT, oldest first, while they stay within what a call brings back beside the caller's
# results: 8 files and 64 MiB together, of which results_back's parts (15 MiB each; their size measured here, plus
# 2 MiB for what the parts still write) take theirs. Batch 37 moved 6 files of 67 MB with 3 MB of results, and the
# call dropped one of them whole.
wait_parts() {
  mkdir -p $LAB/outbox $LAB/running
  for _ in $(seq $(( ${WAIT:-540} / 10 ))); do [ -z "$(ls $LAB/running)" ] && break; sleep 10; done
  echo "running: $(ls $LAB/running | tr '\n' ' ')"
  for log in $LAB/results/bg-*.log; do echo "== $log"; grep -v "it/s\]" $log | tail -n 4; done
  local mib=$((1024 * 1024)) results size files
  results=$(( $( (cd $LAB && tar cz --exclude=inputs.pt results 2>/dev/null) | wc -c) + 2 * mib ))
  files=$(( 8 - (results + 15 * mib - 1) / (15 * mib) )); size=$(( 64 * mib - results ))
  for f in $(ls -tr $LAB/outbox); do
    local bytes=$(stat -c %s $LAB/outbox/$f)
    [ $files -gt 0 ] && [ $bytes -le $size ] || break
    mv $LAB/outbox/$f $OUT/; files=$((files - 1)); size=$((size - bytes))
  done
  echo "queued: $(ls $LAB/outbox | wc -l)"
}
CLOCK=${CLOCK:-8}  # minutes of a clocked stage1 part; longer where parts run together, step-matched (stage1 below)
# (set here, when a sweep sources this file: a sweep's own CLOCK=${CLOCK:-N} after that line changes nothing, as batch
# 23 found; give another clock as CLOCK=N on the command, or set it before sourcing)
# probe_at_slips AT RUN...: slip_probe.py --at AT (a slip probe's file: the places to probe) for each RUN's final
# adapter in $LAB/runs (one that is missing is said and skipped), into $LAB/results/probe/RUN-at-<AT's name>.json
probe_at_slips() {
  local at=$1 name; shift
  name=$(basename $at .json); name=${name#batch-*-}
  [ -n "$DRY_RUN" ] || [ -f $at ] || { echo "no $at here: copy it into the carried tree (see Calls)"; return 1; }
  mkdir -p $LAB/results/probe
  for run in "$@"; do
    [ -n "$DRY_RUN" ] || [ -f $LAB/runs/$run/final/adapter_model.safetensors ] || { echo "no $run to probe"; continue; }
    python3 scripts/analysis/slip_probe.py $LAB/runs/$run/final --model $M --at $at \
      --out $LAB/results/probe/$run-at-$name.json 2>&1 | tail -8
  done
}
# stage1 NAME FLAGS...: stage-1.yaml as committed from the format start ($LAB/runs/sft-start), CLOCK minutes (8: item
# 1's clock alone; with CLOCK=25 beside other parts, stage-1.yaml's 313 steps stop it); both weights back
stage1() {
  local name=$1; shift
  mkdir -p $LAB/results/$name
  timeout -s TERM $((CLOCK * 60 + 60)) python3 -m training.cli.train --config training/recipes/stage-1.yaml --model $M \
    --report_to none --init_adapter $LAB/runs/sft-start/final --max_train_minutes $CLOCK "$@" \
    --output_dir $LAB/runs/$name --results_dir $LAB/results/$name > $LAB/results/$name/train.log 2>&1
  cp $LAB/runs/$name/promotion.jsonl $LAB/results/$name/ 2>/dev/null
  back $name-average $LAB/runs/$name/final
  if [ "${BACK_RAW:-1}" = 1 ]; then back $name-raw $LAB/runs/$name/final-raw; fi   # BACK_RAW=0: the average alone
}
# stress_score NAME ADAPTER WORDS STAGE: the stress test of place-keeping at WORDS words (scripts/analysis/
# repeat_stress.py's two files, made in a folder of its own: keyed, the same everywhere) on STAGE, 128 problems each,
# answers kept, into scores/NAME-stressWORDS-{plain,repeated}; `score`'s twin for `--data` files, which have no split
# (sweep 36 wrote its own at 200 words)
stress_score() {
  local data=$LAB/stress$3-$1
  python3 scripts/analysis/repeat_stress.py --words $3 --n 128 --split validation --out $data | tail -1
  for v in plain repeated; do
    python3 -m training.cli.evaluate --model $M --adapter $2 --stages $4 --n 128 --data $data/$v.jsonl \
      --arithmetic false --baseline false --completions --out $LAB/results/scores/$1-stress$3-$v 2>&1 \
      | grep "^| stage" | sed "s/^/$1 stress$3 $v: /"
  done
}
# score_both NAME: a stage1 run's average and last weights on validation (256, stage 1); the average's answers kept
# (--completions: 10-word answers, small), so that scripts/analysis/first_slip_kinds.py reads its misses without a
# CPU rerun (session 30 regenerated i1-p256's to read them)
score_both() {
  score $1-average $LAB/runs/$1/final validation 1 --completions & score $1-raw $LAB/runs/$1/final-raw validation 1 &
  wait
}
# report_stage1 NAME...: each stage1 run's average on test (its answers kept, as score_both's) and out_of_register
# (256 each, stage 1), all at once
report_stage1() {
  for name in "$@"; do
    score $name-average $LAB/runs/$name/final test 1 --completions &
    score $name-average $LAB/runs/$name/final out_of_register 1 &
  done
  wait
}
# arith NAME FLAGS...: item 4's control, arithmetic 2x2 from a fresh adapter at arith16's settings, 500 steps, then
# base and adapter on 512 validation and 512 test problems (its table rows on stdout)
arith() {
  local name=$1; shift
  mkdir -p $LAB/results/$name
  timeout -s TERM 1320 python3 -m training.cli.train --config training/recipes/arithmetic.yaml --model $M \
    --report_to none --task arithmetic-2x2 --init_adapter base --learning_rate 1e-4 --per_device_train_batch_size 128 \
    --weight_average_decay 0.98 --max_steps 500 --max_train_minutes 20 "$@" --output_dir $LAB/runs/$name \
    --results_dir $LAB/results/$name > $LAB/results/$name/train.log 2>&1
  python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/$name/final --stages "" --arithmetic arithmetic-2x2 \
    --n 512 --splits validation,test --baseline true --out $LAB/results/$name/eval 2>&1 | grep "^| arith"
}
# chain_stage NAME N START FLAGS...: stage-N.yaml as committed (make train-stage N) from the adapter START, with FLAGS
# over it; the adapter back
chain_stage() {
  local name=$1 stage=$2 start=$3; shift 3
  mkdir -p $LAB/results/$name
  timeout -s TERM 1500 python3 -m training.cli.train --config training/recipes/stage-$stage.yaml --model $M \
    --report_to none --init_adapter $start "$@" \
    --output_dir $LAB/runs/$name --results_dir $LAB/results/$name > $LAB/results/$name/train.log 2>&1
  cp $LAB/runs/$name/promotion.jsonl $LAB/results/$name/ 2>/dev/null
  back $name $LAB/runs/$name/final
}
# help_alone NAME RECIPE START MINUTES FLAGS...: a supervised help recipe alone from the adapter START for MINUTES (its
# cosine schedule 5,000 steps long, as batch 24's c2-eq ran), FLAGS over it, into $LAB/runs/NAME; the adapter back
# in bf16, unless NO_BACK=1 (an adapter only scored on the machine, or brought back otherwise)
help_alone() {
  local name=$1 recipe=$2 start=$3 minutes=$4; shift 4
  mkdir -p $LAB/results/$name
  timeout -s TERM $((minutes * 60 + 120)) python3 -m training.cli.warm_start --config training/recipes/$recipe.yaml \
    --model $M --report_to none --init_adapter $start --max_train_minutes $minutes --max_steps 5000 "$@" \
    --output_dir $LAB/runs/$name --results_dir $LAB/results/$name > $LAB/results/$name/train.log 2>&1
  [ "${NO_BACK:-0}" = 1 ] || back $name $LAB/runs/$name/final
}
# stage5_arm NAME START FLAGS...: sft-stage-5-help-long-texts as committed (759 steps) from the adapter START, FLAGS
# over it, into runs/NAME (scored and continued on the machine, not brought back)
stage5_arm() {
  local name=$1 start=$2; shift 2
  wait_for $start/adapter_model.safetensors || return 1
  NO_BACK=1 help_alone $name sft-stage-5-help-long-texts $start 9 --max_steps 759 "$@"
}
# first_part NAME [STAGES]: stage 6's first part (sft-stage-6-help-long-texts as committed, 1,500 steps) from NAME (a
# stage-5 arm, as trained) into runs/NAME-s6a, with NAME scored on validation at STAGES (default 5) beside it on the
# same GPU
first_part() {
  local start=$LAB/runs/$1/final
  wait_for $start/adapter_model.safetensors || return 1
  score $1 $start validation ${2:-5} &
  NO_BACK=1 help_alone $1-s6a sft-stage-6-help-long-texts $start 14 --max_steps 1500
  wait
}
# at_once NAME ADAPTER SPLIT[:c]...: ADAPTER at stage 6 on each SPLIT, all at once on the lane's GPU (SPLIT:c keeps
# that split's answers, --completions), once the adapter exists
at_once() {
  local name=$1 adapter=$2 split; shift 2
  wait_for $adapter/adapter_model.safetensors || return 1
  for split in "$@"; do
    if [ "${split%:c}" != "$split" ]; then score $name $adapter ${split%:c} 6 --completions &
    else score $name $adapter $split 6 & fi
  done
  wait
}
# chain_stage_6 PART START: `make curriculum UNTIL=stage-6` into $CHAIN from START (stage 5, float32 as trained) as
# stage-5/final, stages 1-4 holding its adapter_config alone (the runner skips a step whose final/ has one); the
# runner's log in $LAB/results/PART/chain.log, and stage 6's records (its two helps', then its own) in
# $LAB/results/chain-stage-X-help/, chain-stage-X-help-2/ and chain-stage-X/ for PART chain-X
chain_stage_6() {
  local part=$1 start=$2 stage=chain-stage-${1#chain-}
  mkdir -p $CHAIN/stage-5
  [ -d $CHAIN/stage-5/final ] || cp -r $start $CHAIN/stage-5/final
  for n in 1 2 3 4; do mkdir -p $CHAIN/stage-$n/final && cp $start/adapter_config.json $CHAIN/stage-$n/final/; done
  chain_until $part stage-6
  cp -r $CHAIN/stage-6/supervised-help/results $LAB/results/$stage-help 2>/dev/null
  cp -r $CHAIN/stage-6/supervised-help-2/results $LAB/results/$stage-help-2 2>/dev/null
  cp -r $CHAIN/stage-6/results $LAB/results/$stage 2>/dev/null
  cp $CHAIN/stage-6/chain-step.json $LAB/results/$stage/ 2>/dev/null   # the step's process time (chain_time.py)
}
# chain_until PART UNTIL: the chain runner as `make curriculum UNTIL=UNTIL` runs it, into $CHAIN (at most 29
# minutes); its log in $LAB/results/PART/chain.log and its time by step (curriculum-time.json) beside it
chain_until() {
  mkdir -p $CHAIN $LAB/results/$1
  timeout -s TERM 1740 python3 -m training.cli.curriculum --chain training/recipes/chains/curriculum.yaml \
    --runs_dir $CHAIN --model $M --step_args=--report_to=none --until $2 > $LAB/results/$1/chain.log 2>&1
  cp $CHAIN/curriculum-time.json $LAB/results/$1/ 2>/dev/null   # the runner's time by step, as it printed
}
# chain_piece PART UNTIL [NEEDS]: `make curriculum UNTIL=UNTIL` (the runner as make runs it) into $CHAIN, going on
# from the steps of earlier pieces carried as .carry/chain/ (keep_carried_starts puts them in $CHAIN; NEEDS, the last
# carried step, is waited for), so the chain runs as one across sessions whose device time cannot hold it whole.
# The runner's log and time ledger in $LAB/results/PART/; the piece's last step scored on validation at its stages
# (PART-UNTIL-validation); then back as piece-PART.tar.gz.part-*: every step's final/adapter_config.json (the runner
# skips a step that has one), chain-step.json and results/summary.json (the ledger reads them), its helps' summaries,
# and UNTIL's final adapter as trained (float32), which the next piece continues (training/core/chain_carry.py
# chooses them, relative to $CHAIN). collect_batch.py puts the piece in adapters/batch-N/PART/, and a `# CARRY-TREE
# chain COMMIT:adapters/batch-N/PART` line of the next sweep brings it back as .carry/chain/.
# Each step the piece trained before UNTIL is scored too, at its own stage only (PART-stage-K-validation).
# PIECE_STAGES: the stages the last step is scored at (default 1-UNTIL's number; "none": no step scored), for a piece
# whose lane has no room for all of them (stage 6's: its help ~22 minutes, then the chain's own eval in the next).
# Give it on the part's own command (PIECE_STAGES=6 chain_piece ...): exported, it would reach every piece after.
chain_step_trained() { [ -n "$DRY_RUN" ] || [ -s $CHAIN/$1/final/adapter_model.safetensors ]; }  # STEP in $CHAIN
chain_piece() {
  local part=$1 until=$2 needs=$3 stages k
  [ -z "$needs" ] || wait_for $CHAIN/$needs/final/adapter_model.safetensors || return 1
  chain_until $part $until
  stages=${PIECE_STAGES:-1-${until#stage-}}
  if [ "$stages" != none ]; then
    # each stage the piece trained before its last, at its own stage: every stage's checkpoint is the product, and
    # only the last one's adapter leaves the machine (batch 43's chain-b came back with stage 5's scores alone)
    for k in $(seq $((${needs#stage-} + 1)) $((${until#stage-} - 1))); do
      chain_step_trained stage-$k && score $part-stage-$k $CHAIN/stage-$k/final validation $k &
    done
    chain_step_trained $until && score $part-$until $CHAIN/$until/final validation $stages
    wait
  fi
  [ -n "$DRY_RUN" ] || (cd $CHAIN && tar cz $(python3 -m training.core.chain_carry . $until)) |
    split -b 15m - $OUT/piece-$part.tar.gz.part-
}
# polish NAME STAGE START FLAGS...: stage-STAGE.yaml's GRPO from START with no further help, as batch 24's c2-eq-grpo:
# lr 3e-5, the average from step 20, 5 minutes (bases/interleave-polish.yaml's settings, whatever the stage's base)
polish() {
  local name=$1 stage=$2 start=$3; shift 3
  chain_stage $name $stage $start --supervised_help none --learning_rate 3e-5 --weight_average_start 20 \
    --max_train_minutes 5 --max_steps 3000 "$@"
}
# supervised_chain_start: make supervised-curriculum's first two steps (sft-every-length.yaml, 7 min; then sft-long-weighted.yaml,
# ~5.5 min) from a fresh adapter into $LAB/runs/sup-1 and sup-2 (item 3's supervised chain); sup-2's adapter back
supervised_chain_start() {
  mkdir -p $LAB/results/sup-1 $LAB/results/sup-2
  python3 -m training.cli.warm_start --config training/recipes/sft-every-length.yaml --model $M --report_to none \
    --output_dir $LAB/runs/sup-1 --results_dir $LAB/results/sup-1 > $LAB/results/sup-1/train.log 2>&1
  python3 -m training.cli.warm_start --config training/recipes/sft-long-weighted.yaml --model $M --report_to none \
    --init_adapter $LAB/runs/sup-1/final --output_dir $LAB/runs/sup-2 --results_dir $LAB/results/sup-2 \
    > $LAB/results/sup-2/train.log 2>&1
  back sup-2 $LAB/runs/sup-2/final
}
# helped NAME STAGE START HELP FLAGS...: stage-STAGE.yaml from the adapter START with the supervised help HELP (its
# recipe bounds it, 2 min), then 5 minutes of GRPO alone; the adapter back
helped() {
  local name=$1 stage=$2 start=$3 help=$4; shift 4
  chain_stage $name $stage $start --supervised_help $help --max_train_minutes 5 --max_steps 3000 "$@"
}
