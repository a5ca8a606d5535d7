# Smoke run of GRPO on windows cut at the adapter's own slips (--continuation_cuts, session 22), on one GPU with the
# session's last device minutes, before batch 28 spends lanes on it: does the path run on the GPU, and do windows at
# slips split the group (batch 27's random windows from the same adapter: 80% of groups with no reward variance)?
# The shipped stage 6 (adapters/shipped), greedy on the first 64 train problems of stage 6, then 4 GRPO steps of 16
# problems (the same 64) on 40-word windows. Not a training result. After the bundle calls of scripts/gpu/pack.sh:
#   bash scripts/gpu/slip_smoke.sh
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh first"; exit 2; }
python3 -m training.cli.evaluate --model $M --adapter adapters/shipped --stages 6 --n 64 --split train \
  --arithmetic false --baseline false --out /tmp/slip-train 2>&1 | grep "^| stage"
timeout -s TERM 300 python3 -m training.cli.train --config training/recipes/stage-6.yaml --model $M --report_to none \
  --init_adapter adapters/shipped --supervised_help none --learning_rate 3e-5 --max_steps 4 --continuation_words 40 \
  --continuation_cuts /tmp/slip-train/problems.jsonl --word_credit 0 --keep_word_signal_groups false \
  --per_device_train_batch_size 16 --gradient_accumulation_steps 8 --promotion_every 1000 --max_completion_length 64 \
  --output_dir /tmp/slip-run --results_dir /tmp/slip-results > /tmp/slip-train.log 2>&1
grep -v "it/s\]" /tmp/slip-train.log | grep -v "^\s*$" | tail -n 25
mkdir -p ${OUT:-/tmp/out}
gzip -c /tmp/slip-train/problems.jsonl > ${OUT:-/tmp/out}/train-problems.jsonl.gz
cp /tmp/slip-train/eval.json ${OUT:-/tmp/out}/train-eval.json
cp /tmp/slip-results/metrics.jsonl /tmp/slip-results/summary.json ${OUT:-/tmp/out}/ 2>/dev/null
gzip -c /tmp/slip-train.log > ${OUT:-/tmp/out}/train.log.gz
