# GPU batch 18 of issue 17 (written 2026-11-24, session 13, before it ran).
# PART=mem3  stages 3-6 need to fit: stage 2 at 128 completions died of OOM without gradient checkpointing
#            (results/grpo/batch-17). stage-3.yaml turns gradient checkpointing on, unmeasured. This part runs
#            make train-stage N=3's recipe for 3 minutes from the adapter carried in .carry/start (batch 17's
#            sft-only-1000, trained on 4-25 words), alone, with nvidia-smi sampling memory every 0.5 s, and reports the
#            peak and the step times. Not a quality run: nothing is scored.
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
mkdir -p $LAB/results
case ${PART:?set PART=mem3} in
  mem3)
    mkdir -p $LAB/results/mem3
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 500 > $LAB/results/mem3/memory-mib.txt &
    sampler=$!
    python3 -m training.cli.train --config training/recipes/stage-3.yaml --model $M --report_to none \
      --init_adapter $PWD/.carry/start --max_train_minutes 3 --max_steps 3000 \
      --output_dir $LAB/runs/mem3 --results_dir $LAB/results/mem3 > $LAB/results/mem3/train.log 2>&1
    kill $sampler
    echo "peak MiB: $(sort -n $LAB/results/mem3/memory-mib.txt | tail -1)" | tee $LAB/results/mem3/peak.txt ;;
esac
(cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
