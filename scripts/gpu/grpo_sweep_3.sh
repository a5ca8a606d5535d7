# GPU batch 3 of issue 17 (written before it ran). Batch 2: with cuDNN attention off no step was non-finite, and
# half per-word credit beat sequence advantages (0.536 vs 0.483 validation after ~130 steps), but per-word credit
# alone learnt never to stop: the end token scored 0, below the group's mean word score. Now the end token scores
# +1 when nothing is left out at the end. A 10-word rollout of 256 completions takes about as long as one of 64
# (the decode is latency-bound), so this batch also tries 4x the prompts per step. From .carry/sft-start, lr 3e-4,
# 5.5 minutes each, 4 side by side:
#   seq-b256     sequence advantages, 32 prompts x 8
#   word.5-b256  word_credit 0.5, 32 x 8
#   word1-b256   word_credit 1, 32 x 8
#   word.5-b64   word_credit 0.5, 8 x 8 (batch 2's arm with the end-token fix)
# First: which attention inputs make cuDNN's backward NaN (scripts/gpu/cudnn_attention_probe.py).
source scripts/gpu/setup.sh
python3 scripts/gpu/cudnn_attention_probe.py 2>&1 | grep '^{' | tee $LAB/cudnn_attention_probe.jsonl
B="--learning_rate 3e-4 --per_device_train_batch_size 256"
bash scripts/gpu/grpo_arms.sh seq-b256="$B" word.5-b256="$B --word_credit 0.5" word1-b256="$B --word_credit 1" \
  word.5-b64="--learning_rate 3e-4 --word_credit 0.5"
cp $LAB/cudnn_attention_probe.jsonl $OUT/
