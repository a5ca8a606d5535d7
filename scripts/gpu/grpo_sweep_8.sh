# GPU batch 8 of issue 17 (written 2026-11-23 before it ran). Session 9's batches 6-7 ran but their files were lost
# when that session was cut off (the numbers it noted: word.5-keep 0.949 / 76.2% validation, 0.944 / 77.0% test after
# 8 minutes; the batch-5 recipe 0.941 / 68.4%; 8 prompts x 16 generations 0.910 / 59.0%; keep + num_iterations 2
# 0.938 / 65.2%). The pick, word.5-keep, is now the stages' shared recipe (training/recipes/bases/interleave.yaml).
# This batch rebuilds what was lost and takes the curriculum one stage further, each part one command, in order on
# one warm machine (.lab persists between its calls):
#   PART=start    the format start again (batch 1's: 100 SFT steps of 16 problems, 4-10 words), validation 256
#   PART=stage1   GRPO stage 1 from it with the stage-1 recipe as committed, alone, 8 minutes; validation + test 256
#   PART=stage2   GRPO stage 2 (25 words) from PART=stage1's adapter, 7.5 minutes; validation + test at stages 1-2
#                 (does GRPO carry the curriculum one step, and what does stage 1 lose?)
# On a second machine, if device time is left (carry .carry/sft-start from PART=start), two stage-1 arms that
# target the first ~60 steps, where entropy falls 1.4 -> 0.08 and validation drops 0.34 -> 0.14 before it climbs:
#   PART=lr5e-4     the recipe at lr 5e-4 (batch 7's arm e, never run)
#   PART=warmup30   the recipe with 30 warm-up steps instead of 5 (constant after)
# Pick on validation; the test split reports.
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
test_eval() {  # NAME STAGES
  python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/$1/final --stages $2 --n 256 \
    --split test --arithmetic false --baseline false --out $LAB/results/$1/eval-test 2>&1 | grep "^| stage"
}
stage1_arm() {  # NAME FLAGS: 8 minutes from the carried start, then the adapter, validation and test
  local name=$1; shift
  INIT=${INIT:-$PWD/.carry/sft-start} MINUTES=8 bash scripts/gpu/grpo_arms.sh $name="$*"
  pack_out adapter-$name runs/$name/final/adapter_config.json runs/$name/final/adapter_model.safetensors
  test_eval $name 1
}
case ${PART:?set PART=start, stage1, stage2, lr5e-4 or warmup30} in
  start)
    python3 -m training.cli.warm_start --config training/recipes/sft-every-length.yaml --model $M --report_to none \
      --words 4-10 --max_steps 100 --max_length 512 --max_train_minutes 1 \
      --output_dir $LAB/runs/sft-start --results_dir $LAB/results/sft-start 2>&1 | grep -v "it/s\]" | tail -4
    python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/sft-start/final --stages 1 --n 256 \
      --split validation --arithmetic false --baseline false --out $LAB/results/sft-start/eval-validation 2>&1 | tail -3
    pack_out sft-start runs/sft-start/final/adapter_config.json runs/sft-start/final/adapter_model.safetensors ;;
  stage1)   INIT=$LAB/runs/sft-start/final stage1_arm stage-1 ;;
  stage2)
    INIT=$LAB/runs/stage-1/final STAGE=2 MINUTES=7.5 EVAL_STAGES=1-2 bash scripts/gpu/grpo_arms.sh stage-2=""
    pack_out adapter-stage-2 runs/stage-2/final/adapter_config.json runs/stage-2/final/adapter_model.safetensors
    test_eval stage-2 1-2 ;;
  lr5e-4)   stage1_arm lr5e-4 --learning_rate 5e-4 ;;
  warmup30) stage1_arm warmup30 --warmup_steps 30 ;;
esac
(cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
