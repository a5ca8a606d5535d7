# GPU batch 6 of issue 17 (written before it ran). Batch 5 (word credit 0.5 clamped, lr 3e-4, 16 prompts x 8, alone
# 7.5 min) reached 0.942 NW / 71.9% exact on validation and stalled at 0.93-0.97 with entropy 0.02-0.04. Its dynamic
# sampling swapped every equal-reward group, and so the groups that repeat one slip: the problems the model keeps
# failing, which per-word credit still learns from. This batch, on the six-register corpus (issue 18; rebuild .gpu/c
# with scripts/gpu/pack.sh first), each arm alone, 8 minutes of training, then validation (256) + test (256):
#   ARM=a  word.5-base   the batch-5 recipe (baseline on the new corpus)
#   ARM=b  word.5-keep   + --keep_word_signal_groups true
#   ARM=c  word.5-g16    8 prompts x 16 generations (same 128 completions per step)
# One arm per command (each ~9.5 min with its evals): ARM=a bash scripts/gpu/grpo_sweep_6.sh
# Pick on validation; a and b on one machine (30 minutes held each), c on the next.
source scripts/gpu/setup.sh
RECIPE="--learning_rate 3e-4 --per_device_train_batch_size 128 --word_credit 0.5"
case ${ARM:?set ARM=a, b or c} in
  a) name=word.5-base; flags="$RECIPE" ;;
  b) name=word.5-keep; flags="$RECIPE --keep_word_signal_groups true" ;;
  c) name=word.5-g16;  flags="$RECIPE --num_generations 16" ;;
esac
MINUTES=8 bash scripts/gpu/grpo_arms.sh $name="$flags"
python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/$name/final --stages 1 --n 256 \
  --split test --arithmetic false --baseline false --out $LAB/results/$name/eval-test 2>&1 | grep "^| stage"
(cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
pack_out adapter-$name runs/$name/final/adapter_config.json runs/$name/final/adapter_model.safetensors
