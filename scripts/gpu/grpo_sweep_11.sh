# GPU batch 11 of issue 17 (written 2026-11-23, session 11, before it ran). Batches 9 and 10 were written in session 10
# and never ran; one session's 30 device-minutes hold ~2 commands of 10 minutes after the set-up, so this batch runs
# their questions side by side (batches 1-3 showed 2-4 arms side by side share one H100 at 1.7-2.5x the steps of one).
# An arm side by side gets less of the GPU than one alone, so a goal met side by side is met alone a fortiori.
#
# PART=a (one command): the format start (training/recipes/sft-format-start.yaml, ~50 s alone), then three stage-1
#   arms side by side from it for 7.2 minutes each, a 2x2 factorial on the early phase and the length mix:
#     mix         --train_words 4-10                      (batch 9's stage1-mix)
#     mix-warm30  --train_words 4-10 --warmup_steps 30    (batch 9's stage1-warm30)
#     warm30      --warmup_steps 30                       (10 words only, as batch 8)
#   Question 1, the first ~40 steps that every run so far lost (entropy 1.34 -> 0.42 in 20 steps, 40-77% of the
#   completions run to the 64-token limit, validation 0.35 -> 0.07): does a 30-step warm-up keep the start's level?
#   Compare mix with mix-warm30 (validation checks at steps 20-60, completions-early.jsonl.gz).
#   Question 2, the length mix: does 4-10 words keep the 10-word score (mix-warm30 vs warm30) and carry further
#   (their 25-word validation score; batch 8's stage 1 scored 0.033 there)?
#   Each scores validation (256) at stages 1-2. Pick on validation: the 10-word score first, 25 words second.
# PART=b (one command, after a): batch 10's arithmetic control (issue 17, item 4), 2x2 from a fresh adapter, lr 1e-4,
#   128 completions, 7.5 min, greedy exact match on 512 test problems, base vs trained; side by side with the picked
#   stage-1 recipe run from the same format start for 8 minutes, then its test (256), out-of-register (256) and
#   25-word validation scores, and its adapter brought back (WINNER=NAME FLAGS="...").
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
case ${PART:?set PART=a or b} in
  a)
    python3 -m training.cli.warm_start --config training/recipes/sft-format-start.yaml --model $M --report_to none \
      --output_dir $LAB/runs/sft-start --results_dir $LAB/results/sft-start 2>&1 | grep -v "it/s\]" | tail -2
    INIT=$LAB/runs/sft-start/final STAGE=1 MINUTES=7.2 EVAL_STAGES=1-2 bash scripts/gpu/grpo_arms.sh \
      mix="--train_words 4-10" mix-warm30="--train_words 4-10 --warmup_steps 30" warm30="--warmup_steps 30" ;;
  b)
    (python3 -m training.cli.train --config training/recipes/arithmetic.yaml --model $M --report_to none \
       --task arithmetic-2x2 --learning_rate 1e-4 --per_device_train_batch_size 128 --max_steps 5000 \
       --max_train_minutes 7.5 --output_dir $LAB/runs/arith2x2 --results_dir $LAB/results/arith2x2 \
       > $LAB/results/arith2x2.log 2>&1
     python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/arith2x2/final --stages "" \
       --arithmetic arithmetic-2x2 --n 512 --splits test --baseline true --out $LAB/results/arith2x2/eval-test \
       >> $LAB/results/arith2x2.log 2>&1; mv $LAB/results/arith2x2.log $LAB/results/arith2x2/train.log) &
    name=${WINNER:?set WINNER=NAME FLAGS="..."}
    INIT=$LAB/runs/sft-start/final STAGE=1 MINUTES=${MINUTES_B:-8} EVAL_STAGES=1-2 bash scripts/gpu/grpo_arms.sh $name="$FLAGS"
    wait
    grep -h "^| arith" $LAB/results/arith2x2/train.log
    python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/$name/final --stages 1 --n 256 --split test \
      --arithmetic false --baseline false --out $LAB/results/$name/eval-test 2>&1 | grep "^| stage"
    python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/$name/final --stages 1 --n 256 \
      --split out_of_register --arithmetic false --baseline false --out $LAB/results/$name/eval-out_of_register \
      2>&1 | grep "^| stage"
    pack_out adapter-$name runs/$name/final/adapter_config.json runs/$name/final/adapter_model.safetensors ;;
esac
(cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
