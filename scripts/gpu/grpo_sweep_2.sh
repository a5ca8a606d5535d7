# GPU batch 2 of issue 17 (written before it ran): with batch 1's root cause fixed (cuDNN attention off), does
# per-word credit teach faster than sequence-level GRPO? From batch 1's format start (.carry/sft-start, 0.343 NW on
# validation), 5.5 minutes each, 4 side by side:
#   seq-lr3e-4     sequence advantages (word_credit 0), lr 3e-4  (batch 1: 0.596 with 7 skipped NaN steps)
#   word1-lr3e-4   per-word advantages only (word_credit 1), lr 3e-4
#   word.5-lr3e-4  half and half (word_credit 0.5), lr 3e-4
#   word1-lr1e-4   per-word only, lr 1e-4
# First the gpu-marked tests of the NaN fix (tests/training/test_attention_kernels.py).
source scripts/gpu/setup.sh
python3 -m pytest -q -p no:cacheprovider -m gpu tests/training/test_attention_kernels.py 2>&1 | tail -4
bash scripts/gpu/grpo_arms.sh seq-lr3e-4="--learning_rate 3e-4" word1-lr3e-4="--learning_rate 3e-4 --word_credit 1" \
  word.5-lr3e-4="--learning_rate 3e-4 --word_credit 0.5" word1-lr1e-4="--learning_rate 1e-4 --word_credit 1"
