# GPU batch 4 of issue 17 (written before it ran): the best arm so far, alone on the GPU for at most 9 minutes, to
# see whether GRPO alone reaches the stage-1 goal (>= 0.99 NW, >= 90% exact) within 10 H100-minutes. Batch 3:
# word_credit 0.5 at 128 completions per step reached 0.774 NW / 20.3% exact (validation) after 110 steps, still
# rising, sharing the GPU; 128 -> 256 completions costs little time per step at 10 words (decode-bound), so:
#   word.5-b256-alone  word_credit 0.5, lr 3e-4, 32 prompts x 8, from .carry/sft-start, promotion at 0.99
# then its final adapter on 256 validation and 256 test problems (greedy). The adapter comes back under $OUT.
source scripts/gpu/setup.sh
MINUTES=9 EVAL_STAGES=1 bash scripts/gpu/grpo_arms.sh \
  word.5-b256-alone="--learning_rate 3e-4 --per_device_train_batch_size 256 --word_credit 0.5"
python3 -m training.evaluation --model $M --adapter $LAB/runs/word.5-b256-alone/final --stages 1 --n 256 \
  --split test --arithmetic false --baseline false --out $LAB/results/word.5-b256-alone/eval-test 2>&1 | grep "^| stage"
(cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
(cd $LAB/runs/word.5-b256-alone && tar cz final/adapter_config.json final/adapter_model.safetensors) \
  | split -b 15m - $OUT/adapter.tar.gz.part-
