# GPU batch 30 of issues 17 and 18 (written 2026-11-26, session 24, before it ran; for a later session's GPU minutes).
# Batch 29 (results/grpo/batch-29/README.md) gave stage 6's help a second part with synthetic identifiers in half the
# problems at max_length 6144 (idf-more: 0.934 at 500 words on validation; out of register +0.089 at 200 words and
# +0.182 at 500 over the same minutes of plain help; on test 1.000 / 1.000 / 0.991 / 0.989 / 0.972 / 0.900): adopted
# (stage-6.yaml: sft-stage-6-help-long-texts, then sft-stage-6-help-identifiers) and shipped. The chain by the
# recipes is now ~67.7 training minutes, over item 2's 60. This batch asks:
#   item 2: does stage 5 by the long-text settings free the minutes (n5-lt, batch 28's rule unchanged)?
#   issue 18: do identifiers in every problem of the second part (idf-all) narrow the out-of-register gap more than
#             the half of now (idf-again), the same 6 minutes from the shipped adapter? Do scrambled texts on top
#             (scr-idf) add to it?
#   item 3: GRPO at the slips of the shipped stage 6 (c6s-only) against more help for the same start (idf-again),
#           both on the test split too: the first equal-minutes pair of item 3 with test scores for both arms; and
#           with the shared-prompt loss pass (c6s-only-sp, its first GPU run: seconds a step and peak memory)
#   item 4: the arithmetic control for 12 minutes at 512 a step (a2-b512-12m, never run so far)
#   item 1: stage 1 with the minute item 1's clock leaves (i1-9m: 9 minutes of GRPO after the ~50 s format start)
#
# Starts, carried (each ~20 MB):
#   n4-eq3, the stage 4 shipped before session 22:  mkdir -p .carry/n4-eq3 && for f in adapter_config.json \
#     adapter_model.safetensors; do git show f09288b:adapters/shipped/$f > .carry/n4-eq3/$f; done
#   the shipped stage 6 (batch 29's idf-more, bf16): adapters/shipped in the tree.
# Calls: results/ moved out of the tree (mv results /work/results-hidden; back before any commit); .gpu/1..3 alone;
# .gpu/4 with .carry/n4-eq3 and the start_lanes command below; then `WAIT=540 PART=wait bash THIS` calls back to back.
#
# Parts (start_lanes gives each lane its GPU). Validation, 256 problems a stage, greedy; OOR = out_of_register:
# PART=n5-lt      item 2: sft-stage-5-help-long-texts (texts of 25-400 words, lr 1e-4 constant, at most 1,000 steps or
#                 6 minutes) from n4-eq3. n5-lt-score: stages 1-5 (waits for n5-lt's adapter). Rule (batch 28's,
#                 unchanged): stage-5.yaml's help becomes sft-stage-5-help-long-texts if n5-lt scores at least
#                 n5-eq12's 0.912 at 200 words and no stage 1-4 is more than 0.02 below n4-eq3's (1.000 / 0.984 /
#                 0.972 / 0.913). Then the chain is 34.8 + n5-lt's minutes + 13.1 + ~7.7, and a later batch runs
#                 stage-6.yaml from n5-lt (the chain's stage 6, on test).
# PART=idf-again  issue 18 and item 3: the shipped adapter, then 6 more minutes of sft-stage-6-help-identifiers (half
#                 the problems with identifiers, max_length 6144) on another draw of problems (problem seed 2; at most
#                 700 steps): the equal-minutes arm of idf-all and scr-idf, and the help arm of item 3 against
#                 c6s-only (~3 minutes of cut-point eval + 5 of GRPO). idf-again-score: validation, OOR and test,
#                 stages 1-6.
# PART=idf-all    idf-again with identifiers in every problem (--identifier_fraction 1.0). idf-all-score: validation
#                 and OOR.
# PART=scr-idf    idf-again with 30% of the problems scrambled too (--scrambled_fraction 0.3, as stage-2.yaml; drawn
#                 independently of the identifiers). scr-idf-score: validation and OOR.
# PART=ship-train-score  the shipped stage 6 greedy on the first 320 train problems of stage 6: the cut points of
#                 c6s-only and c6s-only-sp (~2 minutes, as batch 28; 320 rather than batch 29's 480, to keep lane 2
#                 within the device minutes; n6-long slipped on 25% of 480).
# PART=c6s-only   item 3: from the shipped adapter, GRPO on 40-word windows cut 4 words before its first slips, the
#                 slipped problems alone (batch 29's c6s-only: lr 3e-5, 5 minutes). c6s-only-score: validation and
#                 test, stages 1-6.
# PART=c6s-only-sp  c6s-only with --shared_prompt_loss (each group's prompt computed once in the loss pass; the same
#                 numbers up to rounding on CPU, tests/training/trainer/test_shared_prompt.py; the entropy bonus, a
#                 mean per micro-batch, weighs tokens slightly differently; no activation checkpointing, ~13 GB
#                 estimated). Its first GPU run. c6s-only-sp-score: stages 1-6.
# PART=a2-b512-12m item 4 (the arithmetic control, 2x2): a2-b512 (batch 26: +9.5 / +8.4 points in 7 minutes, reward
#                 still rising) for 12 minutes. Rule (batch 27's, unchanged): arithmetic.yaml takes 512 a step if its
#                 validation gain reaches +10.9 (a2-ctl's +8.9 + 2); item 4 is met if its test gain is +10 or more as
#                 well (arith's own eval: the base model's and the adapter's exact match on 512 problems a split).
# PART=start-in   the format start (sft-format-start.yaml from a fresh adapter, ~50 s), for i1-9m.
# PART=i1-9m      item 1: stage-1.yaml from the format start with a 9-minute clock and at most 400 steps (the committed
#                 recipe: 310 steps, about 8 minutes; batch 23's i1-b256: 0.991 / 92.6% on validation, 0.987 / 91.8%
#                 on test, 0.003 short of item 1's 0.99), alone on its GPU. i1-9m-score: its weight average and last
#                 weights on validation, stage 1. Rule (batches 24-25's): stage-1.yaml takes the 9-minute clock if
#                 the average scores 0.993 or more on validation (0.990 + 0.003, one run's noise); then i1-report
#                 scores it on test and out of register (NAMES=i1-9m).
# PART=i1-report  NAMES="a b": test and out_of_register, stage 1, for the named stage-1 runs.
# Rules, written before the run:
#   issue 18: the second part takes --identifier_fraction 1.0 (or the scrambled share on top) if its OOR beats
#     idf-again's by 0.03 or more at 200 and 500 words and its validation at 500 words is no more than 0.01 below
#     idf-again's; if both pass, the one with the higher OOR at 500 words. Reported either way with the gap of OOR to
#     validation per stage, the share of OOR first slips on symbolic words (first_slip_words.py), and whether
#     idf-again's 6 more minutes gained on the shipped adapter (0.934 on validation, OOR 0.845 / 0.673 at 200 / 500):
#     if by 0.03 or more at 200 and 500 words OOR, a longer second part is the next lever once the chain's minutes
#     allow it.
#   item 3: GRPO at the slips joins stage-6.yaml (help, then 5 minutes of it) if the higher of c6s-only and
#     c6s-only-sp scores 0.01 or more above the shipped adapter (0.934) at 500 words, at least idf-again there, and no
#     stage more than 0.02 below the shipped adapter's (1.000 / 0.995 / 0.997 / 0.990 / 0.985), and only if n5-lt is
#     adopted. Reported with each run's share of groups without reward variance, seconds a step (after the first),
#     steps in the 5 minutes and peak GPU memory (metrics.jsonl's gpu_peak_memory_gib), c6s-only-sp against c6s-only,
#     and c6s-only against idf-again on test at every stage (results/grpo/ablation/ takes the pair).
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first). Batch 29's pace on two H200s: 7 minutes of help took ~10
# in all (loading, tokenizing), a score of stages 1-6 on two or three splits at once ~3-4; so ~24-27 minutes a lane
# after ~2 of set-up (the arithmetic control first in its lane: it has been left out of four batches):
#   2 GPUs: "a2-b512-12m n5-lt n5-lt-score" "ship-train-score c6s-only c6s-only-score idf-again idf-again-score"
#   4 GPUs: the two above, and "idf-all idf-all-score scr-idf scr-idf-score" "start-in i1-9m i1-9m-score
#           c6s-only-sp c6s-only-sp-score" (c6s-only-sp waits for ship-train-score's cut points)
# Commit each adapter that may ship as it comes back (then drop it from the tree).
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
mkdir -p $LAB/results/scores
START4=.carry/n4-eq3          # the stage 4 shipped before session 22
SHIPPED=adapters/shipped      # batch 29's idf-more, bf16: stage 6
CUTS=$LAB/results/scores/ship-train/problems.jsonl
WINDOWS="--continuation_words 40 --word_credit 0 --keep_word_signal_groups false --per_device_train_batch_size 16
  --gradient_accumulation_steps 8 --promotion_every 1000 --max_completion_length 64"
AGAIN="sft-stage-6-help-identifiers $SHIPPED 6 --max_steps 700 --problem_seed 2"  # 6 more minutes of its 2nd part
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_30.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  start-in) format_start ;;
  n5-lt) help_alone n5-lt sft-stage-5-help-long-texts $START4 6 --max_steps 1000 ;;
  n5-lt-score) wait_for $LAB/runs/n5-lt/final/adapter_model.safetensors || exit 1
    score n5-lt $LAB/runs/n5-lt/final validation 1-5 ;;
  idf-again) help_alone idf-again $AGAIN ;;
  idf-all) help_alone idf-all $AGAIN --identifier_fraction 1.0 ;;
  scr-idf) help_alone scr-idf $AGAIN --scrambled_fraction 0.3 ;;
  idf-again-score | idf-all-score | scr-idf-score)
    score ${PART%-score} $LAB/runs/${PART%-score}/final validation 1-6 &
    score ${PART%-score} $LAB/runs/${PART%-score}/final out_of_register 1-6 &
    [ $PART = idf-again-score ] && score idf-again $LAB/runs/idf-again/final test 1-6 &
    wait ;;
  ship-train-score)
    python3 -m training.cli.evaluate --model $M --adapter $SHIPPED --stages 6 --n 320 --split train --arithmetic false \
      --baseline false --out $LAB/results/scores/ship-train 2>&1 | grep "^| stage" | sed "s/^/shipped train: /" ;;
  c6s-only) wait_for $CUTS || exit 1
    polish c6s-only 6 $SHIPPED $WINDOWS --continuation_cuts $CUTS --continuation_slips_only true ;;
  c6s-only-sp) wait_for $CUTS || exit 1
    polish c6s-only-sp 6 $SHIPPED $WINDOWS --continuation_cuts $CUTS --continuation_slips_only true \
      --shared_prompt_loss true ;;
  c6s-only-score)
    score c6s-only $LAB/runs/c6s-only/final validation 1-6 & score c6s-only $LAB/runs/c6s-only/final test 1-6 & wait ;;
  c6s-only-sp-score) score c6s-only-sp $LAB/runs/c6s-only-sp/final validation 1-6 ;;
  i1-9m) CLOCK=9 stage1 i1-9m --max_steps 400 ;;
  i1-9m-score) score_both i1-9m ;;
  i1-report) report_stage1 ${NAMES:?} ;;
  a2-b512-12m) arith a2-b512-12m --per_device_train_batch_size 512 --max_steps 3000 --max_train_minutes 12 ;;
esac
[ -z "$BG" ] && (cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
