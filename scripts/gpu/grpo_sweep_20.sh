# GPU batch 20 of issue 17 (written 2026-11-24, session 14, before it ran; for the next session's device minutes).
# Batch 19 (results/grpo/batch-19/README.md) found: (1) e-ent, stage-1.yaml now (TRL's adaptive entropy bonus, no
# resampling rounds), 0.979 / 86.7% on validation and test, one run; (2) turning cuDNN attention off does not slow the
# decode: a token step costs 3.6 ms at stage 1 and 22 ms at stage 3 with any kernel setting; (3) 25 words is not the
# wall: every-length SFT reaches 0.949 / 92.2% there, while the 4-25-word stage-2 help stops short at 25 words.
# Each training command runs under `timeout -s TERM` inside the script (h50, h3 and h4 ran under 530 s; since
# session 15 they share setup.sh's helped, 560 s): a SIGTERM ends the run after its step with
# final/ written (StopOnSignal), and the adapter still comes back in the same call.
# Parts, in priority order (each one call; the setup.sh bundles first, then .carry/start in a call of its own: a
# 19.6 MB adapter does not fit beside a bundle):
#
# PART=start-in  copy the carried .carry/start (batch 19's e-ent average, /work/keep/batch-19/adapter-e-ent-final)
#                to $LAB/start (where it is missing: adapters/shipped, batch 17's start, and the README says which),
#                and run the format start for PART=boost and PART=seed1 (~2 min).
# PART=decode    the packed decode attention (training/trainer/graph_sampler.packed_gqa_sdpa_attention: a decode
#                step's query heads as rows of their K/V head, so SDPA never sees enable_gqa with a mask, which
#                PyTorch serves with its math kernel, K/V expanded to every head over the whole cache). Stages 3 and 4,
#                batch 128, compiled graphs, training's kernels, packed or not (~4 min). If packed is >= 1.5x at stage
#                3 with the same greedy tokens (tests check them on CPU), make it merged_copy's default.
# PART=h50       item 2: stage 2 from $LAB/start with the help sft-stage-2-help-long (texts of up to 50 words, 2 min),
#                then 5 minutes of GRPO (stage-2.yaml otherwise as committed: since session 14 it inherits the entropy
#                bonus and no resampling rounds from bases/interleave.yaml), alone. Control: batch 17's help-grpo-gc
#                (4-25-word help, 4 min of GRPO, from the shipped adapter): 0.756 / 32.8% at stage 2, 0.960 / 83.6% at
#                stage 1 (validation). Then PART=h50-score (validation, stages 1-2; the adapter back in bf16).
# PART=h50-sft   item 3: the same help alone for 7 minutes (equal minutes), from $LAB/start; h50-sft-score.
# PART=boost     item 1, the misses e-ent leaves (slip probe, CPU, session 14: results/grpo/batch-19/slip-probe/
#                e-ent-average.json): 7 of 64 validation problems missed, 6 of them with no exact sample in 8, the right
#                token at a median p of 0.005 and greedy's at 0.97. On-policy samples rarely hold the right token
#                there, so the policy gradient can only push the sure wrong one down, and TRL's advantage-weighted
#                log-prob moves it by (1 - p). --negative_boost_cap 10 (training/trainer/confident_negatives.py) scales
#                a negative advantage by min(10, 1 / (1 - p)). stage-1.yaml as committed plus the flag, from the format
#                start, 8 minutes alone (batch 17's PART=f asked the same from the shipped adapter; it never ran);
#                boost-score. Control: e-ent (the same seed and start).
# PART=seed1     item 1: is e-ent's +5 points over s1c real? stage-1.yaml as committed, --seed 1, 8 minutes alone from
#                the format start; seed1-score (average and last weights, validation).
# PART=arith-ent item 4: batch 16's arith16 (arithmetic 2x2, fresh adapter, lr 1e-4, batch 128, the average, 8 min;
#                +8.4 points, 11.7% greedy exact on 512 test problems) with stage 1's entropy bonus (batch 19's ENT
#                flags). Scored in its own call (base and trained, validation and test, 512).
# Added in session 15, before any part ran:
# PART=h3        item 2, one stage on: stage-3.yaml from h50's adapter with the help sft-stage-3-help-long (texts of up
#                to 100 words, 2 min), then 5 minutes of GRPO, alone; h3-score (validation, stages 1-3). Exploratory:
#                how many GRPO steps stage 3 gets in 5 minutes, and where help plus GRPO leaves it.
# PART=h4        (added after h3 and decode ran, before h4 ran) item 2, one more stage: stage-4.yaml from h3's adapter
#                (carried as .carry/h3, copied to $LAB/h3 by PART=h3-in) with the help sft-stage-4-help-long (texts of
#                up to 200 words, 2 min), then 5 minutes of GRPO, alone, with the packed decode attention now the
#                default; h4-score (validation, stages 1-4).
# PART=bg        PARTS="a b ..." run in a new process session (setsid), so that they outlive the call (the device
#                README: a command's other processes are killed when it returns); one after another, or all at once
#                with TOGETHER=1. Their $OUT files queue in $LAB/outbox; PART=wait waits (at most WAIT s, 540 by
#                default) while any runs, then moves up to 7 queued files into $OUT. Session 15 ran boost, seed1 and
#                arith-ent at once (TOGETHER=1), so each is step-matched to its control instead of clocked: CLOCK=25
#                with stage-1.yaml's 313 steps (e-ent's count in 8 minutes alone) and ARITH_STEPS=518 (arith16's count
#                in 8 minutes beside s1).
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
mkdir -p $LAB/results/scores
case ${PART:?set PART=start-in, decode, h50, h50-score, h3, h3-score, h3-in, h4, h4-score, h50-sft, h50-sft-score, boost, boost-score, seed1, seed1-score, arith-ent, arith-ent-score, bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_20.sh ;;  # PARTS="a b ..." [TOGETHER=1] (scripts/gpu/setup.sh)
  wait) wait_parts ;;
  start-in)  # without a carried start (a new checkout has no .carry/), stage 2 starts from the shipped stage-1 adapter
    if [ -f .carry/start/adapter_model.safetensors ]; then cp -r .carry/start $LAB/start; echo "start: .carry/start"
    else cp -r adapters/shipped $LAB/start; echo "start: adapters/shipped (no .carry/start carried)"; fi
    format_start ;;
  decode)
    python3 -m benchmarks.bench_generation --model $M --stages 3 4 --batches 128 --repeats 2 \
      --methods graph_compiled_training_kernels_unpacked graph_compiled_training_kernels --out $LAB/results/decode \
      > $LAB/results/decode.log 2>&1; grep "^|" $LAB/results/decode.log ;;
  h50) helped h50 2 $LAB/start sft-stage-2-help-long ;;
  h50-score) score h50 $LAB/runs/h50/final validation 1-2 ;;
  h3) helped h3 3 $LAB/runs/h50/final sft-stage-3-help-long ;;
  h3-score) score h3 $LAB/runs/h3/final validation 1-3 ;;
  h3-in) mkdir -p $LAB/h3 && cp .carry/h3/adapter_config.json .carry/h3/adapter_model.safetensors $LAB/h3/ && ls $LAB/h3 ;;
  h4) helped h4 4 $LAB/h3 sft-stage-4-help-long ;;
  h4-score) score h4 $LAB/runs/h4/final validation 1-4 ;;
  h50-sft)
    mkdir -p $LAB/results/h50-sft
    timeout -s TERM 540 python3 -m training.cli.warm_start --config training/recipes/sft-stage-2-help-long.yaml \
      --model $M --report_to none --init_adapter $LAB/start --max_train_minutes 7 --max_steps 5000 --output_dir $LAB/runs/h50-sft \
      --results_dir $LAB/results/h50-sft > $LAB/results/h50-sft/train.log 2>&1
    back h50-sft $LAB/runs/h50-sft/final ;;
  h50-sft-score) score h50-sft $LAB/runs/h50-sft/final validation 1-2 ;;
  boost) stage1 boost --negative_boost_cap 10 ;;
  boost-score) score_both boost ;;
  seed1) stage1 seed1 --seed 1 ;;
  seed1-score) score_both seed1 ;;
  arith-ent)
    mkdir -p $LAB/results/arith-ent
    timeout -s TERM $((CLOCK * 60 + 60)) python3 -m training.cli.train --config training/recipes/arithmetic.yaml --model $M \
      --report_to none --task arithmetic-2x2 --learning_rate 1e-4 --per_device_train_batch_size 128 --max_steps ${ARITH_STEPS:-5000} \
      --weight_average_decay 0.98 --max_train_minutes $CLOCK --init_adapter base --use_adaptive_entropy true \
      --entropy_coef 0.02 --entropy_target 0.3 --entropy_coef_delta 0.005 --entropy_coef_min 0.02 --entropy_coef_max 0.1 \
      --output_dir $LAB/runs/arith-ent --results_dir $LAB/results/arith-ent > $LAB/results/arith-ent/train.log 2>&1 ;;
  arith-ent-score)
    python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/arith-ent/final --stages "" \
      --arithmetic arithmetic-2x2 --n 512 --splits validation,test --baseline true --out $LAB/results/arith-ent/eval \
      2>&1 | grep "^| arith" ;;
esac
[ -z "$BG" ] && (cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
