#!/usr/bin/env bash
# GPU batch 41 of issues 17 and 18 (written 2026-11-27, session 35, after batch 40 and before this batch ran).
# Batch 40 (results/grpo/batch-40/README.md; four H200s): from one first part s6a (stage 6's long-text part from
# l5-5e4), the identifier part as committed (idk, constant 1e-4) scored 0.914 at 500 words on validation, annealed
# (idc, cosine to zero) 0.934 (+0.020, -0.004 .. +0.045; OORV +0.060), and left out 0.899 (-0.014; OORV -0.055):
# neither rule adopted a change. But chain-6t (batch 39) is the same two parts from the same start and draws, its
# logged losses matching step for step, and it scored 0.821 (-0.093 against idk, interval below zero), with 25-200
# words 0.025-0.074 below s6a. The identifier part's end point at its constant rate is a draw: from one start its
# two runs end at 0.821 and 0.914. One run of each arm cannot choose between them, and one run of the chain cannot tell a recipe from its
# luck. Stage 5 annealed (l5-cos-s2) fixed stage 5's own checkpoint (0.941 at 200 words) but its first part scored
# -0.046: not adopted, and not repeated here.
#   item 2, the identifier part's spread, constant against annealed: from s6a (batch 40's, carried in bf16), idk and
#           idc again at --seed 1 and --seed 2 (the order the length-grouped sampler shuffles the rows in; the
#           problems stay the recipe's, problem seed 1). With batch 40's seed 0, three draws of each, paired by seed.
#           Batch 40's idc (carried, bf16) is scored on validation at stages 1-5 (its forgetting, which batch 40 did
#           not score) and on test at stages 1-6 and OOR (read for shipping only if the rules adopt it).
#   item 2, the chain's minutes: counted from the runs (results/grpo/chain-minutes.md, session 35), the chain trains
#           56.3 minutes on H200s, ~61 on one H100, and the runner's clock adds ~6: ~67 H100-minutes, over the
#           issue's 60. Stage 6 is its longest stage (1,500 + 613 steps, ~22 H100-minutes). s6a-r repeats the first
#           part from l5-5e4 (a third draw of it), saving a checkpoint every 200 steps; at a constant rate the
#           step-1,000 checkpoint is what a first part of 1,000 steps ends at if its recipe pins problems: 24000 (its
#           draw of now, 1,500 x 16): the length-grouped sampler's order depends on how many rows there are, not on
#           max_steps, as sft-stage-6-help-identifiers.yaml pins its own. From it, the identifier part annealed
#           (c1000-idc: ~4.4 H100-minutes less) and the same in 400 steps, annealed over them (c1000-idc400: ~7.2
#           less; the recipe's pinned draw keeps its rows the first 6,400 of the 613-step run's). Batch 28 read a
#           step-742 checkpoint of the first part at -0.046 against its 1,500 steps, before the identifier part
#           existed.
#   Not here: the numeric register weighted in stage 6's first part, rgrpo-w, item 1's i1-rep, the stage-5 anneal on
#   draw 1 (its rule failed).
#
# Starts, carried. Rebuilt into .carry/ by `.venv/bin/python scripts/gpu/carry_starts.py scripts/gpu/grpo_sweep_41.sh`:
# CARRY l5-5e4-fp32 dcb479f:adapters/batch-38/l5-5e4-fp32
# CARRY s6a a286234:adapters/batch-40/s6a
# CARRY idc a286234:adapters/batch-40/idc
# what they are: batch 38's stage 5 at lr 5e-4 from h4-steps (float32, as trained); batch 40's stage-6 first part
# from it (bf16, as it came back); batch 40's annealed identifier part from that (bf16).
# Bundles: as batch 40's: move results/ AND adapters/shipped/ out of the tree first (mv results /work/results-hidden;
# mv adapters/shipped /work/shipped-hidden; both back before any commit), then `bash scripts/gpu/pack.sh`: .gpu/1 and
# .gpu/2 hold the model, .gpu/3 the wheels and corpus (14 MB), with room for l5-5e4-fp32 (39 MB) in its call.
# Calls: .gpu/1, .gpu/2 alone, each `source scripts/gpu/setup.sh`; .gpu/3 with .carry/l5-5e4-fp32: the start_lanes
# command below; .carry/s6a and .carry/idc together (39 MB) with `WAIT=20 PART=wait bash THIS`; then
# `WAIT=540 PART=wait bash THIS` calls back to back, the third sized to end near 1,650 s held, and one last to ~20 s
# before the budget. Paces from batch 40 (four H200s): stage 6's first part 1,500 steps in 698 s of training, the
# identifier part 613 in ~474 s, stage 6 on validation and OORV at once ~3 minutes, test at stages 1-6 ~4. The lanes
# end ~23-25 minutes after they start (~100 s into the lease): ~1,600 s.
# Results come back as results.tar.gz.part-* (setup.sh's results_back), which collect_batch.py joins; c1000-idc and
# c1000-idc400 come back in bf16 (one file each). The seeds' adapters stay on the machine.
#
# Parts (start_lanes gives each lane its GPU). Scores greedy on 256 problems; OORV = out_of_register_validation,
# OOR = out_of_register (its test split):
# PART=idk-s1, idk-s2   sft-stage-6-help-identifiers as committed (613 steps, constant 1e-4) from s6a at --seed N.
# PART=idc-s1, idc-s2   the same with --lr_scheduler_type cosine (annealed to zero over its 613 steps).
# PART=X-score          (X one of the four above) X at stage 6 on validation and OORV, at once.
# PART=idc40-score      batch 40's idc (carried) on validation at stages 1-5, on test at stages 1-6 and on OOR (answers
#                       kept), at once.
# PART=s6a-r            sft-stage-6-help-long-texts as committed (1,500 steps) from l5-5e4-fp32, --save_steps 200.
# PART=c1000            s6a-r's step-1,000 checkpoint on validation at stages 5-6 and s6a-r's final adapter at 500
#                       words (the first part's third draw), and from the checkpoint the identifier part annealed
#                       (c1000-idc, back in bf16).
# PART=c1000-idc400     from the same checkpoint, the identifier part annealed over 400 steps (back in bf16).
# PART=X-score          (X c1000-idc or c1000-idc400) X on validation at stages 5-6 and on OORV, at once.
# Rules, written before the run (paired differences on the same 256 problems, scripts/paired_scores.py):
#   item 2, the identifier part annealed: sft-stage-6-help-identifiers takes lr_scheduler_type cosine if, over the
#     seeds where both ran (0 from batch 40, 1, 2), the mean of the paired differences idc - idk at 500 words on
#     validation is +0.02 or more, idc's lowest draw is no lower than idk's lowest, and the mean OORV difference is
#     no worse than -0.02; and batch 40's idc at stages 1-5 on validation is no more than 0.02 below s6a's (1.000 /
#     0.984 / 0.986 / 0.988 / 0.971, paired). The issue asks for a constant rate by default: that is GRPO's, which
#     stays constant; the supervised base (bases/sft.yaml) is a cosine already, and this changes one help part.
#     Reported either way: each arm's spread (lowest, highest, mean) at 500 words and on OORV.
#   item 2, shipping: if the rule above adopts the anneal and batch 40's idc meets every goal on validation (0.99 /
#     0.98 / 0.97 / 0.95 / 0.93 / 0.90; 0.934 at 500 words), its test scores (idc40-score) are read: its bf16 copy
#     (a286234:adapters/batch-40/idc) replaces the shipped adapter if it meets every goal on test. Its lineage is
#     the chain's by the recipes that would then stand, trained stage by stage (h4-steps, l5-5e4, s6a, idc), as the
#     shipped adapter's was.
#   item 2, a shorter stage 6 (only if the anneal is adopted; reported either way): stage 6's first part
#     (sft-stage-6-help-long-texts) takes max_steps 1000 and problems 24000 if c1000-idc scores 0.90 or more at 500
#     words on validation, no more than 0.02 below batch 40's idc there (paired) and on OORV, and no more than 0.02
#     below it at 200 words (idc's from idc40-score); if c1000-idc400 meets the same, the identifier part also takes
#     max_steps 400. chain_minutes.py's rows then move to these runs' records.
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first):
#   4 GPUs: "idk-s1 idk-s1-score idk-s2 idk-s2-score"
#           "idc-s1 idc-s1-score idc-s2 idc-s2-score"
#           "s6a-r c1000 c1000-idc-score"
#           "idc40-score c1000-idc400 c1000-idc400-score"
#           (~23, ~23, ~24, ~20 minutes; c1000-idc400 waits for s6a-r's step-1,000 checkpoint, ~9 minutes in)
#   2 GPUs: "idk-s1 idk-s1-score idc-s1 idc-s1-score" "idc40-score idc-s2 idc-s2-score idk-s2 idk-s2-score" (the
#           anneal's rule; the second lane's last part may not finish: the rule then reads the seeds where both ran)
#   1 GPU:  "idk-s1 idk-s1-score idc-s1 idc-s1-score" (~23 minutes: the rule on seeds 0 and 1)
# The .gpu/3 call's command (4 GPUs):
#   source scripts/gpu/setup.sh; ready && export BACK_RAW=0 && start_lanes scripts/gpu/grpo_sweep_41.sh
#   "idk-s1 idk-s1-score idk-s2 idk-s2-score" "idc-s1 idc-s1-score idc-s2 idc-s2-score" "s6a-r c1000 c1000-idc-score"
#   "idc40-score c1000-idc400 c1000-idc400-score"; sleep 20; WAIT=10 PART=wait bash scripts/gpu/grpo_sweep_41.sh
# After the calls, here: .venv/bin/python scripts/gpu/collect_batch.py 41 /work/.device/N ... (each call's folder,
# oldest first) --note "...", then the paired comparisons of the rules (scripts/paired_scores.py; the anneal's rule
# over the three draws: scripts/analysis/seed_draws.py --task stage-6 --names idk idc --draw 0 IDK0 IDC0 --draw 1 ...,
# on validation and on OORV), and ablation.py.
source scripts/gpu/setup.sh
sweep_ready  # the carried starts kept, the set-up checked
L5=$LAB/carry/l5-5e4-fp32               # batch 38's stage 5 at lr 5e-4 (float32, as trained)
S6A=$LAB/carry/s6a                      # batch 40's stage-6 first part from it (bf16)
IDC=$LAB/carry/idc                      # batch 40's annealed identifier part from s6a (bf16)
R=$LAB/runs/s6a-r                       # the first part again, its checkpoints every 200 steps
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_41.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  idk-s1 | idk-s2) wait_for $S6A/adapter_model.safetensors &&
    NO_BACK=1 help_alone $PART sft-stage-6-help-identifiers $S6A 10 --max_steps 613 --seed ${PART#idk-s} ;;
  idc-s1 | idc-s2) wait_for $S6A/adapter_model.safetensors &&
    NO_BACK=1 help_alone $PART sft-stage-6-help-identifiers $S6A 10 --max_steps 613 --seed ${PART#idc-s} \
      --lr_scheduler_type cosine ;;
  idk-s1-score | idk-s2-score | idc-s1-score | idc-s2-score)
    at_once ${PART%-score} $LAB/runs/${PART%-score}/final validation out_of_register_validation ;;
  idc40-score) wait_for $IDC/adapter_model.safetensors || exit 1
    score idc40 $IDC validation 1-5 &
    score idc40 $IDC test 1-6 --completions &
    score idc40 $IDC out_of_register 6 --completions &
    wait ;;
  s6a-r) wait_for $L5/adapter_model.safetensors &&
    NO_BACK=1 help_alone s6a-r sft-stage-6-help-long-texts $L5 14 --max_steps 1500 --save_steps 200 ;;
  c1000) wait_for $R/checkpoint-1000/adapter_model.safetensors || exit 1
    score c1000 $R/checkpoint-1000 validation 5-6 &
    wait_for $R/final/adapter_model.safetensors && score s6a-r $R/final validation 6 &
    help_alone c1000-idc sft-stage-6-help-identifiers $R/checkpoint-1000 10 --max_steps 613 --lr_scheduler_type cosine
    wait ;;
  c1000-idc400) wait_for $R/checkpoint-1000/adapter_model.safetensors &&
    help_alone c1000-idc400 sft-stage-6-help-identifiers $R/checkpoint-1000 10 --max_steps 400 \
      --lr_scheduler_type cosine ;;
  c1000-idc-score | c1000-idc400-score) A=$LAB/runs/${PART%-score}/final
    wait_for $A/adapter_model.safetensors || exit 1
    score ${PART%-score} $A validation 5-6 &
    score ${PART%-score} $A out_of_register_validation 6 &
    wait ;;
esac
[ -z "$BG" ] && results_back  # results.tar.gz.part-* (collect_batch.py joins them)
