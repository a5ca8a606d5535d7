# The one set-up of a lent GPU machine (source it from the project root: `source scripts/gpu/setup.sh`).
# Idempotent: installs what the carried bundles of scripts/gpu/pack.sh hold and is not there yet
# (.gpu/a: the first model half; .gpu/b: the wheels and the second half -> bf16 safetensors model; .gpu/c: the built
# corpus), then exports what the project's modules need. One call carries at most 64 MiB with the working tree
# (~13 MB), so carry .gpu/a, .gpu/b and .gpu/c in three calls in a row; a machine that went cold needs all three.
G=/tmp/gpu
mkdir -p $G
[ -f .gpu/a/model.part_aa ] && [ ! -f $G/model.part_aa ] && cp .gpu/a/model.part_aa $G/
wheels=$(ls .gpu/*/wheels/*.whl 2>/dev/null)
if [ -n "$wheels" ] && [ ! -f $G/.wheels-installed ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target $G/site $wheels \
    && touch $G/.wheels-installed
fi
if [ -f .gpu/b/model.part_ab ] && [ ! -f $G/smollm2-135m-instruct/model.safetensors ]; then
  bash .gpu/b/finish.sh >/dev/null 2>&1 || echo "model conversion failed (is .gpu/a's half there?)"
fi
if [ -f .gpu/c/corpus.tar.xz ] && [ ! -f $G/corpus/passages.jsonl ]; then  # xz: .gpu/b + .gpu/c fit one call
  python3 - .gpu/c/corpus.tar.xz $G/corpus <<'PY'
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
