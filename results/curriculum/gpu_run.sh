# Issue 7 on the lent GPU machine, after the .gpu set-up (../shared/gpu/README.md). Not run yet: prepared in
# session 3 for the next one. Each command fits the 10-minute cap; adapters travel back under $OUT (carry
# the unpacked .curriculum/ folder into the next command when the machine went cold).
#   bash results/curriculum/gpu_run.sh warm        # supervised warm start (~150 s), then eval of stages 1-3
#   bash results/curriculum/gpu_run.sh stage N     # GRPO stage N from the previous stage's adapter, promotion at
#                                                  # the stage's bar, at most MINUTES (default 7) min, then eval
set -o pipefail
[ -f /tmp/gpu/smollm2-135m-instruct/model.safetensors ] || bash .gpu/b/finish.sh >/dev/null 2>&1
[ -d /tmp/gpu/corpus ] || tar xzf .gpu/c/corpus.tar.gz -C /tmp/gpu
export PYTHONPATH=/tmp/gpu/site:$PWD INTERLEAVE_GRPO_CORPUS=/tmp/gpu/corpus HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1
M=/tmp/gpu/smollm2-135m-instruct
R=${CURRICULUM_DIR:-$PWD/.curriculum}      # runs/ and results/ of the curriculum, carried between machines
mkdir -p $R/runs $R/results
case "$1" in
  warm)
    python3 -m training.warm_start --config training/recipes/warm-start.yaml --model $M --report_to none \
      --output_dir $R/runs/warm-start --results_dir $R/results/warm-start 2>&1 | grep -v "it/s\]" | tail -5
    python3 -m training.evaluation --model $M --adapter $R/runs/warm-start/final --stages 1-3 --n 256 \
      --out $R/results/eval/warm-start 2>&1 | tail -12 ;;
  stage)
    N=$2; prev=$R/runs/stage-$((N - 1))/final; [ "$N" = 1 ] && prev=$R/runs/warm-start/final
    resume=$([ -d $R/runs/stage-$N ] && echo "--resume true" || echo "--init_adapter $prev")
    python3 -m training.train --config training/recipes/stage-$N.yaml --model $M --report_to none $resume \
      --max_train_minutes ${MINUTES:-7} --output_dir $R/runs/stage-$N --results_dir $R/results/stage-$N 2>&1 \
      | grep -v "it/s\]\|{'loss" | tail -15
    python3 -m training.evaluation --model $M --adapter $R/runs/stage-$N/final --stages 1-$N --n 256 \
      --baseline false --out $R/results/eval/stage-$N 2>&1 | tail -12 ;;
esac
# adapters, the latest checkpoints (to resume), promotion checks and results; no completion logs
(cd $R && tar czf $OUT/curriculum.tar.gz --exclude='completions.jsonl.gz' results \
  $(ls -d runs/*/final 2>/dev/null) $(ls -d runs/*/checkpoint-* 2>/dev/null | sort -V | tail -2) \
  $(ls runs/*/promotion.jsonl 2>/dev/null))
ls -la $OUT
