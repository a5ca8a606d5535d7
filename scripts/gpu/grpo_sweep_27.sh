# GPU batch 27 of issue 17 (written 2026-11-26, session 21, before it ran; for the next session's device minutes).
# Batch 26 (results/grpo/batch-26/README.md) carried the chain to stages 5 and 6: stage-5.yaml is now its 12-minute
# help alone (n5-eq12: 0.999 / 0.992 / 0.993 / 0.961 / 0.912 at stages 1-5 on validation) and stage-6.yaml its
# 8-minute help alone (n6-eq, from the 7-minute stage 5 n5-eq: 0.648 at 500 words). GRPO through the curriculum at
# stage 6 kept reward variance in every group but took 54 s a step. This batch runs stage 6 by the recipes of now
# (from n5-eq12), tries the supervised chain's long-text recipe as stage 6's help at equal minutes, brings back the
# test split and out-of-register scores for stages 5-6 so that the final stage can be shipped, and gives GRPO at
# stage 6 cheap steps (continuation problems) against more help at equal minutes.
#
# Start: n5-eq12, stage 5 by the recipes of now, from commit 1cef8a7, carried as .carry/n5-eq12 with its validation
# eval beside it:
#   mkdir -p .carry/n5-eq12 && for f in adapter_config.json adapter_model.safetensors; do
#     git show 1cef8a7:adapters/batch-26/n5-eq12/$f > .carry/n5-eq12/$f; done
#   cp results/grpo/batch-26/scores/n5-eq12-validation/eval.json .carry/n5-eq12/eval-validation.json
# results/ moved out of the tree for the bundle calls (4 calls, as batches 24-26); .carry/n5-eq12 (~20 MB) rides in
# the last bundle's call.
#
# Parts (PART=bg / PART=wait as in batch 24; start_lanes gives each lane its GPU):
# PART=n6-8m      item 2: make train-stage N=6 as committed (stage-6.yaml: sft-stage-6-help-8m alone, max_steps 0) from
#                 n5-eq12: the recipe chain's stage 6; n6-8m-score: validation, stages 1-6.
# PART=n6-lt8     stage 6's help as the supervised chain's sft-long-texts.yaml (texts of 250-500 words, with 25 and 100
#                 against forgetting; lr 1e-4) for the same 8 minutes from n5-eq12. That recipe's first pass reached
#                 0.805 at 500 words in 4.1 minutes from a stage-3 adapter (its header; test split), where
#                 sft-stage-6-help-long spreads its problems over 4-500 words. n6-lt8-score: validation, stages 1-6.
# Rule (stage 6), validation: n6-lt8 replaces n6-8m (the committed recipe) if it scores 0.02 or more above it at 500
#                 words and no stage 1-5 more than 0.02 below n5-eq12's. stage-6.yaml then names it (a new
#                 sft-stage-6-help-* recipe of 8 minutes).
# PART=c6-win     item 3, GRPO with cheap steps at the longest stage (new in session 21: --continuation_words): from
#                 n6-8m (it waits for its adapter), stage-6.yaml's GRPO polish (lr 3e-5, the average from step 20, no
#                 help, 5 minutes) on continuation problems: the start of the correct answer given, cut at a random
#                 word, and 40 words sampled and scored (~60 tokens, where s6-chain sampled ~1,400 a completion and
#                 took 54 s a step); sequence advantage only (--word_credit 0), micro-batches of 16 (8 accumulated:
#                 the prompts run to ~2,900 tokens with the given start), no promotion checks in its 5 minutes (one
#                 at 500 words costs about a minute), completions capped at 64 tokens (~40 words of prose; the smoke
#                 run's budget of 165 let 62-85% run on past the window, unscored: results/grpo/continuation-smoke/,
#                 17-24 s a step on an H100, so ~15 steps in 5 minutes). c6-win-score: validation, stages 1-6.
# PART=n6-13m     its equal-minutes arm: sft-stage-6-help-long alone for 13 minutes (n6-8m's 8 + c6-win's 5) from
#                 n5-eq12; n6-13m-score. Rule (item 3), validation: GRPO on windows earns a place in stage-6.yaml
#                 (help + polish) if c6-win beats n6-8m by 0.01 or more at 500 words, beats n6-13m there, and no
#                 stage 1-5 is more than 0.02 below n5-eq12's. Reported either way, with its steps, seconds a step
#                 and zero-variance groups.
# PART=n5-report  n5-eq12 on test and out_of_register, stages 1-5 (256 each; both at once): item 2's stage 5 and issue
#                 18's gap, reported.
# PART=n6-test-report / n6-oor-report: wait for that pick, then the picked stage-6 adapter on test / out_of_register,
#                 stages 1-6: what ships if stage 6 is shipped (issue 17 item 6).
# PART=a2-b512-12m item 4: a2-b512 (batch 26: +9.5 / +8.4 points in 7 minutes, reward still rising) for 12 minutes;
#                 rule: arithmetic.yaml takes 512 a step if its validation gain reaches +10.9 (a2-ctl's +8.9 + 2);
#                 item 4 is met if its test gain is +10 or more as well. Not in the lanes below (no GPU is free for
#                 its 13 minutes); for a machine that has one.
# Added in session 22 after the four lanes came back, written before it ran, for the session's last device minutes
# (one GPU, ~13 minutes held):
# PART=c6w-lt     c6-win's recipe from the picked stage 6 (n6-lt8: 0.833 at 500 words on validation), carried as
#                 .carry/n6-lt8: does GRPO on windows add anything on top of the best help? c6w-lt-score: validation,
#                 stages 1-6. Rule: nothing is adopted from it alone (no equal-minutes arm fits the minutes left); if it
#                 gains 0.01 or more at 500 words over n6-lt8 with no stage more than 0.02 below n6-lt8's, the next
#                 batch runs it against 5 more minutes of sft-long-texts; else GRPO on windows is reported as adding
#                 nothing to stage 6's help.
#   source scripts/gpu/setup.sh; export BACK_RAW=0; PARTS="c6w-lt c6w-lt-score" PART=bg bash scripts/gpu/grpo_sweep_27.sh
# PART=start-in   the format start (not in the lanes below; for a stage-1 part added during the run).
# Plan: one machine of 4 GPUs (nvidia-h200-x4), ~25 minutes:
#   source scripts/gpu/setup.sh; export BACK_RAW=0; start_lanes scripts/gpu/grpo_sweep_27.sh \
#     "n6-8m n6-8m-score n6-test-report" "n6-lt8 n6-lt8-score n6-oor-report" "n6-13m n6-13m-score" \
#     "n5-report c6-win c6-win-score"
# Commit each adapter that may ship as it comes back (then drop it from the tree).
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
mkdir -p $LAB/results/scores
START5=.carry/n5-eq12         # batch 26's n5-eq12: stage 5 by stage-5.yaml of now, from the shipped stage 4
# scored NAME: wait until NAME's validation eval is written (its score part has ended); at once in a dry run
scored() { while [ -z "$DRY_RUN" ] && [ ! -f $LAB/results/scores/$1-validation/eval.json ]; do sleep 10; done; }
# pick CURRENT ARM: ARM if it beats CURRENT by 0.02 or more at 500 words on validation and no stage 1-5 is more than
# 0.02 below n5-eq12's; else CURRENT
pick() {
  python3 - $LAB/results/scores $1 $2 $START5/eval-validation.json <<'PY'
import json, sys
scores, current, arm, start = sys.argv[1:]
def nw(path):
    return {row["task"]: row["nw_score"] for row in json.load(open(path))["rows"] if row["label"] == "trained"}
old, new, base = nw(f"{scores}/{current}-validation/eval.json"), nw(f"{scores}/{arm}-validation/eval.json"), nw(start)
kept = all(new[task] >= score - 0.02 for task, score in base.items())
print(arm if new["stage-6"] >= old["stage-6"] + 0.02 and kept else current)
PY
}
# after_n6_8m: wait until n6-8m's adapter is there (its score part has started)
after_n6_8m() { while [ ! -e $LAB/results/bg-n6-8m-score.log ]; do sleep 5; done; }
# picked: the pick between n6-8m and n6-lt8 (equal minutes), once both are scored; each report part makes it itself
picked() { scored n6-8m; scored n6-lt8; local name=$(pick n6-8m n6-lt8); echo ${name:-n6-8m}; }
case ${PART:?set PART=start-in, n6-8m, n6-lt8, n6-13m, c6-win, c6w-lt (each also NAME-score), n5-report, n6-test-report, n6-oor-report, a2-b512-12m, bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_27.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  start-in) format_start ;;
  n6-8m) chain_stage n6-8m 6 $START5 ;;
  n6-lt8) help_alone n6-lt8 sft-long-texts $START5 8 ;;
  n6-13m) help_alone n6-13m sft-stage-6-help-long $START5 13 ;;
  c6-win)
    after_n6_8m
    polish c6-win 6 $LAB/runs/n6-8m/final --continuation_words 40 --word_credit 0 --keep_word_signal_groups false \
      --per_device_train_batch_size 16 --gradient_accumulation_steps 8 --promotion_every 1000 --max_completion_length 64 ;;
  c6w-lt)
    polish c6w-lt 6 .carry/n6-lt8 --continuation_words 40 --word_credit 0 --keep_word_signal_groups false \
      --per_device_train_batch_size 16 --gradient_accumulation_steps 8 --promotion_every 1000 --max_completion_length 64 ;;
  n6-8m-score | n6-lt8-score | n6-13m-score | c6-win-score | c6w-lt-score)
    score ${PART%-score} $LAB/runs/${PART%-score}/final validation 1-6 ;;
  n5-report) score n5-eq12 $START5 test 1-5 & score n5-eq12 $START5 out_of_register 1-5 & wait ;;
  n6-test-report | n6-oor-report)
    name=$(picked); echo "picked: $name"
    split=test; [ $PART = n6-oor-report ] && split=out_of_register
    score $name $LAB/runs/$name/final $split 1-6 ;;
  a2-b512-12m) arith a2-b512-12m --per_device_train_batch_size 512 --max_steps 3000 --max_train_minutes 12 ;;
esac
[ -z "$BG" ] && (cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
