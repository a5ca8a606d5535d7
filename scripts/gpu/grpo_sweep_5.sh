# GPU batch 5 of issue 17 (written before it ran). Batch 4, alone: 0.937 NW / 72.7% exact (validation, 256) after
# 9 minutes and 170 steps of 256 completions; steps took ~3 s; every word-credit run spent ~40 steps never stopping
# (the end token bore -d for stopping d words early). Now each token's credit is clamped to one unit, and the step
# is 128 completions (batch 3: per step about as good as 256, and cheaper). Alone, at most 7.5 minutes:
#   word.5c-b128-alone  word_credit 0.5 (clamped), lr 3e-4, 16 prompts x 8, from .carry/sft-start, promotion at 0.99
# then validation and test evals of the final adapter (greedy, 256 each); the adapter comes back under $OUT.
source scripts/gpu/setup.sh
MINUTES=7.5 bash scripts/gpu/grpo_arms.sh \
  word.5c-b128-alone="--learning_rate 3e-4 --per_device_train_batch_size 128 --word_credit 0.5"
python3 -m training.evaluation --model $M --adapter $LAB/runs/word.5c-b128-alone/final --stages 1 --n 256 \
  --split test --arithmetic false --baseline false --out $LAB/results/word.5c-b128-alone/eval-test 2>&1 | grep "^| stage"
(cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
(cd $LAB/runs/word.5c-b128-alone && tar cz final/adapter_config.json final/adapter_model.safetensors) \
  | split -b 15m - $OUT/adapter.tar.gz.part-
