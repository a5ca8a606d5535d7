# GPU batch 19 of issue 17 (written 2026-11-24, session 13, before it ran; for the next session's device minutes).
# Session 13 found (results/grpo/batch-17, batch-18): the decode is 85-88% of a GRPO step at stage 3 (27 ms a token
# step at a 940-token cache, against 9.4 ms at stage 1's 320), and the stable slips of stage 1 are made by GRPO's early
# entropy collapse, not inherited from the format start. Lessons on the clock: the format start and an 8.5-minute run
# do not fit one 600 s call, so they run in separate calls here; results are packed before any scoring. (Since
# session 13 a `timeout` (SIGTERM) ends a run after its step with final/ and its results written: StopOnSignal.)
# Parts, in priority order (each one call; the setup.sh bundles first):
#
# PART=decode  the decode's speed by cache length, as training runs it (cuDNN attention off: the non-finite gradient
#              fix) and with the sampler's new cudnn_attention option (on for sampling only), at stages 1, 3, 4, batch
#              128, compiled CUDA graphs: benchmarks.bench_generation's graph_compiled_training_kernels[_cudnn]. ~6-8
#              min (each stage and method compiles once, ~35-60 s). If cuDNN wins, wire it into training as a flag.
# PART=s3-ab   whole GRPO steps at stage 3 (the recipe, gradient checkpointing), from adapters/shipped, 2.5 minutes
#              each, one after the other alone: as committed, then with --fast_generation_cudnn_attention true.
#              Step time and its generation share from metrics.jsonl; nothing scored. (~7.5 min)
# PART=ws      is 25 words harder on today's corpus? Batch 17's SFT arm reached 0.752 at 25 words in 5.8 min from the
#              shipped (GRPO-sharpened) stage-1 adapter; `make warm-start` (every length 4-500, 7 min, fresh adapter)
#              reached 0.980 at 25 words on the two-register corpus (README table). This part runs `make
#              warm-start`'s recipe on today's six-register corpus, then ws-score scores it on validation at
#              stages 1-2 (256). Alone. (~8.5 min, then ~1 min)
# PART=start   the format start alone (~52 s + loading), so the next parts fit their calls.
# PART=t13     item 1: s1c's recipe (stage-1.yaml, lr 3e-4, the average from step 120), 8 minutes alone, with
#              --temperature 1.3. Why: entropy fell 1.2 -> 0.2 nats a token in 20 steps and the sure slips were
#              made then (the format start had p 0.17 on the right token where the shipped adapter has 0.01). A
#              hotter sampler keeps more of the right tokens in the groups. Control: batch 16's s1c (0.969 / 81.6%
#              on validation). Scored on validation (average and last weights) in a call of its own (PART=t13-score).
# PART=ent     item 1, the same question by another lever (added session 14, before it ran): TRL's adaptive entropy
#              bonus (Skywork-OR1), --use_adaptive_entropy with target 0.3 nats a token, the coefficient at least 0.02,
#              by 0.005 a step up to 0.1, applied only while entropy is at or below the target. s1c's entropy was
#              0.21 at step 20 and 0.10-0.15 through its learning phase. Same clock and start as t13; ent-score.
#              (t13 and ent bring their adapters back in bf16 in their own call; the scoring call may be lost.)
# PART=e       batch 17's PART=e (no resampling rounds), from PART=start's adapter; then PART=e-score.
# PART=e-ent   (added session 14 after machine 1, before it ran) ent's recipe without resampling rounds. Machine 1:
#              ent 0.974 / 84.8% (average) on validation, t13 0.966 / 82.0%, against s1c's 0.969 / 81.6%; both runs
#              still rising when the clock stopped them, and their last 60 steps took 2.3 s each, 1.8 s of it
#              generation with 6.6 groups resampled a step, against 1.1 s before step 100. Without resampling the
#              same 8 minutes buy ~30% more steps but fewer informative groups a step. Then e-ent-score.
# HOW IT RAN (session 14; results/grpo/batch-19/README.md): machine 1: bundles, start, t13, ent, t13-ent-score (and
# the start's score), then decode at stage 3 only (cuDNN: 21.9 against 22.8 ms a token step, no gain), then the
# default kernels at stages 1 and 3 (cut at 250 s). Machine 2: bundles, start, e-ent, e-ent-score (and its test and
# out_of_register scores), ws, ws-score, then ws at stages 3-6. s3-ab and e did not run (decode showed no gain; e-ent
# took e's place). Picked on validation: e-ent (0.979 / 86.7%; test 0.979 / 86.7%).
# Session 14's planned order: machine 1 = bundles, start (in the last bundle's call), t13, ent, t13-score + ent-score;
# machine 2 = bundles, decode, s3-ab (only if decode shows cuDNN ahead), ws, ws-score.
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
mkdir -p $LAB/results/scores
stage1() {  # NAME FLAGS...: s1c's recipe from $LAB/runs/sft-start/final, 8 minutes alone
  local name=$1; shift
  mkdir -p $LAB/results/$name
  python3 -m training.cli.train --config training/recipes/stage-1.yaml --model $M --report_to none \
    --init_adapter $LAB/runs/sft-start/final --max_steps 3000 --max_train_minutes 8 "$@" \
    --output_dir $LAB/runs/$name --results_dir $LAB/results/$name > $LAB/results/$name/train.log 2>&1
  cp $LAB/runs/$name/promotion.jsonl $LAB/results/$name/ 2>/dev/null
  for kind in final final-raw; do  # both weights back in bf16 now: a later scoring call may not get a machine
    mkdir -p $LAB/out/$name-$kind && cp $LAB/runs/$name/$kind/adapter_config.json \
      $LAB/runs/$name/$kind/adapter_model.safetensors $LAB/out/$name-$kind/ && bf16 $LAB/out/$name-$kind
  done
  pack_out adapter-$name out/$name-final out/$name-final-raw
}
score_both() {  # NAME: the run's average and last weights on validation (256, stage 1)
  score $1-average $LAB/runs/$1/final validation 1 & score $1-raw $LAB/runs/$1/final-raw validation 1 & wait
}
ENT="--use_adaptive_entropy true --entropy_coef 0.02 --entropy_target 0.3 --entropy_coef_delta 0.005
  --entropy_coef_min 0.02 --entropy_coef_max 0.1"  # PART=ent's bonus
case ${PART:?set PART=decode, s3-ab, ws, ws-score, start, t13, t13-score, ent, ent-score, t13-ent-score, e, e-score, e-ent or e-ent-score} in
  decode)
    python3 -m benchmarks.bench_generation --model $M --stages 1 3 4 --batches 128 --repeats 2 \
      --methods graph_compiled_training_kernels graph_compiled_training_kernels_cudnn --out $LAB/results/decode \
      > $LAB/results/decode.log 2>&1; tail -12 $LAB/results/decode.log ;;
  s3-ab)
    for arm in plain:false cudnn:true; do
      name=s3-${arm%%:*}; mkdir -p $LAB/results/$name
      python3 -m training.cli.train --config training/recipes/stage-3.yaml --model $M --report_to none \
        --init_adapter $PWD/adapters/shipped --max_train_minutes 2.5 --max_steps 3000 \
        --fast_generation_cudnn_attention ${arm##*:} \
        --output_dir $LAB/runs/$name --results_dir $LAB/results/$name > $LAB/results/$name/train.log 2>&1
      python3 - $LAB/results/$name/metrics.jsonl <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])][1:]  # the first step compiles
print(sys.argv[1], len(rows) + 1, "steps; median s a step", round(statistics.median(r["step_time"] for r in rows), 2),
      "of it generation", round(statistics.median(r["time/generation"] for r in rows), 2))
PY
    done ;;
  ws)
    mkdir -p $LAB/results/ws
    python3 -m training.cli.warm_start --config training/recipes/sft-every-length.yaml --model $M --report_to none \
      --output_dir $LAB/runs/ws --results_dir $LAB/results/ws > $LAB/results/ws/train.log 2>&1 ;;
  ws-score) score ws $LAB/runs/ws/final validation 1-2 ;;
  start) format_start ;;
  t13) stage1 t13 --temperature 1.3 ;;
  t13-score) score_both t13 ;;
  ent) stage1 ent $ENT ;;
  ent-score) score_both ent ;;
  t13-ent-score) score_both t13 & score_both ent & wait ;;
  e) stage1 no-resample --dynamic_sampling_rounds 0 ;;
  e-ent) stage1 e-ent --dynamic_sampling_rounds 0 $ENT ;;
  e-ent-score) score_both e-ent ;;
  e-score) score_both no-resample ;;
esac
(cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
