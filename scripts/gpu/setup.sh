# The one set-up of a lent GPU machine (source it from the project root: `source scripts/gpu/setup.sh`).
# Idempotent: installs what the carried bundles of scripts/gpu/pack.sh hold and is not there yet, then exports what
# the project's modules need. pack.sh cuts the model (a GGUF) into parts so that each call's carry fits beside the
# working tree in 64 MiB: carry .gpu/1, .gpu/2, ... one per call, in calls in a row (the machine goes cold after
# ~30 s idle), each running `source scripts/gpu/setup.sh`. The last bundle brings the wheels and the corpus; once
# every part named in `parts` is here, the model is joined, checked and converted (~50 s). A machine that went cold
# needs them all again.
G=/tmp/gpu
mkdir -p $G
for part in .gpu/*/model.part_* .gpu/*/parts; do
  [ -f "$part" ] && [ ! -f $G/$(basename $part) ] && cp "$part" $G/
done
wheels=$(ls .gpu/*/wheels/*.whl 2>/dev/null)
if [ -n "$wheels" ] && [ ! -f $G/.wheels-installed ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target $G/site $wheels \
    && touch $G/.wheels-installed
fi
if [ -f $G/.wheels-installed ] && [ -f $G/parts ] && [ ! -f $G/smollm2-135m-instruct/model.safetensors ] \
  && (cd $G && sha256sum -c --quiet parts >/dev/null 2>&1); then
  cat $G/model.part_* > $G/smollm2.gguf && rm $G/model.part_*
  echo "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53  $G/smollm2.gguf" | sha256sum -c --quiet \
    && PYTHONPATH=$G/site:$PWD python3 -c "import sys; from pathlib import Path; from base_models.models import \
_convert_gguf; _convert_gguf(Path(sys.argv[1]), Path(sys.argv[2]))" $G/smollm2.gguf $G/smollm2-135m-instruct \
    >/dev/null 2>&1 || echo "model conversion failed"   # the project's conversion: the same tokenizer as here
fi
if [ -f .gpu/*/corpus.tar.xz ] && [ ! -f $G/corpus/passages.jsonl ]; then
  python3 - .gpu/*/corpus.tar.xz $G/corpus <<'PY'
import pathlib, sys, tarfile
out = pathlib.Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
with tarfile.open(sys.argv[1]) as tar:  # the corpus folder's files (passages.jsonl, manifest.json), flattened
    for member in tar.getmembers():
        if member.isfile():
            (out / pathlib.Path(member.name).name).write_bytes(tar.extractfile(member).read())
PY
fi
export PYTHONPATH=$G/site:$PWD INTERLEAVE_GRPO_CORPUS=$G/corpus HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1
export TOKENIZERS_PARALLELISM=false TRACKIO_DIR=/tmp/trackio
export M=$G/smollm2-135m-instruct          # the embedded model, bf16
export LAB=${LAB:-$PWD/.lab}                # runs/ and results/ of experiments on this machine (git-ignored)
mkdir -p $LAB/runs $LAB/results
ready() { [ -f $G/.wheels-installed ] && [ -f $M/model.safetensors ] && [ -f $G/corpus/passages.jsonl ]; }
# pack_out NAME PATH...: tar PATHs (relative to $LAB) into $OUT/NAME.tar.gz.part-* (15 MiB parts; $OUT takes files of
# at most 16 MiB). Join here with: cat NAME.tar.gz.part-* | tar xz
pack_out() { local name=$1; shift; (cd $LAB && tar cz "$@") | split -b 15m - $OUT/$name.tar.gz.part-; }
# bf16 FOLDER: the folder's adapter cast to bfloat16 in place, as adapters/shipped (half the bytes to bring back)
bf16() {
  python3 - $1/adapter_model.safetensors <<'PY'
import sys, torch
from safetensors.torch import load_file, save_file
tensors = load_file(sys.argv[1])
save_file({k: v.to(torch.bfloat16) if v.is_floating_point() else v for k, v in tensors.items()}, sys.argv[1])
PY
}
# score NAME ADAPTER SPLIT STAGES: a greedy eval of 256 problems into $LAB/results/scores/NAME-SPLIT; its table row
score() {
  python3 -m training.cli.evaluate --model $M --adapter $2 --stages $4 --n 256 --split $3 --arithmetic false \
    --baseline false --out $LAB/results/scores/$1-$3 2>&1 | grep "^| stage" | sed "s/^/$1 $3: /"
}
# format_start: issue 17's supervised format start (training/recipes/sft-format-start.yaml, ~52 s on an H100) from a
# fresh adapter into $LAB/runs/sft-start; its last line on stdout
format_start() {
  python3 -m training.cli.warm_start --config training/recipes/sft-format-start.yaml --model $M --report_to none \
    --output_dir $LAB/runs/sft-start --results_dir $LAB/results/sft-start 2>&1 | grep -v "it/s\]" | tail -1
}
