#!/usr/bin/env bash
# GPU batch 39 of issues 17 and 18 (written 2026-11-27, session 33, after batch 38 and before this batch ran).
# Batch 38 (results/grpo/batch-38/README.md; two H200s, its 2-GPU plan): stage 5's long-text help from the chain's
# stage 4 (h4-steps) at lr 5e-4 (l5-5e4) against the committed 1e-4 (l5-1e4), the same 759 steps and draw, each
# carried through stage 6's first part (1,500 steps): +0.126 at 500 words on validation (0.904 against 0.778; paired
# +0.089 .. +0.162), +0.102 on OORV (0.498 against 0.396), stage 5 itself 0.935 against 0.914 at 200 words. Its rule
# adopted lr 5e-4 into sft-stage-5-help-long-texts (same steps: the chain's minutes do not change). l5-w4 (4-400
# words), s6b-eq12 and rgrpo-w did not run (two GPUs).
#   item 2, the chain's stage 6 by the recipes of now: `make curriculum UNTIL=stage-6` from l5-5e4 as trained (the
#           chain's stage 5 by the recipe as it now stands: h4-steps + sft-stage-5-help-long-texts at 5e-4), chain-6t,
#           scored on test at stages 1-6, and at stage 6 on validation, OOR and OORV. Its adapter comes back first
#           (bf16, then float32), before its scores: batch 35's chain-6s came back unscored when its lane ran out.
#           l5-5e4 (the chain's stage 5) is scored on test, stages 1-5, beside s6a-5e4's training.
#   item 2, stage 6's first part at lr 5e-4 (s6a-5e4): batch 38 found stage 5's rate, not its text lengths, behind
#           the lineage gap (l5-5e4's first part matched n5-eq12's), and the helps at 1e-4 hardly move the LoRA
#           update (results/grpo/stage6-lineage-norms.md). Stage 6's long-text help has only ever run at 1e-4 (its
#           4-500-word help before it ran at 5e-4 on other lengths, batch 27). s6a-5e4 is sft-stage-6-help-long-texts
#           as committed (1,500 steps) from l5-5e4 at --learning_rate 5e-4, against batch 38's l5-5e4-s6a (1e-4).
#   item 2, batch 38's gain on a second draw (4 GPUs): one run and one draw gave +0.126. l5-5e4-s2 is the same arm at
#           --seed 1 --problem_seed 1 (another problem draw and LoRA init order), through stage 6's first part and
#           scored the same way, against its control l5-1e4-s2 at the same seeds. (A first part repeated from the
#           same start read -0.002 on validation in batch 37, so the two-GPU plan gives its lane to s6a-5e4.)
#   Not here: l5-w4 (batch 38's 4-400 words at 5e-4: l5-5e4 already matches the 12-minute help of those lengths),
#   s6b-eq12 (no rule; a lineage reading) and rgrpo-w (its start, chain-6s, is no longer the chain's stage 6: if
#   chain-6t stands, batch 40 runs it from chain-6t).
#
# Starts, carried. Rebuilt into .carry/ by `.venv/bin/python scripts/gpu/carry_starts.py scripts/gpu/grpo_sweep_39.sh`:
# CARRY l5-5e4-fp32 dcb479f:adapters/batch-38/l5-5e4-fp32
# CARRY h4-steps c7e47e8:adapters/batch-34/h4-steps
# what they are: batch 38's stage 5 at lr 5e-4 from h4-steps (float32, as trained: the chain continues it as
# trained); the chain's stage 4 (batch 34, bf16 as it came back; batch 38's arms started from it).
# Bundles: move results/ AND adapters/shipped/ out of the tree first (mv results /work/results-hidden; mv
# adapters/shipped /work/shipped-hidden; both back before any commit: nothing on the machine reads them), then
# `bash scripts/gpu/pack.sh`. With a tree of ~2.5 MB the model fits two bundles (.gpu/1, .gpu/2) and .gpu/3 holds the
# wheels and the corpus (~14 MB), which leaves room for l5-5e4-fp32 (39 MB) in .gpu/3's own call, so chain-6t starts
# with the lanes, not a call later (measured in session 33: .gpu/1 and .gpu/2 47 MB each, .gpu/3 14 MB; the .gpu/3
# call with .carry/l5-5e4-fp32 55.9 MB of 67.1 by scripts/gpu/call_size.py .gpu/3 .carry/l5-5e4-fp32).
# Calls: .gpu/1, .gpu/2 alone, each `source scripts/gpu/setup.sh`; .gpu/3 with .carry/l5-5e4-fp32: the start_lanes
# command below; then (4 GPUs only: the 2-GPU plan does not need it) .carry/h4-steps alone with `WAIT=20 PART=wait
# bash THIS`; then `WAIT=540 PART=wait bash THIS` calls back to back. The lease is tight for chain-6t: its training
# should end ~23 minutes after the lanes start (batch 38's pace: the lanes started ~150 s into the lease), ~1,550 s of
# the 1,800, and its scores need ~3 minutes more. So size the third wait call to end near 1,570 s held (it brings
# chain-stage-6t's bf16 adapter, queued when training ends), then one last call to ~20 s before the budget for the
# scores, then short `WAIT=20` calls, if time is left, for the float32 copy (39 MB: 3 parts).
# Results come back as results.tar.gz.part-* (setup.sh's results_back), which collect_batch.py joins.
#
# Parts (start_lanes gives each lane its GPU). Scores greedy on 256 problems; OORV = out_of_register_validation,
# OOR = out_of_register (its test split):
# PART=chain-6t         chain_stage_6 from l5-5e4-fp32 (carried): stage-6.yaml as committed (its two helps, 1,500 +
#                       613 steps); the adapter back in bf16 (chain-stage-6t) and as trained (chain-stage-6t-fp32)
#                       as soon as it exists.
# PART=chain-6t-test-score    chain-6t on test, stages 1-6 (answers kept: --completions, for after_slip.py).
# PART=chain-6t-val-score     chain-6t at stage 6 on validation, OORV and OOR (OOR's answers kept), all at once.
# PART=s6a-5e4          sft-stage-6-help-long-texts as committed (1,500 steps) from l5-5e4-fp32 at --learning_rate
#                       5e-4, its step-750 checkpoint kept; beside it on the same GPU, l5-5e4-fp32 on test, stages 1-5.
# PART=s6a-5e4-score    s6a-5e4 on validation at stages 5-6 and on OORV at stage 6, and its step-750 checkpoint at
#                       stage 6 on validation (scores/s6a-5e4-750-validation), at once.
# PART=l5-5e4-s2        sft-stage-5-help-long-texts as committed now (lr 5e-4, 759 steps) from h4-steps with --seed 1
#                       --problem_seed 1.
# PART=l5-1e4-s2        the same at --learning_rate 1e-4 (the recipe before batch 38), --seed 1 --problem_seed 1.
# PART=X-s6a            (X one of l5-5e4-s2, l5-1e4-s2) stage 6's first part from X as trained, X scored at stage 5
#                       on validation beside it (as batch 38's).
# PART=X-s6a-score      X-s6a at stage 6 on validation and OORV, at once.
# Rules, written before the run:
#   item 2, chain-6t: it is the chain's stage 6 by the recipes of now. It replaces the shipped adapter
#     (adapters/shipped, idf-more: 0.900 on test at 500 words, from n5-eq12 at a 12-minute stage 5) if every stage 1-6
#     meets its goal on test (0.99 / 0.98 / 0.97 / 0.95 / 0.93 / 0.90), and then the README's chain table becomes
#     chain-6t's. Reported either way: chain-6t against chain-6s (batch 36's scores: 0.836 test, 0.522 OORV) and
#     against the shipped adapter, paired, on test, OOR and validation; l5-5e4 on test at stages 1-5 (the chain's
#     stage 5: goal 0.93 at 200 words, no earlier stage more than 0.02 below h4-steps' test scores). If the lease ends
#     before chain-6t's scores (its adapter comes back first), batch 40 scores the adapter that came back, first.
#   item 2, stage 6's first part at 5e-4: sft-stage-6-help-long-texts takes --learning_rate 5e-4 if s6a-5e4 beats
#     batch 38's l5-5e4-s6a by 0.03 or more at 500 words on validation (paired, 256, the interval's low end above
#     zero), is no more than 0.02 below it on OORV (paired mean), and no more than 0.02 below l5-5e4 (0.935) at 200
#     words on validation (forgetting). Then batch 40 trains the chain's stage 6 with it (the identifier part's rate
#     unchanged). Reported either way, with the derailed answers (its adapter stays on the machine), and the step-750
#     checkpoint against l5-5e4-s6a: if 5e-4 reaches in 750 steps what 1e-4 did in 1,500, stage 6's first part can
#     be halved (~6 minutes: the chain is at 61-64 of its 60), a question for batch 40's rule, not this one's.
#   item 2, the second draw (4 GPUs): batch 38's adoption stands if l5-5e4-s2-s6a beats l5-1e4-s2-s6a by 0.03 or
#     more at 500 words on validation (paired, 256). If it does not, the lr is unsettled: reported, and batch 40 pairs
#     a third seed before stage 6 builds on it further. Reported: the two draws' gains side by side, OORV, and the
#     stage-5 scores at 200 words.
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first). Paces from batch 38 on two H200s: stage 6's first part
#   12.4 minutes of training; a 759-step stage-5 help 5.4; from batch 35, the chain's stage 6 24.4 minutes with its
#   loading (13.4 + 8.3 of training on four loaded H200s); a stage-6 score on 256 problems ~1.7 (three at once ~3).
#   4 GPUs: "chain-6t chain-6t-test-score"
#           "s6a-5e4 s6a-5e4-score chain-6t-val-score"
#           "l5-5e4-s2 l5-5e4-s2-s6a l5-5e4-s2-s6a-score"
#           "l5-1e4-s2 l5-1e4-s2-s6a l5-1e4-s2-s6a-score"
#           (~26-27, ~17 then chain-6t's, ~21, ~21 minutes; chain-6t-val-score waits for chain-6t)
#   2 GPUs: "chain-6t chain-6t-test-score"
#           "s6a-5e4 s6a-5e4-score chain-6t-val-score"
# The .gpu/3 call's command (2 GPUs; for 4, the four lanes above):
#   source scripts/gpu/setup.sh; ready && export BACK_RAW=0 && start_lanes scripts/gpu/grpo_sweep_39.sh
#   "chain-6t chain-6t-test-score" "s6a-5e4 s6a-5e4-score chain-6t-val-score"; sleep 20;
#   WAIT=10 PART=wait bash scripts/gpu/grpo_sweep_39.sh
# After the calls, here: .venv/bin/python scripts/gpu/collect_batch.py 39 /work/.device/N ... (each call's folder,
# oldest first) --note "...", then the paired comparisons of the rules (scripts/paired_scores.py), and ablation.py.
source scripts/gpu/setup.sh
sweep_ready  # the carried starts kept, the set-up checked
L5=$LAB/carry/l5-5e4-fp32               # batch 38's stage 5 at lr 5e-4 (float32, as trained)
H4=$LAB/carry/h4-steps                  # the chain's stage 4 (batch 34, bf16)
S6=$CHAIN/stage-6/final                 # chain-6t, once chain_stage_6 has trained it
# (its stage5_arm and at_once moved into setup.sh in session 34, when batch 40 needed them too)
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_39.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  chain-6t) wait_for $L5/adapter_model.safetensors || exit 1
    chain_stage_6 chain-6t $L5
    back chain-stage-6t $S6
    mkdir -p $LAB/out/chain-stage-6t-fp32 && cp $S6/adapter_config.json $S6/adapter_model.safetensors \
      $LAB/out/chain-stage-6t-fp32/ && pack_out adapter-chain-stage-6t-fp32 out/chain-stage-6t-fp32 ;;
  chain-6t-test-score) wait_for $S6/adapter_model.safetensors && score chain-stage-6t $S6 test 1-6 --completions ;;
  chain-6t-val-score) at_once chain-stage-6t $S6 validation out_of_register_validation out_of_register:c ;;
  s6a-5e4) wait_for $L5/adapter_model.safetensors || exit 1
    score l5-5e4 $L5 test 1-5 &
    NO_BACK=1 help_alone s6a-5e4 sft-stage-6-help-long-texts $L5 14 --max_steps 1500 --learning_rate 5e-4 \
      --save_steps 750
    wait ;;
  s6a-5e4-score) wait_for $LAB/runs/s6a-5e4/final/adapter_model.safetensors || exit 1
    score s6a-5e4 $LAB/runs/s6a-5e4/final validation 5-6 &
    score s6a-5e4 $LAB/runs/s6a-5e4/final out_of_register_validation 6 &
    score s6a-5e4-750 $LAB/runs/s6a-5e4/checkpoint-750 validation 6 &
    wait ;;
  l5-5e4-s2) stage5_arm l5-5e4-s2 $H4 --seed 1 --problem_seed 1 ;;
  l5-1e4-s2) stage5_arm l5-1e4-s2 $H4 --learning_rate 1e-4 --seed 1 --problem_seed 1 ;;
  l5-5e4-s2-s6a | l5-1e4-s2-s6a) first_part ${PART%-s6a} ;;
  l5-5e4-s2-s6a-score | l5-1e4-s2-s6a-score)
    at_once ${PART%-score} $LAB/runs/${PART%-score}/final validation out_of_register_validation ;;
esac
[ -z "$BG" ] && results_back  # results.tar.gz.part-* (collect_batch.py joins them)
