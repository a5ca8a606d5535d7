# GPU batch 31 of issues 17 and 18 (written 2026-11-26, session 25, before it ran; for a later session's GPU minutes).
# Batch 30 (results/grpo/batch-30/README.md) adopted stage 5 by the long-text help (n5-lt: 0.940 at 200 words on
# validation, 759 steps, ~6.5 H100-minutes), so the chain by the recipes is ~62.1 training minutes (34.8 + ~6.5 + 13.1
# + ~7.7), over item 2's 60, and the shipped stage 6 (idf-more) continues the stage 5 of before (n5-eq12). This batch:
#   item 2: stage 6 by stage-6.yaml as committed from n5-lt (s6-lt: its first part, 1,500 steps, then its identifier
#           part, 613 steps): the chain's stage 6, on validation and test, and out of register. With a checkpoint of
#           the first part at step 1,100, the identifier part from there too (s6-short): a first part 400 steps
#           (~3.5 H100-minutes) shorter would bring the chain to ~58.6 minutes, within 60.
#   item 1: stage 1 by GRPO alone with doubled words in 30% of its train problems (i1-dbl, --doubled_fraction 0.3):
#           results/grpo/slip-hazard-word-kind.md found GRPO alone at stage 1 (i1-b256) first-slipping on doubled
#           words (the target's "the the") at 158 per 1,000 against ~3 on plain words, ~0.003 NW on test, item 1's
#           gap (0.987 against 0.99); the adapters with supervised help never slip there.
#   item 3: idf-again (batch 30's 6 more minutes of help from the shipped adapter) on test, against c6s-only's test
#           scores (batch 30): the first equal-minutes pair with test scores for both arms; and out of register
#           (late in lane 1: the device minutes may end first).
#   4 GPUs only: item 4 (the arithmetic control for 20 minutes at 512 a step), item 1 (i1-clock9), issue 18 (idf-long:
#           long synthetic identifiers, --long_identifier_share, built in session 25 after
#           results/grpo/slip-hazard-word-kind.md found identifiers of 4+ components the likeliest first slips out of
#           register, 24.2 per 1,000 words at 500 words against 6.3 for those of 1-2 components and 0.57 for plain
#           words; batch 30's idf-all, identifiers in more problems, gives way to it).
#
# Starts, carried (each ~20 MB; two do not fit one call beside a bundle, so each rides a call of its own, see Calls):
#   n5-lt:     mkdir -p .carry/n5-lt && for f in adapter_config.json adapter_model.safetensors; do
#                git show 798a1fe:adapters/batch-30/n5-lt/$f > .carry/n5-lt/$f; done
#   idf-again: the same with idf-again (798a1fe:adapters/batch-30/idf-again/)
# Each run of this script first copies every carried adapter (.carry/NAME/) to $LAB/carry/NAME/, so that a start
# carried by an earlier call stays on the machine whatever later calls carry.
# Calls: results/ moved out of the tree (mv results /work/results-hidden; back before any commit); .gpu/1, .gpu/2,
# .gpu/3 alone, each `source scripts/gpu/setup.sh`; .gpu/4 with .carry/idf-again: `source scripts/gpu/setup.sh;
# WAIT=1 PART=wait bash THIS` (the set-up completes, idf-again is kept); then .carry/n5-lt with the start_lanes command
# below; then `WAIT=540 PART=wait bash THIS` calls back to back.
#
# Parts (start_lanes gives each lane its GPU). Scores: 256 problems a stage, greedy; OOR = out_of_register:
# PART=s6-lt-a    stage 6's first help part as committed (sft-stage-6-help-long-texts, 1,500 steps; its guard
#                 raised from 14 to 16 minutes, so that a slow pace beside the other lane cannot cut the steps) from
#                 n5-lt, with a checkpoint at step 1,100 (the constant rate after 10 warm-up steps and the
#                 length-grouped order over its 24,000 problems do not depend on max_steps, so the checkpoint is what
#                 a 1,100-step recipe drawing 24,000 problems trains).
# PART=s6-lt      stage 6's identifier part as committed (sft-stage-6-help-identifiers: 613 steps; guard 12 minutes, as
#                 batch 30's idf-again ran this recipe at 1.12 steps a second beside another run, 613 in ~9.1)
#                 from s6-lt-a: stage 6 of the chain by the recipes of now. s6-lt-val-score: validation, stages 1-6;
#                 s6-lt-test-score: test, stages 1-6 (waits for s6-lt: it runs in the other lane, so that the two
#                 splits, on the batch's longest path, score on both GPUs at once).
# PART=s6-short   the identifier part from s6-lt-a's step-1,100 checkpoint (waits for it). s6-short-val-score:
#                 validation, stages 1-6 (its test, if the rule picks it, in the next batch, or in this one where the
#                 device minutes allow: PART=s6-short-test-score).
# PART=s6-oor-report  s6-lt and s6-short out of register, stages 1-6 (waits for s6-lt).
# PART=idf-again-report  idf-again on test and out of register, stages 1-6 (its bf16 file: batch 30 scored the float32
#                 adapter on validation, which stayed on that machine; batch 29-30's CPU checks of bf16 files matched
#                 511-512 of 512 answers).
# PART=a2-b512-20m  item 4: a2-b512-12m (batch 30: +10.5 / +9.96 points, reward still rising) for 20 minutes.
# PART=start-in   the format start (sft-format-start.yaml from a fresh adapter, ~50 s), for i1-dbl and i1-clock9.
# PART=i1-dbl     item 1: stage-1.yaml from the format start with --doubled_fraction 0.3 (GRPO's train problems; the
#                 format start as committed), its 310 steps (the recipe's; CLOCK=10 only guards), the completion limit
#                 fixed at i1-b256's 64 tokens (derived from the first 100 train targets, doubled ones make it 68;
#                 found by session 25's reviewer). i1-dbl-score: its
#                 average and last weights on validation, stage 1. i1-dbl-report: the average on test and out of
#                 register, stage 1 (a report, whatever the rule says).
# PART=i1-clock9  item 1: stage-1.yaml from the format start with a 9-minute clock, at most 400 steps (batch 30's plan,
#                 not run there; named i1-clock9 here, as batch 23 has a run called i1-9m). i1-clock9-score: its
#                 average and last weights on validation, stage 1.
# PART=idf-long   issue 18: idf-again (the shipped adapter, 6 minutes of sft-stage-6-help-identifiers at problem seed
#                 2) with half the identifiers long (--long_identifier_share 0.5: 3-4 components from the word and
#                 the words after it). idf-long-score: validation and OOR, stages 1-6. Its equal-minutes arm is
#                 idf-again, whose OOR idf-again-report measures. Long identifiers lengthen a 500-word row by ~260
#                 tokens at the median (3,418 -> 3,679, 600 rows at seed 2: scripts/analysis/train_row_tokens.py
#                 --identifier_fraction 0.5 --long_identifier_share 0.5 --seed 2), and ~0.1% pass max_length 6144
#                 (a reviewer's count: 2 of 1,943), which cuts their ends.
# Rules, written before the run:
#   item 2: sft-stage-6-help-long-texts takes 1,100 steps (with `problems: 24000`, so that its steps are s6-lt-a's
#     first 1,100) if s6-short scores no more than 0.01 below s6-lt at 500 words on validation and no stage 1-5 more
#     than 0.01 below s6-lt's there; then the chain is ~58.6 minutes and s6-short is its stage 6. Otherwise s6-lt is.
#     The chain's stage 6 (the one picked) ships in place of idf-more if it meets every stage's goal on test (0.99 /
#     0.98 / 0.97 / 0.95 / 0.93 / 0.90) and no stage is more than 0.02 below stage 5's own (n5-lt) on validation; the
#     README's table is then its, and its out-of-register row issue 18's (a picked s6-short is scored on test by
#     PART=s6-short-test-score, in this batch where the minutes allow, else in the next from its bf16 file). Reported
#     either way: both on validation, s6-lt on test, paired (scripts/paired_scores.py) against idf-more, the shipped
#     adapter of now.
#   item 3: idf-again against c6s-only on test at every stage (paired): the first pair of item 3 with both arms on
#     test (results/grpo/ablation/ takes it). No recipe changes by it.
#   item 4: arithmetic.yaml takes 512 a step and a 20-minute clock if a2-b512-20m's validation gain reaches +10.9
#     points; item 4 is met if its test gain is +10 or more as well.
#   item 1: stage-1.yaml takes doubled_fraction 0.3 if i1-dbl's average scores 0.993 or more on validation at 10 words
#     (0.990, i1-b256's, + 0.003: one run's noise; batches 24-25's bar). Reported either way with its test and
#     out-of-register scores and its first slips on doubled words (scripts/analysis/slip_hazard_by_word_kind.py
#     --stages 1) against i1-b256's (batch 23: 4 on validation, 6 on test). Item 1 is met if the adopted recipe scores
#     0.99 and 90% exact on test.
#     stage-1.yaml takes the 9-minute clock if i1-clock9's average scores 0.993 or more on validation (batch 30's
#     rule); then i1-report scores it on test and out of register (NAMES=i1-clock9).
#   issue 18: stage 6's identifier part takes --long_identifier_share 0.5 if idf-long's OOR beats idf-again's by 0.03
#     or more at 200 and 500 words and its validation at 500 words is no more than 0.01 below idf-again's (batch
#     30's rule for idf-all). Reported with the hazard by kind of word (scripts/analysis/slip_hazard_by_word_kind.py)
#     against idf-again's. If it does not run here (2 GPUs), it leads the next batch, against this batch's idf-again
#     OOR.
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first). Batch 29-30's pace on two H200s: stage 6's first part ~2.1
# steps a second (1,500: ~12 minutes and ~1 of tokenizing), the identifier part 1.1-1.45 (613: 7-9.3 and ~1), a
# score of stages 1-6 on one split ~3.5 minutes, on two at once ~5.5, on three more than 6; a stage-1 run ~8 and its
# scores ~1. The longest path: s6-lt-a, s6-lt, its two scores, ~13.5 + ~10 + ~3.5 = ~27 minutes, with the set-up's
# ~1 within the 30. Lane 0: that path, then idf-again's two scores (~5.5), which the device minutes may not reach;
# lane 1: the format start and i1-dbl with its scores (~12) while s6-lt-a passes step 1,100 (~11), then s6-short
# (~10), its validation (~3.5), s6-lt's test (~3.5) and the out-of-register scores of both (~5.5, likely cut):
#   2 GPUs: "s6-lt-a s6-lt s6-lt-val-score idf-again-report" "start-in i1-dbl i1-dbl-score i1-dbl-report s6-short
#           s6-short-val-score s6-lt-test-score s6-oor-report"
#   4 GPUs: the two above, and "a2-b512-20m" "i1-clock9 i1-clock9-score idf-long idf-long-score" (i1-clock9 waits
#           for lane 1's format start)
#   As run (session 26, 4 GPUs lent; the rules above unchanged), rebalanced so that s6-lt's validation and test
#   scores both start as it ends and idf-again rides the first wait call instead of a call of its own
#   (idf-again-report waits for it):
#           "s6-lt-a s6-lt s6-lt-val-score"
#           "start-in i1-dbl i1-dbl-score i1-dbl-report s6-short s6-short-val-score s6-lt-oor-score"
#           "a2-b512-20m idf-again-report"
#           "i1-clock9 i1-clock9-score idf-long idf-long-score s6-lt-test-score"
#   (~27-29.5 minutes each by the paces above; s6-short's out-of-register score, if the rule picks it, in the next
#   batch: PART=s6-short-oor-score)
# Commit each adapter that may ship as it comes back (then drop it from the tree). After the calls, here:
# .venv/bin/python scripts/gpu/collect_batch.py 31 /work/.device/N ... (each call's folder, oldest first) --note "..."
# (results/grpo/batch-31/, batch-31.json, adapters/batch-31/; it rebuilds batch 30's record file for file).
source scripts/gpu/setup.sh
sweep_ready  # the carried starts kept, the set-up checked
START5=$LAB/carry/n5-lt       # stage 5 by stage-5.yaml of now (batch 30)
AGAIN=$LAB/carry/idf-again    # batch 30's idf-again
CHECKPOINT=$LAB/runs/s6-lt-a/checkpoint-1100
IDF="sft-stage-6-help-identifiers"
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_31.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  start-in) format_start ;;
  s6-lt-a) help_alone s6-lt-a sft-stage-6-help-long-texts $START5 16 --max_steps 1500 --save_steps 1100 ;;
  s6-lt) wait_for $LAB/runs/s6-lt-a/final/adapter_model.safetensors || exit 1
    help_alone s6-lt $IDF $LAB/runs/s6-lt-a/final 12 --max_steps 613 ;;
  s6-short) wait_for $CHECKPOINT/adapter_model.safetensors || exit 1
    help_alone s6-short $IDF $CHECKPOINT 12 --max_steps 613 ;;
  s6-lt-val-score) score s6-lt $LAB/runs/s6-lt/final validation 1-6 ;;
  s6-lt-test-score) wait_for $LAB/runs/s6-lt/final/adapter_model.safetensors || exit 1
    score s6-lt $LAB/runs/s6-lt/final test 1-6 ;;
  s6-short-val-score) score s6-short $LAB/runs/s6-short/final validation 1-6 ;;
  s6-short-test-score) score s6-short $LAB/runs/s6-short/final test 1-6 ;;
  s6-lt-oor-score) wait_for $LAB/runs/s6-lt/final/adapter_model.safetensors || exit 1
    score s6-lt $LAB/runs/s6-lt/final out_of_register 1-6 ;;
  s6-short-oor-score) score s6-short $LAB/runs/s6-short/final out_of_register 1-6 ;;
  s6-oor-report) wait_for $LAB/runs/s6-lt/final/adapter_model.safetensors || exit 1
    score s6-lt $LAB/runs/s6-lt/final out_of_register 1-6 &
    score s6-short $LAB/runs/s6-short/final out_of_register 1-6 & wait ;;
  idf-again-report) wait_for $AGAIN/adapter_model.safetensors || exit 1
    score idf-again $AGAIN test 1-6 & score idf-again $AGAIN out_of_register 1-6 & wait ;;
  idf-long) help_alone idf-long $IDF adapters/shipped 6 --max_steps 700 --problem_seed 2 --long_identifier_share 0.5 ;;
  idf-long-score)
    score idf-long $LAB/runs/idf-long/final validation 1-6 &
    score idf-long $LAB/runs/idf-long/final out_of_register 1-6 & wait ;;
  a2-b512-20m) arith a2-b512-20m --per_device_train_batch_size 512 --max_steps 5000 --max_train_minutes 20 ;;
  i1-dbl) wait_for $LAB/runs/sft-start/final/adapter_model.safetensors || exit 1
    CLOCK=10 stage1 i1-dbl --doubled_fraction 0.3 --max_completion_length 64 ;;  # i1-b256's (a reviewer: 68 unset)
  i1-dbl-score) score_both i1-dbl ;;
  i1-dbl-report) report_stage1 i1-dbl ;;
  i1-clock9) wait_for $LAB/runs/sft-start/final/adapter_model.safetensors || exit 1
    CLOCK=9 stage1 i1-clock9 --max_steps 400 ;;
  i1-clock9-score) score_both i1-clock9 ;;
  i1-report) report_stage1 ${NAMES:?} ;;
esac
[ -z "$BG" ] && (cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
