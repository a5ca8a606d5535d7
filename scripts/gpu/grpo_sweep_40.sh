#!/usr/bin/env bash
# GPU batch 40 of issues 17 and 18 (written 2026-11-27, session 34, after batch 39 and before this batch ran).
# Batch 39 (results/grpo/batch-39/README.md; four H200s): the chain's stage 6 by the recipes of now from the 5e-4
# stage 5 (chain-6t) scored 1.000 / 0.960 / 0.930 / 0.915 / 0.911 / 0.783 on test: below chain-6s (the same from the
# 1e-4 stage 5) by 0.04-0.06 at every stage from 25 words on, and its stage 6 cost the earlier stages 0.03-0.06. Its
# first part repeats batch 38's l5-5e4-s6a (0.904 at 500 words on validation, 0.498 OORV), so the fall is most likely
# its identifier part (OORV 0.447 after it). Stage 6's first part at 5e-4 fell apart (0.545). On a second draw the 5e-4
# stage 5 again led after stage 6's first part (+0.195), but its own checkpoint scored 0.765 at 200 words on
# validation (1e-4: 0.928): a constant 5e-4 leaves stage 5 where its last steps put it.
#   item 2, stage 6's identifier part, from one first part: s6a is stage 6's first part as committed from l5-5e4 (a
#           repeat of batch 38's l5-5e4-s6a, kept this time and brought back), scored on validation at stages 1-6
#           and on OORV. From s6a: idk, the identifier part as committed (constant 1e-4, 613 steps: what the chain
#           runs), and idc, the same annealed to zero (--lr_scheduler_type cosine; batch 37's annealed tails ended
#           0.882-0.884 at two seeds where constant ones ended 0.837-0.889). Three endpoints of one first part: left
#           alone, constant, annealed. chain-6t (carried) is scored on validation at stages 1-6 and on OOR while the
#           first part trains, so that it reads beside them.
#   item 2, stage 5 annealed on the draw where the constant rate failed: l5-cos-s2 is sft-stage-5-help-long-texts as
#           committed (lr 5e-4, 759 steps) with --lr_scheduler_type cosine from h4-steps at --seed 1 --problem_seed 1
#           (batch 39's second draw), scored on validation at stages 1-5 and carried through stage 6's first part.
#           The 12-minute help of the n5-eq12 lineage (the shipped adapter's) ran at 5e-4 with a cosine cut by its
#           clock.
#   Not here: the numeric register weighted in stage 6's first part (batch 38's candidate: after this), rgrpo-w (its
#   start would be the chain's stage 6, which this batch is still choosing), item 1's i1-rep.
#
# Starts, carried. Rebuilt into .carry/ by `.venv/bin/python scripts/gpu/carry_starts.py scripts/gpu/grpo_sweep_40.sh`:
# CARRY l5-5e4-fp32 dcb479f:adapters/batch-38/l5-5e4-fp32
# CARRY h4-steps c7e47e8:adapters/batch-34/h4-steps
# CARRY chain-stage-6t 5fac889:adapters/batch-39/chain-stage-6t
# what they are: batch 38's stage 5 at lr 5e-4 from h4-steps (float32, as trained); the chain's stage 4 (batch 34,
# bf16); batch 39's chain stage 6 (bf16, as it came back).
# Bundles: as batch 39's: move results/ AND adapters/shipped/ out of the tree first (mv results /work/results-hidden;
# mv adapters/shipped /work/shipped-hidden; both back before any commit), then `bash scripts/gpu/pack.sh`: .gpu/1 and
# .gpu/2 hold the model, .gpu/3 the wheels and corpus (14 MB), with room for l5-5e4-fp32 (39 MB) in its call.
# Calls: .gpu/1, .gpu/2 alone, each `source scripts/gpu/setup.sh`; .gpu/3 with .carry/l5-5e4-fp32: the start_lanes
# command below; .carry/h4-steps and .carry/chain-stage-6t together (39 MB) with `WAIT=20 PART=wait bash THIS`; then
# `WAIT=540 PART=wait bash THIS` calls back to back, the third sized to end near 1,650 s held, and one last to ~20 s
# before the budget. Paces from batch 39 (four H200s): stage 6's first part 11.9-12.1 minutes of training, its
# identifier part 8.6, a 759-step stage-5 help 5.4, test at stages 1-6 in one process ~4 minutes, three stage-6
# scores at once ~3. The identifier arms end ~26 minutes after the lanes start (~100 s into the lease): ~1,650 s.
# Results come back as results.tar.gz.part-* (setup.sh's results_back), which collect_batch.py joins; s6a, idk and idc
# come back in bf16 (one file each) when trained.
#
# Parts (start_lanes gives each lane its GPU). Scores greedy on 256 problems; OORV = out_of_register_validation,
# OOR = out_of_register (its test split):
# PART=s6a              sft-stage-6-help-long-texts as committed (1,500 steps) from l5-5e4-fp32 into runs/s6a, back in
#                       bf16; beside it on the same GPU, l5-5e4-fp32 on validation at stages 1-4 (stage 5: batch 38).
# PART=s6a-score        s6a on validation at stages 1-6 and on OORV, at once.
# PART=s6a-test-score   s6a on test at stages 1-6 and on OOR (answers kept), at once: reported only (validation
#                       chooses), and read for shipping if the rules below adopt s6a alone.
# PART=c6t-score        chain-stage-6t (carried) on validation at stages 1-6.
# PART=c6t-oor-score    chain-stage-6t at stage 6 on OOR (answers kept).
# PART=idk              sft-stage-6-help-identifiers as committed (613 steps, constant 1e-4) from s6a, back in bf16.
# PART=idc              the same with --lr_scheduler_type cosine (annealed to zero over its 613 steps), back in bf16.
# PART=X-score          (X idk or idc) X at stage 6 on validation and OORV, at once.
# PART=s6a-idk-score    (the 1-GPU plan) s6a and idk at stage 6 on validation and OORV, the four at once.
# PART=l5-cos-s2        sft-stage-5-help-long-texts as committed (5e-4, 759 steps) with --lr_scheduler_type cosine from
#                       h4-steps, --seed 1 --problem_seed 1.
# PART=l5-cos-s2-s6a    stage 6's first part from l5-cos-s2 as trained, l5-cos-s2 on validation at stages 1-5 beside it.
# PART=l5-cos-s2-s6a-score    l5-cos-s2-s6a at stage 6 on validation and OORV, at once.
# Rules, written before the run (paired differences on the same 256 problems, scripts/paired_scores.py):
#   item 2, stage 6's identifier part: the committed part (idk) keeps its place in stage-6.yaml unless
#     - s6a (the first part alone) is no more than 0.01 below idk at 500 words on validation and no more than 0.02
#       below it on OORV: then stage-6.yaml drops the identifier part (supervised_help: the long-text part alone), and
#       the chain saves its ~9 minutes (it stands at 61-64 of its 60). A tie goes to the cheaper recipe; or
#     - idc beats idk by 0.03 or more at 500 words on validation (the interval's low end above zero) and is no more
#       than 0.02 below it on OORV: then sft-stage-6-help-identifiers takes lr_scheduler_type cosine.
#     If both qualify, s6a alone unless idc beats it by more than 0.01. Either change also needs s6a's validation
#     scores at stages 1-5 no more than 0.02 below l5-5e4's (stages 1-4 scored here, stage 5 0.935 in batch 38):
#     the forgetting chain-6t showed on test. Reported either way: the three endpoints against chain-6t on
#     validation, and chain-6t on validation and OOR against chain-6s (batch 36: 0.857, 0.562 at 500 words).
#   item 2, shipping: if the rule above adopts s6a alone and s6a meets every stage's goal on validation (0.99 / 0.98
#     / 0.97 / 0.95 / 0.93 / 0.90), its test scores (s6a-test-score) are read: it replaces the shipped adapter (its
#     bf16 copy, back from this batch) if it meets every goal on test; the chain table then becomes its chain's.
#   item 2, stage 5 annealed: sft-stage-5-help-long-texts takes lr_scheduler_type cosine if l5-cos-s2 scores 0.92 or
#     more at 200 words on validation (draw 2: 0.765 for the constant 5e-4, 0.928 for 1e-4), its stages 1-4 on
#     validation are no more than 0.02 below h4-steps' (batch 34: 1.000 / 0.980 / 0.974 / 0.968), and its first part
#     is no more than 0.02 below l5-5e4-s2-s6a's 0.847 at 500 words on validation. Batch 41 then repeats it on draw 1
#     (seed 0) against l5-5e4 (0.935 at 200 words; 0.904 after the first part). Reported either way, with OORV.
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first):
#   4 GPUs: "s6a s6a-score s6a-test-score"
#           "c6t-score idk idk-score"
#           "c6t-oor-score idc idc-score"
#           "l5-cos-s2 l5-cos-s2-s6a l5-cos-s2-s6a-score"
#           (~22, ~26, ~26, ~22 minutes; idk and idc wait for s6a's first part)
#   2 GPUs: "s6a s6a-score s6a-test-score" "c6t-score idk idk-score" (the identifier rule between s6a alone and idk)
#   1 GPU:  "s6a idk s6a-idk-score" (~26 minutes: the same rule at 500 words only; s6a's stages 1-5 in batch 41)
# The .gpu/3 call's command (4 GPUs):
#   source scripts/gpu/setup.sh; ready && export BACK_RAW=0 && start_lanes scripts/gpu/grpo_sweep_40.sh
#   "s6a s6a-score s6a-test-score" "c6t-score idk idk-score" "c6t-oor-score idc idc-score"
#   "l5-cos-s2 l5-cos-s2-s6a l5-cos-s2-s6a-score"; sleep 20;
#   WAIT=10 PART=wait bash scripts/gpu/grpo_sweep_40.sh
# After the calls, here: .venv/bin/python scripts/gpu/collect_batch.py 40 /work/.device/N ... (each call's folder,
# oldest first) --note "...", then the paired comparisons of the rules (scripts/paired_scores.py), and ablation.py.
source scripts/gpu/setup.sh
sweep_ready  # the carried starts kept, the set-up checked
L5=$LAB/carry/l5-5e4-fp32               # batch 38's stage 5 at lr 5e-4 (float32, as trained)
H4=$LAB/carry/h4-steps                  # the chain's stage 4 (batch 34, bf16)
C6T=$LAB/carry/chain-stage-6t           # batch 39's chain stage 6 (bf16)
S6A=$LAB/runs/s6a/final                 # stage 6's first part from l5-5e4, once s6a has trained it
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_40.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  s6a) wait_for $L5/adapter_model.safetensors || exit 1
    score l5-5e4 $L5 validation 1-4 &
    help_alone s6a sft-stage-6-help-long-texts $L5 14 --max_steps 1500
    wait ;;
  s6a-score) wait_for $S6A/adapter_model.safetensors || exit 1
    score s6a $S6A validation 1-6 &
    score s6a $S6A out_of_register_validation 6 &
    wait ;;
  s6a-test-score) wait_for $S6A/adapter_model.safetensors || exit 1
    score s6a $S6A test 1-6 --completions &
    score s6a $S6A out_of_register 6 --completions &
    wait ;;
  c6t-score) wait_for $C6T/adapter_model.safetensors && score chain-stage-6t $C6T validation 1-6 ;;
  c6t-oor-score) at_once chain-stage-6t $C6T out_of_register:c ;;
  idk) wait_for $S6A/adapter_model.safetensors && help_alone idk sft-stage-6-help-identifiers $S6A 10 --max_steps 613 ;;
  idc) wait_for $S6A/adapter_model.safetensors &&
    help_alone idc sft-stage-6-help-identifiers $S6A 10 --max_steps 613 --lr_scheduler_type cosine ;;
  s6a-idk-score) wait_for $LAB/runs/idk/final/adapter_model.safetensors || exit 1
    at_once s6a $S6A validation out_of_register_validation &
    at_once idk $LAB/runs/idk/final validation out_of_register_validation &
    wait ;;
  idk-score | idc-score) at_once ${PART%-score} $LAB/runs/${PART%-score}/final validation out_of_register_validation ;;
  l5-cos-s2) stage5_arm l5-cos-s2 $H4 --lr_scheduler_type cosine --seed 1 --problem_seed 1 ;;
  l5-cos-s2-s6a) first_part l5-cos-s2 1-5 ;;
  l5-cos-s2-s6a-score) at_once l5-cos-s2-s6a $LAB/runs/l5-cos-s2-s6a/final validation out_of_register_validation ;;
esac
[ -z "$BG" ] && results_back  # results.tar.gz.part-* (collect_batch.py joins them)
