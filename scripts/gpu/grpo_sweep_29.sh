# GPU batch 29 of issues 17 and 18 (written 2026-11-26, session 23, before it ran; for a later session's GPU minutes).
# Batch 28 (results/grpo/batch-28/README.md) ran stage 6's long-text help for 1,500 steps (n6-long: 0.886 at 500 words
# on validation, 0.858 on test, the shipped adapter and stage-6.yaml's help now; the chain at 60.0 training minutes)
# and found GRPO's first gain over the 0.01 bar at stage 6 from a strong adapter: windows cut 4 words before its own
# first slips (c6-slip: +0.015, 54% of groups without reward variance against 80% for random windows), still less
# than the same minutes of supervised help. This batch asks:
#   item 2: does stage 5 by the long-text settings free the chain's minutes (n5-lt, batch 28's rule unchanged)?
#           Does stage 6's help gain when its 500-word rows are no longer cut at 3,072 tokens (ml-more against
#           n6-more)?
#   item 3: GRPO at the slips of the stage 6 of now, on every problem (c6s) or the slipped ones alone (c6s-only),
#           against the same minutes of more help (n6-more)
#   issue 18: do synthetic identifiers (--identifier_fraction, new in session 23) or scrambled texts in stage 6's help
#           narrow the out-of-register gap, against the same minutes of plain help (ml-more)?
#
# Starts, carried (each ~20 MB):
#   n4-eq3, the stage 4 shipped before session 22:  mkdir -p .carry/n4-eq3 && for f in adapter_config.json \
#     adapter_model.safetensors; do git show f09288b:adapters/shipped/$f > .carry/n4-eq3/$f; done
#   n6-long, stage 6 by stage-6.yaml: adapters/shipped in the tree (bf16).
# Calls: results/ moved out of the tree (mv results /work/results-hidden; back before any commit); .gpu/1..3 alone;
# .gpu/4 with .carry/n4-eq3 and the start_lanes command below; then `WAIT=540 PART=wait bash THIS` calls back to back.
#
# Parts (start_lanes gives each lane its GPU). Validation, 256 problems a stage, greedy; OOR = out_of_register:
# PART=n5-lt      item 2: sft-stage-5-help-long-texts (texts of 25-400 words, lr 1e-4 constant, at most 1,000 steps or
#                 6 minutes) from n4-eq3. n5-lt-score: stages 1-5 (waits for n5-lt's adapter, so it can sit in
#                 another lane). Rule (batch 28's, unchanged): stage-5.yaml's help becomes sft-stage-5-help-long-texts
#                 if n5-lt scores at least n5-eq12's 0.912 at 200 words and no stage 1-4 is more than 0.02 below
#                 n4-eq3's (1.000 / 0.984 / 0.972 / 0.913).
# PART=n6c        make train-stage N=6 as committed (stage-6.yaml: 1,500 steps of sft-stage-6-help-long-texts) from
#                 n5-lt. n6c-score: stages 1-6. If n5-lt is adopted, n6c is the chain's stage 6: reported with the
#                 chain's minutes (34.8 + n5-lt's + n6c's) and, on test, whether stage 6 reaches 0.90. In no lane
#                 below (the plans' last line).
# PART=n6-long-train-score  the shipped stage 6 (n6-long), greedy on the first 480 train problems of stage 6: the cut
#                 points of c6s and c6s-only (~3 minutes; batch 28's adapter slipped on 42% of them).
# PART=c6s        item 3: from n6-long, GRPO on 40-word windows cut 4 words before its first slips (batch 28's c6-slip,
#                 lr 3e-5, 5 minutes). c6s-score: stages 1-6.
# PART=c6s-only   item 3: c6s on the slipped problems alone (--continuation_slips_only, new in session 23), in turn and
#                 over again: in batch 28 most of the groups without reward variance came from the problems without a
#                 slip (random cuts). c6s-only-score: stages 1-6. Rule: as c6s's (the higher of the two is the arm).
# PART=c6s-only-sp  c6s-only with --shared_prompt_loss (new in session 23): the loss pass computes each group's
#                 prompt once (the same numbers up to rounding, tests/training/trainer/test_shared_prompt.py; the
#                 entropy bonus, a mean per micro-batch, weighs tokens slightly differently), so a step should cost
#                 far less than c6-slip's 17 s, of which ~11 went outside generation; more steps in the same 5
#                 minutes. Its first GPU run: report seconds a step and peak memory (the pass runs without activation
#                 checkpointing; ~13 GB estimated) beside c6s-only's. c6s-only-sp-score: stages 1-6.
# PART=n6-more    the equal-minutes arm: n6-long, then 7 more minutes of stage 6's help (at most 850 steps, problem
#                 seed 1: texts the first 1,500 steps did not draw). n6-more-score: validation, stages 1-6.
# PART=ml-more    item 2: n6-more with max_length 6144 instead of 3072 (8 rows a micro-batch, 2 accumulated: the same 16
#                 a step). At 500 words 44% of the help's rows are longer than 3,072 tokens (a numeric text costs more
#                 tokens a word) and TRL cuts them there, so the end of their answers is never trained; 6144 holds
#                 every row (results/corpus/train-row-tokens.md). On test the first-slip hazard of n6-long rises
#                 smoothly with position, 0.07 -> 0.37 -> 0.62 -> 0.86 first slips per 1,000 tokens at risk from 1,500
#                 to 4,000 tokens, with no jump at 3,072, so the cut may matter little: this measures it.
#                 ml-more-score: validation and OOR, stages 1-6.
# PART=idf-more   issue 18: ml-more with half the problems holding synthetic identifiers (--identifier_fraction 0.5:
#                 10% of such a problem's words replaced by code-like strings built from its own words, so ~5% of the
#                 train words, as in technical text; at 3072 tokens 99% of those rows at 500 words would be cut, hence
#                 6144). idf-more-score: validation and OOR.
# PART=scr-more   issue 18: ml-more with 30% of the problems scrambled (--scrambled_fraction 0.3, as stage-2.yaml).
#                 scr-more-score: validation and OOR.
# Rules, written before the run:
#   item 3: GRPO at the slips joins stage-6.yaml (help, then 5 minutes of it) if c6s, c6s-only or c6s-only-sp (the
#     highest) scores 0.01 or more above n6-long (0.886) at 500 words, at least n6-more there, and no stage more
#     than 0.02 below n6-long's (1.000 / 0.991 / 0.995 / 0.991 / 0.985); only if n5-lt is adopted too (the chain is
#     at its 60 minutes). Reported either way, with each run's share of groups without reward variance and, for
#     c6s-only-sp against c6s-only, seconds a step.
#   item 2: stage 6's help takes max_length 6144 if ml-more scores 0.02 or more above n6-more at 500 words and no
#     stage is more than 0.02 below n6-more's (then a later batch runs stage-6.yaml that way from stage 5 for the same
#     minutes); it takes n6-more's extra steps (a second pass at problem seed 1) if n6-more scores 0.02 or more above
#     n6-long at 500 words and the chain's minutes allow it (n5-lt).
#   issue 18: stage 6's help takes the identifier share (or the scrambled share) if its OOR beats ml-more's by 0.03 or
#     more at 200 and 500 words and its validation at 500 words is no more than 0.01 below ml-more's; if both pass, the
#     one with the higher OOR at 500 words. Reported with the share of OOR first slips on symbolic words
#     (diagnostics.json; n6-long: 47% at 500 words, where such words are 6.5% of the target).
# PART=a2-b512-12m item 4 (as in batch 27's script; in no lane below).
# PART=start-in   the format start (in no lane below; for a stage-1 part added during the run).
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first). Batch 28's pace: a help of 13.2 training minutes took
# 17.6 in all (loading, tokenizing), a score of stages 1-6 ~2.7 minutes; so ~24-26 minutes a lane after ~2.5 of set-up:
#   4 GPUs: "n5-lt n5-lt-score scr-more scr-more-score" "n6-long-train-score c6s-only c6s-only-score c6s c6s-score"
#           "n6-more n6-more-score ml-more ml-more-score" "idf-more idf-more-score c6s-only-sp c6s-only-sp-score"
#   2 GPUs: "n6-more n6-more-score ml-more ml-more-score" "n6-long-train-score c6s-only c6s-only-score idf-more
#           idf-more-score" (items 2-3 and the identifiers first; c6s-only before c6s, since in batch 28 random cuts
#           left most groups without reward variance)
# n6c (stage 6 from n5-lt, ~21 minutes with its score) is in no lane: it runs in a later batch if n5-lt is adopted.
# Commit each adapter that may ship as it comes back (then drop it from the tree).
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
mkdir -p $LAB/results/scores
START4=.carry/n4-eq3          # the stage 4 shipped before session 22
SHIPPED=adapters/shipped      # batch 28's n6-long, bf16: stage 6
CUTS=$LAB/results/scores/n6-long-train/problems.jsonl
WINDOWS="--continuation_words 40 --word_credit 0 --keep_word_signal_groups false --per_device_train_batch_size 16
  --gradient_accumulation_steps 8 --promotion_every 1000 --max_completion_length 64"
MORE="sft-stage-6-help-long-texts $SHIPPED 7 --max_steps 850 --problem_seed 1"   # 7 more minutes of stage 6's help
WHOLE="--max_length 6144 --per_device_train_batch_size 8 --gradient_accumulation_steps 2"  # every 500-word row whole
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_29.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  start-in) format_start ;;
  n5-lt) help_alone n5-lt sft-stage-5-help-long-texts $START4 6 --max_steps 1000 ;;
  n5-lt-score) wait_for $LAB/runs/n5-lt/final/adapter_model.safetensors || exit 1
    score n5-lt $LAB/runs/n5-lt/final validation 1-5 ;;
  n6c) chain_stage n6c 6 $LAB/runs/n5-lt/final ;;
  n6-long-train-score)
    python3 -m training.cli.evaluate --model $M --adapter $SHIPPED --stages 6 --n 480 --split train --arithmetic false \
      --baseline false --out $LAB/results/scores/n6-long-train 2>&1 | grep "^| stage" | sed "s/^/n6-long train: /" ;;
  c6s) wait_for $CUTS || exit 1; polish c6s 6 $SHIPPED $WINDOWS --continuation_cuts $CUTS ;;
  c6s-only) wait_for $CUTS || exit 1
    polish c6s-only 6 $SHIPPED $WINDOWS --continuation_cuts $CUTS --continuation_slips_only true ;;
  c6s-only-sp) wait_for $CUTS || exit 1   # (in another lane than n6-long-train-score: it waits for its file)
    polish c6s-only-sp 6 $SHIPPED $WINDOWS --continuation_cuts $CUTS --continuation_slips_only true \
      --shared_prompt_loss true ;;
  n6-more) help_alone n6-more $MORE ;;
  ml-more) help_alone ml-more $MORE $WHOLE ;;
  idf-more) help_alone idf-more $MORE $WHOLE --identifier_fraction 0.5 ;;
  scr-more) help_alone scr-more $MORE $WHOLE --scrambled_fraction 0.3 ;;
  ml-more-score | idf-more-score | scr-more-score)
    score ${PART%-score} $LAB/runs/${PART%-score}/final validation 1-6 &
    score ${PART%-score} $LAB/runs/${PART%-score}/final out_of_register 1-6 & wait ;;
  n6c-score | c6s-score | c6s-only-score | c6s-only-sp-score | n6-more-score)
    score ${PART%-score} $LAB/runs/${PART%-score}/final validation 1-6 ;;
  a2-b512-12m) arith a2-b512-12m --per_device_train_batch_size 512 --max_steps 3000 --max_train_minutes 12 ;;
esac
[ -z "$BG" ] && (cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
