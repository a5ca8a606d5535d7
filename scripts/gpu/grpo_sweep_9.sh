# GPU batch 9 of issue 17 (written 2026-11-23 before it ran). Batch 8: the stage-1 adapter (GRPO at 10 words only)
# scores 0.033 at 25 words, slipping after ~18 target words, i.e. it learnt a 10-word pattern; GRPO stage 2 from it
# reached 0.386 at 25 words in 7.5 minutes while stage 1 fell 0.951 -> 0.880. Question: does training each stage on
# a mix of lengths up to its own (--train_words; every batch mixes them, the shorter replaying earlier stages) carry
# the skill to the next length and keep the earlier ones? Same recipe and time as batch 8 otherwise, each part alone:
#   PART=stage2-mix   stage 2, --train_words 4-25, 7.5 min, from the shipped batch-8 stage-1 adapter
#                     (adapters/shipped, in the tree): against batch 8's stage 2 (0.386 / stage 1 0.880)
#   PART=start        the format start as in batch 8, now its recipe (training/recipes/sft-format-start.yaml)
#   PART=stage1-mix   stage 1, --train_words 4-10, 8 min, from it: against batch 8's stage 1 (0.951), and at 25 words
#   PART=stage2-chain stage 2, --train_words 4-25, 7.5 min, from PART=stage1-mix's adapter
#   PART=stage1-warm30 (if time is left) stage1-mix with 30 warm-up steps instead of 5: the first ~40 steps of every
#                     run so far lose ground (entropy 1.34 -> 0.42 in 20 steps, validation 0.35 -> 0.07)
# Each scores validation (256) at stages 1-2, then test at stages 1-2. Order of priority as listed; a fresh machine
# needs the bundles of scripts/gpu/pack.sh first. Pick on validation.
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
arm() {  # NAME STAGE MINUTES INIT FLAGS...
  local name=$1 stage=$2 minutes=$3 init=$4; shift 4
  INIT=$init STAGE=$stage MINUTES=$minutes EVAL_STAGES=1-2 bash scripts/gpu/grpo_arms.sh $name="$*"
  pack_out adapter-$name runs/$name/final/adapter_config.json runs/$name/final/adapter_model.safetensors
  python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/$name/final --stages 1-2 --n 256 \
    --split test --arithmetic false --baseline false --out $LAB/results/$name/eval-test 2>&1 | grep "^| stage"
}
case ${PART:?set PART=stage2-mix, start, stage1-mix, stage2-chain or stage1-warm30} in
  stage2-mix)   arm stage2-mix 2 7.5 $PWD/adapters/shipped --train_words 4-25 ;;
  start)
    python3 -m training.cli.warm_start --config training/recipes/sft-format-start.yaml --model $M --report_to none \
      --output_dir $LAB/runs/sft-start --results_dir $LAB/results/sft-start 2>&1 | grep -v "it/s\]" | tail -2
    python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/sft-start/final --stages 1 --n 256 \
      --split validation --arithmetic false --baseline false --out $LAB/results/sft-start/eval-validation 2>&1 | tail -3 ;;
  stage1-mix)   arm stage1-mix 1 8 $LAB/runs/sft-start/final --train_words 4-10 ;;
  stage2-chain) arm stage2-chain 2 7.5 $LAB/runs/stage1-mix/final --train_words 4-25 ;;
  stage1-warm30) arm stage1-warm30 1 8 $LAB/runs/sft-start/final --train_words 4-10 --warmup_steps 30 ;;
esac
(cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
