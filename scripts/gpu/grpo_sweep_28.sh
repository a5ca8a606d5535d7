# GPU batch 28 of issue 17 (written 2026-11-26, session 22, before it ran; for the next session's device minutes).
# Batch 27 (results/grpo/batch-27/README.md) found stage 6's help in the supervised chain's long-text settings (lr 1e-4,
# texts around the stage's length; n6-lt8: 0.833 at 500 words on validation, 0.820 on test, every earlier stage up)
# and shipped it. GRPO on random continuation windows added +0.001 on top of it: 80% of its groups had no reward
# variance, because a window that starts from the correct answer is mostly right. This batch asks:
#   item 2: do the long-text settings carry stage 5 too, in half its minutes? Does stage 6 reach 0.90 with more steps?
#   item 3: does GRPO teach on windows cut where the adapter itself went wrong (--continuation_cuts, new in session 22)?
#   issue 18: do 30% scrambled problems in stage 6's help narrow the out-of-register gap at long lengths?
#
# Starts, carried (each ~20 MB, so in two calls):
#   n4-eq3, the stage 4 shipped before session 22:  mkdir -p .carry/n4-eq3 && for f in adapter_config.json \
#     adapter_model.safetensors; do git show f09288b:adapters/shipped/$f > .carry/n4-eq3/$f; done
#   n5-eq12, stage 5 by stage-5.yaml:  mkdir -p .carry/n5-eq12 && for f in adapter_config.json \
#     adapter_model.safetensors; do git show 1cef8a7:adapters/batch-26/n5-eq12/$f > .carry/n5-eq12/$f; done
#   n6-lt8, stage 6 by stage-6.yaml's help (approximately): adapters/shipped in the tree (bf16).
# Calls: results/ moved out of the tree; .gpu/1..3 alone; .gpu/4 with .carry/n5-eq12; then .carry/n4-eq3 with the
# start_lanes command below.
#
# Parts (PART=bg / PART=wait as in batch 24; start_lanes gives each lane its GPU). Validation, 256 problems a stage:
# PART=n5-lt      item 2: sft-stage-5-help-long-texts (new: texts of 25-400 words, lr 1e-4 constant, at most 1,000
#                 steps or 6 minutes) from n4-eq3, in place of stage-5.yaml's 12-minute help. n5-lt-score: stages 1-5.
#                 Rule: stage-5.yaml's help becomes sft-stage-5-help-long-texts if n5-lt scores at least n5-eq12's 0.912
#                 at 200 words and no stage 1-4 is more than 0.02 below n4-eq3's (1.000 / 0.984 / 0.972 / 0.913).
# PART=n6c        make train-stage N=6 as committed (stage-6.yaml: sft-stage-6-help-long-texts, max_steps 0) from n5-lt:
#                 the chain's stage 6 if n5-lt is adopted, and the committed recipe's first run. n6c-score: stages 1-6.
# PART=n6-long    item 2: sft-stage-6-help-long-texts for 1,500 steps instead of 742 (at most 14 minutes) from n5-eq12,
#                 with a checkpoint at step 742 (the committed recipe's length, a second run of it). n6-long-score:
#                 both, stages 1-6. Rule: stage 6's help takes 1,500 steps if the final scores 0.02 or more above the
#                 step-742 checkpoint at 500 words, no stage 1-5 is more than 0.02 below n5-eq12's (0.999 / 0.992 /
#                 0.993 / 0.961 / 0.912), and the chain stays within 60 minutes (34.8 to stage 4, stage 5's minutes, its).
# PART=n6-lt8-train-score  the shipped stage 6 (adapters/shipped, n6-lt8 in bf16), greedy on the first 320 train
#                 problems of stage 6 (python -m training.cli.evaluate --splits train): each answer's first slip.
# PART=c6-slip    item 3: from adapters/shipped, batch 27's c6w-lt (5 minutes of GRPO polish on 40-word windows, lr
#                 3e-5) with --continuation_cuts from n6-lt8-train-score: problems whose greedy answer slipped
#                 continue from 4 words before the first slip. c6-slip-score: stages 1-6. Compare its zero-variance groups with
#                 c6w-lt's 80% (the mechanism: a window at a slip should split the group).
# PART=c6-slip-lr the same at lr 1e-4 (after n6-lt8-train-score has written its file). c6-slip-lr-score: stages 1-6.
#                 Rule (item 3), validation: GRPO on slip windows joins stage-6.yaml (help + polish) if c6-slip or
#                 c6-slip-lr (the higher) scores 0.01 or more above n6-lt8 (0.833) at 500 words, at least n6-long's
#                 final there (the equal-minutes arm: ~6 more minutes of help from the same stage 5, where c6-slip spends
#                 ~2 minutes of evaluation and 5 of GRPO), and no stage is more than 0.02 below n6-lt8's (1.000 /
#                 0.992 / 0.995 / 0.985 / 0.968). Reported either way, with steps, seconds a step and zero-variance groups.
# PART=scr-lt     issue 18: n6-long's recipe for 742 steps with 30% of the problems scrambled (--scrambled_fraction 0.3:
#                 each text's words shuffled, so a word can only be copied; batch 21's scr shrank stage 2's gap from
#                 0.057 to 0.033) from n5-eq12. scr-lt-score: validation and out_of_register, stages 1-6. Rule: stage 6's
#                 help takes the scrambled share if its out-of-register score beats n6-lt8's by 0.03 or more at 200 and
#                 500 words (0.674, 0.384) and its validation at 500 words is no more than 0.01 below n6-long's step-742
#                 checkpoint (the same recipe unscrambled, this batch). Reported with it: the share of its
#                 out-of-register first slips on symbolic words (diagnostics.json, new in session 22; n6-lt8: 52% at
#                 500 words, where such words are 6.5% of the target), the failure scrambling may not reach.
# PART=a2-b512-12m item 4 (as in batch 27's script; no GPU in the plan below).
# PART=start-in   the format start (not in the lanes below; for a stage-1 part added during the run).
# Plan: one machine of 4 GPUs (nvidia-h200-x4), ~23 minutes of lanes:
#   source scripts/gpu/setup.sh; export BACK_RAW=0; start_lanes scripts/gpu/grpo_sweep_28.sh \
#     "n5-lt n5-lt-score n6c n6c-score" "n6-long n6-long-score" "n6-lt8-train-score c6-slip c6-slip-score" \
#     "scr-lt scr-lt-score c6-slip-lr c6-slip-lr-score"
# Commit each adapter that may ship as it comes back (then drop it from the tree).
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
mkdir -p $LAB/results/scores
START4=.carry/n4-eq3          # the stage 4 shipped before session 22
START5=.carry/n5-eq12         # batch 26's n5-eq12: stage 5 by stage-5.yaml
SHIPPED=adapters/shipped      # batch 27's n6-lt8, bf16: stage 6
CUTS=$LAB/results/scores/n6-lt8-train/problems.jsonl
WINDOWS="--continuation_words 40 --word_credit 0 --keep_word_signal_groups false --per_device_train_batch_size 16
  --gradient_accumulation_steps 8 --promotion_every 1000 --max_completion_length 64"
# cuts_ready: wait until n6-lt8-train-score has written its problems.jsonl (at once in a dry run)
cuts_ready() { while [ -z "$DRY_RUN" ] && [ ! -f $LAB/results/scores/n6-lt8-train/eval.json ]; do sleep 10; done; }
case ${PART:?set PART=start-in, n5-lt, n6c, n6-long, c6-slip, c6-slip-lr, scr-lt (each also NAME-score), n6-lt8-train-score, a2-b512-12m, bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_28.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  start-in) format_start ;;
  n5-lt) help_alone n5-lt sft-stage-5-help-long-texts $START4 6 --max_steps 1000 ;;
  n5-lt-score) score n5-lt $LAB/runs/n5-lt/final validation 1-5 ;;
  n6c) chain_stage n6c 6 $LAB/runs/n5-lt/final ;;
  n6-long)
    help_alone n6-long sft-stage-6-help-long-texts $START5 14 --max_steps 1500 --save_steps 742
    back n6-long-742 $LAB/runs/n6-long/checkpoint-742 ;;
  n6-long-score)
    score n6-long $LAB/runs/n6-long/final validation 1-6 &
    score n6-long-742 $LAB/runs/n6-long/checkpoint-742 validation 1-6 & wait ;;
  n6-lt8-train-score)
    python3 -m training.cli.evaluate --model $M --adapter $SHIPPED --stages 6 --n 320 --split train --arithmetic false \
      --baseline false --out $LAB/results/scores/n6-lt8-train 2>&1 | grep "^| stage" | sed "s/^/n6-lt8 train: /" ;;
  c6-slip) cuts_ready; polish c6-slip 6 $SHIPPED $WINDOWS --continuation_cuts $CUTS ;;
  c6-slip-lr) cuts_ready; polish c6-slip-lr 6 $SHIPPED $WINDOWS --continuation_cuts $CUTS --learning_rate 1e-4 ;;
  scr-lt) help_alone scr-lt sft-stage-6-help-long-texts $START5 8 --max_steps 742 --scrambled_fraction 0.3 ;;
  scr-lt-score)
    score scr-lt $LAB/runs/scr-lt/final validation 1-6 & score scr-lt $LAB/runs/scr-lt/final out_of_register 1-6 &
    wait ;;
  n6c-score | c6-slip-score | c6-slip-lr-score)
    score ${PART%-score} $LAB/runs/${PART%-score}/final validation 1-6 ;;
  a2-b512-12m) arith a2-b512-12m --per_device_train_batch_size 512 --max_steps 3000 --max_train_minutes 12 ;;
esac
[ -z "$BG" ] && (cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
