# GPU batch 38 of issues 17 and 18 (written 2026-11-27, session 32, after batch 37 and before this batch ran).
# Batch 37 (results/grpo/batch-37/README.md): stage 6's first part (sft-stage-6-help-long-texts, 1,500 steps) from
# n5-eq12 (the stage 5 of before) scored +0.083 at 500 words on validation and +0.085 out of register over the same
# part from n5-lt (the long-text stage 5 the chain uses since batch 30), intervals above zero: the lineages part
# before the identifier part, so stage 5's recipe sets stage 6's score. Every finished stage 6 from n5-eq12 scores
# 0.926-0.936 on validation and 0.900-0.923 on test; from the long-text stage 5, 0.828-0.908 and 0.836-0.893
# (results/grpo/stage6-lineage.md). The chain's stage 6 (chain-6s, 0.836 on test) misses the 0.90 goal.
# The two stage-5 helps differ in four ways: learning rate (sft-stage-5-help-12m: 5e-4; sft-stage-5-help-long-texts:
# 1e-4), text lengths (4-400 words against 25-400), schedule (a cosine cut by a 12-minute clock against a constant
# rate) and steps (~1,930 against 759). The chain is at ~61-64 minutes of its 60, so stage 5 cannot take 12 minutes
# again; this batch keeps the chain's 759 steps and its constant rate, and separates the other two.
#   item 2, stage 5's recipe: sft-stage-5-help-long-texts from the chain's stage 4 (h4-steps, batch 34, bf16) three
#           ways, at the same 759 steps and problem draw: as committed (l5-1e4, the control: lr 1e-4), at lr 5e-4
#           (l5-5e4) and at lr 5e-4 with n5-eq12's text lengths, 4-400 words (l5-w4). Each is scored at stage 5 (200
#           words, validation) and carried on through stage 6's first part (1,500 steps as committed: X-s6a), which
#           is scored at 500 words on validation and on the held-out register's validation split. Stage 6's first
#           part is where batch 37 saw the lineages part (0.801 against 0.884).
#   item 2 / issue 18, the lineage to its end: stage 6's identifier part (sft-stage-6-help-identifiers, 613 steps as
#           committed) from s6a-eq12 (batch 37's first part from n5-eq12, as trained): s6b-eq12, a second draw of
#           the shipped adapter's recipe end to end. If it lands with idf-more (0.934 on validation), stage 5's recipe
#           is what sets stage 6, on a fresh draw.
#   issue 18 / item 3, GRPO on repeats at stage 6's length (added in session 32 after the rest was written, before
#           the run): batch 37's rgrpo (stage 3's GRPO polish on 50-word problems that all repeat a phrase) raised
#           the repeat stress test at 50 words by +0.179 and cost 0.025 / 0.058 at 500 words in register / OORV.
#           Whole 500-word answers take ~50 s a GRPO step (batch 26's s6-chain), so here the same polish runs at
#           stage 6 on 40-word continuation windows (batch 30's c6s-only settings, random cuts) of 500-word problems
#           that all repeat a phrase (rgrpo-w), from chain-6s as trained. Checked on CPU: the repeats are applied
#           before the windows are cut, so the windows hold the repeated phrase.
#
# Starts, carried (each rides a call of its own or shares one, see Calls; at most 64 MiB a call). Rebuilt into .carry/
# by `.venv/bin/python scripts/gpu/carry_starts.py scripts/gpu/grpo_sweep_38.sh` from these lines:
# CARRY h4-steps c7e47e8:adapters/batch-34/h4-steps
# CARRY s6a-eq12-fp32 a336b9e:adapters/batch-37/s6a-eq12-fp32
# CARRY chain-stage-6s-fp32 ab1ae84:adapters/batch-35/chain-stage-6s-fp32
# what they are: the chain's stage 4 by the recipes of now (batch 34, bf16 as it came back; h5-steps, the chain's
# stage 5, continued its float32 copy on the machine); stage 6's first part from n5-eq12 (batch 37, float32); the
# chain's stage 6 of batch 35 (chain-6s, float32 as trained).
# Bundles: `bash scripts/gpu/pack.sh` with results/ moved out of the tree (4 bundles: .gpu/1-3 the model, .gpu/4 the
# wheels and the corpus).
# Calls: results/ moved out of the tree (mv results /work/results-hidden; back before any commit); .gpu/1, .gpu/2,
# .gpu/3 alone, each `source scripts/gpu/setup.sh`; .gpu/4 with .carry/h4-steps: the start_lanes command below; then
# .carry/s6a-eq12-fp32 alone with `WAIT=20 PART=wait bash THIS`; then .carry/chain-stage-6s-fp32 alone with
# `WAIT=20 PART=wait bash THIS`; then `WAIT=540 PART=wait bash THIS` calls back to
# back, the last sized to the budget, and short `WAIT=20` calls for the adapters still queued. Sizes with the tree
# (~21 MB): .gpu/4 14 MB + h4-steps 20 MB; s6a-eq12-fp32 39 MB; chain-stage-6s-fp32 39 MB.
# Results come back as results.tar.gz.part-* (setup.sh's results_back), which collect_batch.py joins; the three
# stage-5 adapters come back as trained (float32, 39 MB each: the chain's stage 6 continues the one adopted), the
# first parts and s6b-eq12 stay on the machine (scored there; batch 39 trains the chain's stage 6 whole).
#
# Parts (start_lanes gives each lane its GPU). Scores greedy, 256 problems unless 512 is named; OORV =
# out_of_register_validation:
# PART=l5-1e4           sft-stage-5-help-long-texts as committed (759 steps, lr 1e-4 constant, 25-400 words) from
#                       h4-steps (carried); l5-5e4 the same with --learning_rate 5e-4; l5-w4 with --learning_rate 5e-4
#                       and --words 4-6,...,400 (sft-stage-5-help-long's lengths, n5-eq12's). Adapters back as trained.
# PART=X-s6a            (X one of the three) stage 6's first part, sft-stage-6-help-long-texts as committed (1,500
#                       steps), from X as trained; beside it on the same GPU, X scored at stage 5 on validation
#                       (scores/X-validation).
# PART=X-s6a-score      X-s6a at stage 6 on validation and on OORV, both at once.
# PART=s6b-eq12         sft-stage-6-help-identifiers as committed (613 steps) from s6a-eq12-fp32 (carried).
# PART=s6b-eq12-score   s6b-eq12 at stage 6 on validation problems 0-511 (scores/s6b-eq12-512-validation), on OORV and
#                       on out_of_register (test), all at once.
# PART=rgrpo-w          setup.sh's polish (lr 3e-5, the average from step 20, 5 minutes) at stage 6 from
#                       chain-stage-6s-fp32 on 40-word continuation windows at random cuts (c6s-only's settings:
#                       $WINDOWS) of train problems that all repeat a phrase (--repeated_fraction 1.0), promotion checks
#                       off; its average back in bf16 when the lease allows.
# PART=rgrpo-w-score    rgrpo-w at stage 6 on validation problems 0-511 and on OORV, both at once.
# Rules, written before the run:
#   item 2, stage 5's recipe: an arm X (l5-5e4 or l5-w4) qualifies if X-s6a scores +0.03 or more over l5-1e4-s6a at
#     500 words on validation (paired on the 256 problems, the interval's low end above zero), no more than 0.02
#     below it on OORV at 500 words (paired mean), and X itself no more than 0.01 below l5-1e4 at 200 words on
#     validation. If both qualify, l5-w4 is chosen only if its first part beats l5-5e4's by 0.02 or more (paired
#     mean), else l5-5e4 (the smaller change). The chosen arm's settings go into sft-stage-5-help-long-texts (same
#     759 steps, so the chain's minutes do not change), and batch 39 trains the chain's stage 6 from it as trained
#     (chain_stage_6) and scores the chain on test. If neither qualifies, stage 5 stays, and the lineage gap is in
#     the text lengths and steps together, or in the 12 minutes: reported, not chased at the chain's cost.
#     Reported either way: the three first parts at 500 words on validation and OORV, the three stage 5s at 200
#     words, and each against batch 37's s6a-eq12 (0.884) and s6-lt-a (0.801), which started from another stage 4;
#     and, on CPU here, the three stage 5s' LoRA update norms (results/grpo/stage6-lineage-norms.md: the helps at
#     1e-4 hardly move it, h4-steps 71.3 -> h5-steps 72.6; n5-eq12's 5e-4 took n4-eq3 from 108.3 to 135.0).
#   issue 18 / item 3, rgrpo-w: stage 6 takes it as a last GRPO part (its 5 minutes) if it beats chain-6s by 0.03
#     or more at 500 words on OORV (paired with batch 36's chain-stage-6s-out_of_register_validation; the interval's
#     low end above 0) and scores no more than 0.01 below it at 500 words on validation problems 0-511 (batch 37's
#     chain-stage-6s-512-validation). Reported: the share of groups with no reward variance, the reward's course.
#   the lineage to its end: no rule (s6b-eq12 is not the chain's). Reported: s6b-eq12 against idf-more (0.934 on
#     validation, 0.673 out of register) and against the long-text lineage's finished stage 6s (0.828-0.908).
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first). Paces from batch 37 on four H200s: stage 6's first part
#   13.4 minutes of training, ~15 with its data and loading; a 759-step stage-5 help ~6 (batch 30); a 613-step
#   identifier part ~9.5; a stage-6 score on 256 problems ~1.7, on 512 ~3.4.
#   4 GPUs: "l5-5e4 l5-5e4-s6a l5-5e4-s6a-score"
#           "l5-w4 l5-w4-s6a l5-w4-s6a-score"
#           "l5-1e4 l5-1e4-s6a l5-1e4-s6a-score"
#           "s6b-eq12 s6b-eq12-score rgrpo-w rgrpo-w-score"
#           (~24.5, ~24, ~24.5, ~25 minutes; s6b-eq12 starts when s6a-eq12-fp32 comes a call later; rgrpo-w is the
#           batch's last part: if the lease ends before its scores, it is reported as not scored)
#   2 GPUs: "l5-5e4 l5-5e4-s6a l5-5e4-s6a-score"
#           "l5-1e4 l5-1e4-s6a l5-1e4-s6a-score" (the lr alone; l5-w4 and s6b-eq12 lead the batch after)
# The .gpu/4 call's command (4 GPUs):
#   source scripts/gpu/setup.sh; ready && export BACK_RAW=0 && start_lanes scripts/gpu/grpo_sweep_38.sh
#   "l5-5e4 l5-5e4-s6a l5-5e4-s6a-score" "l5-w4 l5-w4-s6a l5-w4-s6a-score" "l5-1e4 l5-1e4-s6a l5-1e4-s6a-score"
#   "s6b-eq12 s6b-eq12-score rgrpo-w rgrpo-w-score"; sleep 20; WAIT=10 PART=wait bash scripts/gpu/grpo_sweep_38.sh
# After the calls, here: .venv/bin/python scripts/gpu/collect_batch.py 38 /work/.device/N ... (each call's folder,
# oldest first) --note "...", then the paired comparisons of the rules (scripts/paired_scores.py), and ablation.py.
source scripts/gpu/setup.sh
sweep_ready  # the carried starts kept, the set-up checked
H4=$LAB/carry/h4-steps                  # the chain's stage 4 (batch 34, bf16)
S6A_EQ12=$LAB/carry/s6a-eq12-fp32       # stage 6's first part from n5-eq12 (batch 37, float32 as trained)
C6S_FP32=$LAB/carry/chain-stage-6s-fp32  # the chain's stage 6 of batch 35, float32 as trained
# batch 30's c6s-only settings: GRPO on 40-word continuation windows (its promotion checks off here)
WINDOWS="--continuation_words 40 --word_credit 0 --keep_word_signal_groups false --per_device_train_batch_size 16
  --gradient_accumulation_steps 8 --promotion_every 100000 --max_completion_length 64"
STAGE5_WORDS=4-6,8,10,12,16,20,25,32,40,50,64,80,100,128,160,200,250,320,400  # sft-stage-5-help-long.yaml's
# stage5_arm NAME FLAGS...: sft-stage-5-help-long-texts as committed (759 steps) from h4-steps, FLAGS over it; the
# adapter back as trained (float32: the chain's stage 6 continues it)
stage5_arm() {
  local name=$1; shift
  wait_for $H4/adapter_model.safetensors || return 1
  NO_BACK=1 help_alone $name sft-stage-5-help-long-texts $H4 9 --max_steps 759 "$@"
  pack_out adapter-$name-fp32 runs/$name/final/adapter_config.json runs/$name/final/adapter_model.safetensors
}
# stage6_at_once NAME N SPLITS...: runs/NAME/final at stage 6 on validation (N problems: 256, or 512 into
# scores/NAME-512-validation), on OORV and on SPLITS, all at once on the lane's GPU
stage6_at_once() {
  local name=$1 n=$2 adapter=$LAB/runs/$1/final split; shift 2
  wait_for $adapter/adapter_model.safetensors || return 1
  if [ $n = 512 ]; then score $name-512 $adapter validation 6 --n 512 & else score $name $adapter validation 6 & fi
  for split in out_of_register_validation "$@"; do score $name $adapter $split 6 & done
  wait
}
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_38.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  l5-1e4) stage5_arm l5-1e4 ;;
  l5-5e4) stage5_arm l5-5e4 --learning_rate 5e-4 ;;
  l5-w4) stage5_arm l5-w4 --learning_rate 5e-4 --words $STAGE5_WORDS ;;
  l5-1e4-s6a | l5-5e4-s6a | l5-w4-s6a) first_part ${PART%-s6a} ;;
  l5-1e4-s6a-score | l5-5e4-s6a-score | l5-w4-s6a-score) stage6_at_once ${PART%-score} 256 ;;
  s6b-eq12) wait_for $S6A_EQ12/adapter_model.safetensors || exit 1
    NO_BACK=1 help_alone s6b-eq12 sft-stage-6-help-identifiers $S6A_EQ12 10 --max_steps 613 ;;
  s6b-eq12-score) stage6_at_once s6b-eq12 512 out_of_register ;;
  rgrpo-w) wait_for $C6S_FP32/adapter_model.safetensors || exit 1
    polish rgrpo-w 6 $C6S_FP32 $WINDOWS --repeated_fraction 1.0 ;;
  rgrpo-w-score) stage6_at_once rgrpo-w 512 ;;
esac
[ -z "$BG" ] && results_back  # results.tar.gz.part-* (collect_batch.py joins them)
