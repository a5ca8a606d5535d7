# GPU batch 10 of issue 17, item 4 (written 2026-11-23 before it ran): does GRPO raise the arithmetic control's
# greedy exact match by >= 10 points over the adapter it starts from? Before: GRPO from the supervised adapter (23.6%)
# left it at 23.6% (lr 2e-5, 64 completions, 2.7 min); from the base model it reached 2.1% (results/curriculum).
# What the interleave batches taught since: 128 completions per step learn faster at little extra time, and dynamic
# sampling keeps groups with signal. Each part one command (~9.5 min), alone, greedy scores on 512 test problems:
#   PART=2x2-base  GRPO on 2-digit x 2-digit from a fresh adapter, 128 completions, lr 1e-4, 8 min; base vs trained
#   PART=3x2-sft   a 3-minute supervised start (sft-arithmetic.yaml), its score, then GRPO from it (arithmetic-from-sft
#                  recipe) with 128 completions and lr 5e-5 for 5 minutes, and the score again
# Needs the set-up bundles of scripts/gpu/pack.sh. Then results/curriculum/README.md's arithmetic section.
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
score() {  # NAME ADAPTER-or-base TASK BASELINE
  local adapter=$2; [ "$adapter" = base ] || adapter=$LAB/runs/$adapter/final
  python3 -m training.cli.evaluate --model $M --adapter $adapter --stages "" --arithmetic $3 --n 512 \
    --splits test --baseline $4 --out $LAB/results/$1/eval-test 2>&1 | grep "^| arith"
}
grpo() {  # NAME RECIPE MINUTES FLAGS...
  local name=$1 recipe=$2 minutes=$3; shift 3
  python3 -m training.cli.train --config training/recipes/$recipe.yaml --model $M --report_to none \
    --per_device_train_batch_size 128 --max_steps 5000 --max_train_minutes $minutes "$@" \
    --output_dir $LAB/runs/$name --results_dir $LAB/results/$name 2>&1 | grep -v "it/s\]" | tail -3
}
case ${PART:?set PART=2x2-base or 3x2-sft} in
  2x2-base)
    grpo arith2x2 arithmetic 8 --task arithmetic-2x2 --learning_rate 1e-4
    score arith2x2 arith2x2 arithmetic-2x2 true ;;
  3x2-sft)
    python3 -m training.cli.warm_start --config training/recipes/sft-arithmetic.yaml --model $M --report_to none \
      --max_train_minutes 3 --output_dir $LAB/runs/arith-sft3 --results_dir $LAB/results/arith-sft3 2>&1 | tail -1
    score arith-sft3 arith-sft3 true false
    grpo arith-sft3-grpo arithmetic-from-sft 5 --init_adapter $LAB/runs/arith-sft3/final --learning_rate 5e-5
    score arith-sft3-grpo arith-sft3-grpo true false ;;
esac
(cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
