# GPU batch 15 of issue 17, items 2-3 (written 2026-11-23, session 11, before it ran; after batch 14). GRPO stage 2
# from stage 1 alone reached 0.386 at 25 words in 7.5 minutes and cost stage 1 0.07 (batch 8); a supervised phase on
# every length reached 0.980 at 25 words in 7 minutes (results/curriculum). Question: with a bounded supervised help
# in the stage's recipe (supervised_help: sft-stage-2-help, 2 minutes on 4-25 words), what does GRPO add on top, at
# equal GPU minutes? Two arms side by side from the shipped stage-1 adapter (adapters/shipped), 7 minutes each:
#   help+grpo   make train-stage N=2 with --supervised_help sft-stage-2-help (2 min), then GRPO for 5
#   sft-only    the same help recipe for the whole 7 minutes (item 3's supervised-only arm)
# Each scores validation (256) at stages 1-2; then test (256) at stages 1-2 for both. One command (~9.5 min).
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
mkdir -p $LAB/results/help-grpo $LAB/results/sft-only
(python3 -m training.cli.warm_start --config training/recipes/sft-stage-2-help.yaml --model $M --report_to none \
   --init_adapter $PWD/adapters/shipped --max_train_minutes 7 --max_steps 5000 --output_dir $LAB/runs/sft-only \
   --results_dir $LAB/results/sft-only > $LAB/results/sft-only/train.log 2>&1) &
python3 -m training.cli.train --config training/recipes/stage-2.yaml --model $M --report_to none \
  --init_adapter $PWD/adapters/shipped --supervised_help sft-stage-2-help --max_train_minutes 5 --max_steps 3000 \
  --output_dir $LAB/runs/help-grpo --results_dir $LAB/results/help-grpo > $LAB/results/help-grpo/train.log 2>&1
wait
score() {  # NAME SPLIT
  python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/$1/final --stages 1-2 --n 256 --split $2 \
    --arithmetic false --baseline false --out $LAB/results/$1/eval-$2 2>&1 | grep "^| stage" | sed "s/^/$1 $2 /"
}
for split in validation test; do score help-grpo $split & score sft-only $split & wait; done
(cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
