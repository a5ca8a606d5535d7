# GPU batch 37 of issues 17 and 18 (written 2026-11-27, session 31, before it ran; for a later session's GPU minutes).
# Batch 36 (results/grpo/batch-36/README.md): the chain's stage 6 (chain-6s) scored 0.836 at 500 words on test (goal
# 0.90; every other stage met its goal); 300 more steps of stage 6's identifier part from it at a constant 1e-4 read
# +0.035 at 500 words on validation (ctl-tail, 0.892) and 300 more after that -0.064 (ctl-tail2, 0.828): where a
# constant-rate run stops sets stage 6's score to +-0.03-0.06. Repeated phrases in half the supervised rows
# (rep-tail) kept the place with a phrase repeated twice as well (stress test at 200 words: 0.608 against 0.314) and
# lost 0.10-0.12 at 500 words on texts as drawn.
# This batch:
#   item 2, stage 6's end point: the identifier part's tail annealed (a cosine from 1e-4 to zero over its 300 steps)
#           against the same tail at its constant rate, from chain-6s at problem seeds 2 and 3 (four tails, two of
#           each; seed 2's constant tail is batch 36's ctl-tail, carried and scored again). Stage 6 is read on 512
#           validation problems (0-511: batch 36's 256 and 256 more), so each seed's pair is paired on 512.
#   issue 18 / item 3, GRPO where the groups have something to learn: stage 3's GRPO polish (50 words; lr 3e-5, the
#           average from step 20, 5 minutes) from chain-6s with every problem's texts repeating a phrase
#           (--repeated_fraction 1.0; rgrpo). Supervised rows with planted repeats taught the repeat and cost the
#           texts as drawn (batch 36); GRPO learns from the adapter's own answers, so where it already keeps its
#           place a group has no reward variance and no gradient, and what it learns is the repeat alone. On CPU
#           chain-6s scores 0.979 at 50 words as drawn and 0.642 with a phrase repeated
#           (results/grpo/repeat-stress/): the groups have variance.
#   item 2 / issue 18, stage 6's lineage (new, read from the batches' records in session 31): every stage 6 trained
#           from n5-eq12 (stage 5 of before: 12 minutes of sft-stage-5-help-long, 4-400 words at lr 5e-4) scores
#           0.926-0.936 at 500 words on validation and 0.66-0.70 out of register (idf-more, the shipped adapter, and
#           its continuations idf-again and idf-long); every one from the long-text stage 5 (n5-lt, h5-steps), by the
#           same stage-6 recipe, 0.857-0.908 and 0.51-0.60 (s6-lt, s6-ctl, s6-long, s6-ema*, the chains of batches 34
#           and 36, ctl-tail). n5-eq12 and n5-lt both came from n4-eq3: the stage-5 recipe alone differs. Stage 5 was
#           switched in batch 30 on stage 5's own score (0.940 against 0.912 at 200 words). Here, stage 6's first part
#           from n5-eq12 again (s6a-eq12, a second draw of the shipped adapter's n6-long), brought back as trained for
#           batch 38's identifier part; and the long-text lineage's first part (batch 31's s6-lt-a, never scored)
#           scored where n6-long was (0.886 on validation, 0.492 out of register at 500 words), to see whether the
#           lineages part before the identifier part or in it.
#   item 1 (parts kept, in neither plan: their lanes went to the lineage): i1-p256's recipe with a phrase repeated in
#           30% of its train problems (i1-rep).
#
# Starts, carried (each rides a call of its own or shares one, see Calls; at most 64 MiB a call). Rebuilt into .carry/
# by `.venv/bin/python scripts/gpu/carry_starts.py scripts/gpu/grpo_sweep_37.sh` from these lines:
# CARRY chain-stage-6s ab1ae84:adapters/batch-35/chain-stage-6s
# CARRY chain-stage-6s-fp32 ab1ae84:adapters/batch-35/chain-stage-6s-fp32
# CARRY ctl-tail 82e6509:adapters/batch-36/ctl-tail
# CARRY n5-eq12 1cef8a7:adapters/batch-26/n5-eq12
# CARRY s6-lt-a 198b87e:adapters/batch-31/s6-lt-a
# what they are: the chain's stage 6 of batch 35 in bf16 and as trained; batch 36's constant tail (bf16, as it came
# back); stage 5 of before (bf16, batch 26); the long-text lineage's first part of stage 6 (bf16, batch 31).
# Bundles: `bash scripts/gpu/pack.sh` with results/ moved out of the tree (4 bundles: .gpu/1-3 the model, .gpu/4 the
# wheels and the corpus).
# Calls: results/ moved out of the tree (mv results /work/results-hidden; back before any commit) but for the slip
# probe (mkdir -p results/grpo/slip-probe && cp /work/results-hidden/grpo/slip-probe/
# batch-32-chain-stage-1-test.json results/grpo/slip-probe/); .gpu/1, .gpu/2, .gpu/3 alone, each
# `source scripts/gpu/setup.sh`; .gpu/4 with .carry/n5-eq12: the start_lanes command below; then
# .carry/chain-stage-6s-fp32 alone with `WAIT=20 PART=wait bash THIS`; then .carry/ctl-tail and .carry/chain-stage-6s
# with `WAIT=20 PART=wait bash THIS`; then .carry/s6-lt-a with `WAIT=540 PART=wait bash THIS`; then
# `WAIT=540 PART=wait bash THIS` calls back to back, the last sized to the budget. Sizes with the tree (~21 MB):
# .gpu/4 14 MB + n5-eq12 20 MB; chain-stage-6s-fp32 39 MB; ctl-tail + chain-stage-6s 40 MB; s6-lt-a 20 MB.
# Results come back as results.tar.gz.part-* (setup.sh's results_back), which collect_batch.py joins.
#
# Parts (start_lanes gives each lane its GPU). Scores greedy; OORV = out_of_register_validation:
# PART=cos-tail-s2      sft-stage-6-help-identifiers from chain-stage-6s-fp32 for 300 steps at --problem_seed 2 with
#                       --lr_scheduler_type cosine (from the recipe's 1e-4 after its 10 warm-up steps to zero at step
#                       300); cos-tail-s3 the same at seed 3; ctl-tail-s3 at seed 3 at the recipe's constant rate
#                       (batch 36's ctl-tail is seed 2's). Adapters back in bf16.
# PART=X-score          (X a tail or rgrpo): stage 6 on validation problems 0-511 (scores/X-512-validation), stage 5
#                       on validation (256), stage 6 on OORV (256). c6s-512-score and ctl-tail-512-score: the carried
#                       bf16 adapters on stage 6's 512 alone (batch 36 scored the rest).
# PART=rgrpo            stage-3.yaml's GRPO polish (setup.sh's polish: no help, lr 3e-5, the average from step 20, 5
#                       minutes) from chain-stage-6s-fp32 with --repeated_fraction 1.0, promotion checks off
#                       (--promotion_every 100000); its average back in bf16.
# PART=X-stress-score   (X rgrpo or c6s) the stress test (scripts/analysis/repeat_stress.py: 128 validation problems
#                       as drawn and with a phrase repeated) at 50 words (stage 3) and at 200 words (stage 5), with
#                       the answers kept.
# PART=s6a-eq12         sft-stage-6-help-long-texts as committed (1,500 steps) from n5-eq12 (carried); its adapter
#                       back in bf16 and as trained (adapter-s6a-eq12-fp32, batch 38's start). s6a-eq12-score and
#                       s6lta-score (s6-lt-a, carried): stage 6 on validation, out_of_register and OORV (256 each).
# PART=start            a fresh format start (sft-format-start.yaml as committed) into $LAB/runs/sft-start.
# PART=i1-rep           stage-1.yaml from it with --cut_word_credit true --promotion_problems 256 --seed 2
#                       --repeated_fraction 0.3 (CLOCK=10 guards). i1-rep-score: average and last weights on
#                       validation; i1-rep-report: the average on test and OOR (answers kept).
# Rules, written before the run:
#   item 2, stage 6's end point: sft-stage-6-help-identifiers takes `lr_scheduler_type: cosine` (its 613 steps
#     annealed to zero) if, at seeds 2 and 3 both, the annealed tail scores above the constant tail of its seed at
#     500 words on validation problems 0-511 (paired), and the two differences average +0.02 or more; the next batch
#     then runs the chain's stage 6 with it (no added minutes). Reported either way: the five end points at 500 words
#     (chain-6s, three constant tails, two annealed), stage 5 beside them, OORV at 500.
#   issue 18 / item 3, rgrpo: stage 6 takes a last GRPO part on repeated 50-word problems (its 5 minutes) if rgrpo
#     beats chain-6s by 0.03 or more at 500 words on OORV (paired; the interval's low end above 0) and scores no more
#     than 0.01 below it at 500 words on validation (512 problems). Reported: both stress tests (repeated minus as
#     drawn, rgrpo against chain-6s: its 200-word test is batch 36's, its 50-word one results/grpo/repeat-stress/'s
#     on CPU; c6s-stress-score scores both on the GPU where a lane is free), the share of GRPO groups with no reward
#     variance, stage 5.
#   stage 6's lineage: no rule decides here (the first part is half of stage 6). Reported: s6a-eq12 against n6-long
#     (the same recipe from the same start, batch 28) and against s6-lt-a (the same recipe from n5-lt) at 500 words on
#     validation and out of register. Batch 38 runs the identifier part from s6a-eq12 and judges the lineage there.
#   item 1 (when run): stage-1.yaml takes cut_word_credit, promotion_problems 256 and repeated_fraction 0.3 if
#     i1-rep's average scores 0.993 or more on validation; item 1 is met if it then scores 0.99 and 90% exact on test within 10 minutes
#     of GRPO. Reported: its minutes, first slips by kind (first_slip_kinds.py) against i1-p256's and i1-dblc's.
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first). Paces from batch 36 on four H200s: a 300-step tail 4.5
#   minutes; a score of stages 5-6 on one split ~2.5, of stage 6 on 512 problems ~4; a stage-1 run of 310 steps 7.9
#   with its start (~0.6); the stress test at 200 words ~2.
#   4 GPUs: "s6a-eq12 s6a-eq12-score"
#           "rgrpo rgrpo-score rgrpo-stress-score s6lta-score"
#           "cos-tail-s2 cos-tail-s2-score cos-tail-s3 cos-tail-s3-score"
#           "ctl-tail-s3 ctl-tail-s3-score c6s-512-score ctl-tail-512-score"
#           (~20, ~19, ~22, ~19 minutes; s6a-eq12 starts with .gpu/4's call, the tails and rgrpo when
#           chain-stage-6s-fp32 comes a call later, the 512-problem scores of the carried adapters two calls later,
#           s6lta-score three)
#   2 GPUs: "s6a-eq12 s6a-eq12-score"
#           "rgrpo rgrpo-score rgrpo-stress-score s6lta-score" (~20, ~19); the end-point test (three tails and two
#           512-problem scores, ~41 GPU minutes) needs a lease of its own: it leads the batch after.
# After the calls, here: .venv/bin/python scripts/gpu/collect_batch.py 37 /work/.device/N ... (each call's folder,
# oldest first) --note "...", then the paired comparisons of the rules (scripts/paired_scores.py), and ablation.py.
source scripts/gpu/setup.sh
sweep_ready  # the carried starts kept, the set-up checked
C6S=$LAB/carry/chain-stage-6s            # batch 35's chain stage 6 (bf16, as it would ship)
C6S_FP32=$LAB/carry/chain-stage-6s-fp32  # the same, float32 as trained: the tails and rgrpo start from it
CTL_TAIL=$LAB/carry/ctl-tail             # batch 36's constant tail at seed 2 (bf16)
# tail_part NAME SEED FLAGS...: 300 steps of stage 6's identifier part from chain-6s as trained, at problem seed SEED
tail_part() {
  local name=$1 seed=$2; shift 2
  wait_for $C6S_FP32/adapter_model.safetensors || return 1
  help_alone $name sft-stage-6-help-identifiers $C6S_FP32 8 --max_steps 300 --problem_seed $seed "$@"
}
# stage6_scores NAME ADAPTER: stage 6 on validation problems 0-511, stage 5 on validation, stage 6 on OORV
stage6_scores() {
  wait_for $2/adapter_model.safetensors || return 1
  score $1-512 $2 validation 6 --n 512
  score $1 $2 validation 5
  score $1 $2 out_of_register_validation 6
}
# both_stress NAME ADAPTER: the stress test at 50 and at 200 words
both_stress() {
  wait_for $2/adapter_model.safetensors || return 1
  stress_score $1 $2 50 3 && stress_score $1 $2 200 5
}
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_37.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  cos-tail-s2) tail_part cos-tail-s2 2 --lr_scheduler_type cosine ;;
  cos-tail-s3) tail_part cos-tail-s3 3 --lr_scheduler_type cosine ;;
  ctl-tail-s3) tail_part ctl-tail-s3 3 ;;
  cos-tail-s2-score | cos-tail-s3-score | ctl-tail-s3-score | rgrpo-score)
    stage6_scores ${PART%-score} $LAB/runs/${PART%-score}/final ;;
  ctl-tail-512-score) wait_for $CTL_TAIL/adapter_model.safetensors && score ctl-tail-512 $CTL_TAIL validation 6 --n 512 ;;
  c6s-512-score) wait_for $C6S/adapter_model.safetensors && score chain-stage-6s-512 $C6S validation 6 --n 512 ;;
  s6a-eq12) wait_for $LAB/carry/n5-eq12/adapter_model.safetensors || exit 1
    help_alone s6a-eq12 sft-stage-6-help-long-texts $LAB/carry/n5-eq12 14 --max_steps 1500
    pack_out adapter-s6a-eq12-fp32 runs/s6a-eq12/final/adapter_config.json runs/s6a-eq12/final/adapter_model.safetensors ;;
  s6a-eq12-score | s6lta-score)
    if [ $PART = s6lta-score ]; then name=s6-lt-a adapter=$LAB/carry/s6-lt-a; else name=s6a-eq12 adapter=$LAB/runs/s6a-eq12/final; fi
    wait_for $adapter/adapter_model.safetensors || exit 1
    for split in validation out_of_register out_of_register_validation; do score $name $adapter $split 6; done ;;
  rgrpo) wait_for $C6S_FP32/adapter_model.safetensors || exit 1
    polish rgrpo 3 $C6S_FP32 --repeated_fraction 1.0 --promotion_every 100000 ;;
  rgrpo-stress-score) both_stress rgrpo $LAB/runs/rgrpo/final ;;
  c6s-stress-score) both_stress chain-stage-6s $C6S ;;
  start) format_start ;;
  i1-rep) wait_for $LAB/runs/sft-start/final/adapter_model.safetensors || exit 1
    CLOCK=10 stage1 i1-rep --cut_word_credit true --promotion_problems 256 --seed 2 --repeated_fraction 0.3 ;;
  i1-rep-score) score_both i1-rep ;;
  i1-rep-report) report_stage1 i1-rep ;;
esac
[ -z "$BG" ] && results_back  # results.tar.gz.part-* (collect_batch.py joins them)
