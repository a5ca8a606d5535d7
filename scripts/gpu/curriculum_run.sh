# Issue 7 on the lent GPU machine, after the .gpu set-up (../shared/gpu/README.md). Each command fits the
# 10-minute cap; adapters travel back under $OUT (carry the unpacked .curriculum/ folder into the next command
# when the machine went cold).
#   bash scripts/gpu/curriculum_run.sh warm        # supervised warm start runs/WARM_RUN (default warm-start; at most
#                                                  # MINUTES, default 6.5; WARM_ARGS adds options), then eval
#                                                  # of stages 1-6 (N_EVAL problems each, 0 skips it; BASELINE=false
#                                                  # skips the base)
#   bash scripts/gpu/curriculum_run.sh eval RUN    # runs/RUN/final on stages 1-6 (N_EVAL problems each), no baseline
#   bash scripts/gpu/curriculum_run.sh final RUN   # make eval of runs/RUN/final: base vs trained, stages 1-6, arithmetic
#   bash scripts/gpu/curriculum_run.sh arithmetic  # the GRPO positive control runs/ARUN (default arithmetic), at most
#                                                  # MINUTES, from INIT (an adapter folder; default a fresh adapter),
#                                                  # TRAIN_ARGS adds options; then its eval
#   bash scripts/gpu/curriculum_run.sh arith-warm  # supervised arithmetic phase runs/WARM_RUN (sft-arithmetic.yaml,
#                                                  # at most MINUTES, WARM_ARGS adds options), then its eval
#   bash scripts/gpu/curriculum_run.sh pack RUN... # only pack results/ and the runs' final adapters into $OUT
#   PACK=false skips packing (e.g. two runs side by side on one GPU, then one `pack`)
#   bash scripts/gpu/curriculum_run.sh stage N     # GRPO stage N from the previous stage's adapter, promotion at
#                                                  # the stage's bar, at most MINUTES (default 7) min, then eval
#                                                  # (INIT=adapter folder starts from that adapter instead)
set -o pipefail
source scripts/gpu/setup.sh   # the one set-up (model, wheels, corpus); exports PYTHONPATH, M, LAB, ...
R=${CURRICULUM_DIR:-$PWD/.curriculum}      # runs/ and results/ of the curriculum, carried between machines
W=${WARM_RUN:-warm-start}
mkdir -p $R/runs $R/results
case "$1" in
  warm)
    python3 -m training.cli.warm_start --config training/recipes/sft-every-length.yaml --model $M --report_to none \
      --max_train_minutes ${MINUTES:-6.5} ${WARM_ARGS} --output_dir $R/runs/$W --results_dir $R/results/$W 2>&1 | grep -v "it/s\]" | tail -5
    [ "${N_EVAL:-256}" = 0 ] || python3 -m training.cli.evaluate --model $M --adapter $R/runs/$W/final \
      --stages 1-6 --n ${N_EVAL:-256} --arithmetic false --baseline ${BASELINE:-true} --out $R/results/eval/$W \
      2>&1 | grep -v "it/s\]" | tail -16 ;;
  eval)
    python3 -m training.cli.evaluate --model $M --adapter $R/runs/$2/final --stages 1-6 --n ${N_EVAL:-256} \
      --arithmetic false --baseline false --out $R/results/eval/$2 2>&1 | grep -v "it/s\]" | tail -8 ;;
  final)   # make eval of the last adapter: base model vs trained, every stage and arithmetic
    python3 -m training.cli.evaluate --model $M --adapter $R/runs/$2/final --stages 1-6 --n 256 \
      --out $R/results/eval/$2-final 2>&1 | grep -v "it/s\]" | tail -16 ;;
  arithmetic)
    A=${ARUN:-arithmetic}
    python3 -m training.cli.train --config training/recipes/arithmetic.yaml --model $M --report_to none \
      --max_steps 2000 --max_train_minutes ${MINUTES:-4} ${INIT:+--init_adapter $INIT} ${TRAIN_ARGS} \
      --output_dir $R/runs/$A --results_dir $R/results/$A 2>&1 | grep -v "it/s\]\|{'loss" | tail -8
    python3 -m training.cli.evaluate --model $M --adapter $R/runs/$A/final --stages "" --n 512 \
      --out $R/results/eval/$A 2>&1 | grep -v "it/s\]" | tail -8 ;;
  arith-warm)
    W=${WARM_RUN:-warm-start-arithmetic}
    python3 -m training.cli.warm_start --config training/recipes/sft-arithmetic.yaml --model $M --report_to none \
      --max_train_minutes ${MINUTES:-5} ${WARM_ARGS} --output_dir $R/runs/$W --results_dir $R/results/$W 2>&1 \
      | grep -v "it/s\]" | tail -5
    python3 -m training.cli.evaluate --model $M --adapter $R/runs/$W/final --stages "" --n 512 \
      --out $R/results/eval/$W 2>&1 | grep -v "it/s\]" | tail -8 ;;
  stage)
    N=$2; prev=$R/runs/stage-$((N - 1))/final; [ "$N" = 1 ] && prev=$R/runs/warm-start/final; prev=${INIT:-$prev}
    resume=$([ -d $R/runs/stage-$N ] && echo "--resume true" || echo "--init_adapter $prev")
    python3 -m training.cli.train --config training/recipes/stage-$N.yaml --model $M --report_to none $resume \
      --max_train_minutes ${MINUTES:-7} --output_dir $R/runs/stage-$N --results_dir $R/results/stage-$N 2>&1 \
      | grep -v "it/s\]\|{'loss" | tail -15
    python3 -m training.cli.evaluate --model $M --adapter $R/runs/stage-$N/final --stages 1-$N --n ${N_EVAL:-256} \
      --baseline false --out $R/results/eval/stage-$N 2>&1 | tail -12 ;;
esac
# results, promotion checks and the final adapter of this command's run (r=32 LoRA: 39 MB in float32), in
# parts of 15 MiB ($OUT takes files of at most 16 MiB); join: cat curriculum.tar.gz.part-* | tar xz
[ "${PACK:-true}" = false ] && exit 0
runs=$(case "$1" in warm|arith-warm) echo $W;; stage) echo stage-$2;; arithmetic) echo $A;; pack) shift; echo "$@";; esac)
(cd $R && tar cz --exclude='completions.jsonl.gz' results $(ls runs/*/promotion.jsonl 2>/dev/null) \
  $(for run in $runs; do [ -d runs/$run/final ] && echo runs/$run/final; done)) \
  | split -b 15m - $OUT/${PARTS:-curriculum}.tar.gz.part-
ls -la $OUT
