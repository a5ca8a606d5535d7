# GPU batch 7 of issue 17 (written 2026-11-23 before it ran). Batch 6 picked word.5-keep on validation (0.949 / 76.2%
# after 8 min; base 0.941 / 68.4%, 8x16 0.910 / 59.0%). All three were still rising at the end, and late in the run
# generation took 1.5-1.7 s of each 2.0-2.2 s step (dynamic sampling adds rounds as more groups are solved), so
# each rollout is used for one update only. This batch tests more learning per rollout, from the batch-6 pick:
#   ARM=d  keep-mu2     + --num_iterations 2 (each rollout batch trained twice; the PPO clip, 0.2, now acts)
#   ARM=e  keep-lr5e-4  + --learning_rate 5e-4 (lr 1e-3 collapsed in batch 1, before per-word credit)
# Each arm alone, 8 minutes of training, then validation (256) + test (256). Pick on validation.
source scripts/gpu/setup.sh
RECIPE="--per_device_train_batch_size 128 --word_credit 0.5 --keep_word_signal_groups true"
case ${ARM:?set ARM=d or e} in
  d) name=keep-mu2;    flags="$RECIPE --learning_rate 3e-4 --num_iterations 2" ;;
  e) name=keep-lr5e-4; flags="$RECIPE --learning_rate 5e-4" ;;
esac
MINUTES=8 bash scripts/gpu/grpo_arms.sh $name="$flags"
python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/$name/final --stages 1 --n 256 \
  --split test --arithmetic false --baseline false --out $LAB/results/$name/eval-test 2>&1 | grep "^| stage"
(cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
pack_out adapter-$name runs/$name/final/adapter_config.json runs/$name/final/adapter_model.safetensors
