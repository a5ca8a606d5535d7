#!/usr/bin/env bash
# Here (no GPU): build the bundles scripts/gpu/setup.sh installs on a lent GPU machine, .gpu/1, .gpu/2, ... One device
# call carries at most 64 MiB, the working tree included (~35 MB: the shipped adapter and results/, whose bulky text
# files scripts/compress_results.py gzips), so the
# model (a 98 MB GGUF), the wheels and the built corpus are cut into bundles that each fit beside the tree.
# ../shared/gpu/pack.sh fetches the wheels and the model; this re-cuts them. Each bundle holds `parts` (the model's
# part names and SHA-256), so setup.sh knows when it has them all.
#   scripts/gpu/pack.sh [EXTRA_PIP_SPEC ...]    then carry .gpu/1, .gpu/2, ... in calls in a row (see setup.sh)
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
../shared/gpu/pack.sh "$@" >/dev/null
tree=$(.venv/bin/python scripts/gpu/call_size.py --tree_bytes)   # as the device tool counts it: tar headers and padding
room=$(( 64 * 1024 * 1024 - tree - 4 * 1024 * 1024 ))   # 4 MiB spare for what the tree gains before the calls
[ $room -gt 20000000 ] || { echo "the working tree ($tree bytes) leaves too little room for bundles"; exit 2; }
stage=.gpu/stage && mkdir -p $stage/wheels
cat .gpu/a/model.part_aa .gpu/b/model.part_ab > $stage/model.gguf
mv .gpu/a/wheels/*.whl $stage/wheels/
corpus=$(.venv/bin/python -c 'from dataset_builders.corpus import load_corpus; print(load_corpus().path)')
tar cJf $stage/corpus.tar.xz -C "$(dirname "$corpus")" "$(basename "$corpus")"
rm -rf .gpu/a .gpu/b
# the model in parts of at most `room` bytes, one bundle each; the wheels and the corpus in the last bundle, which
# leaves room in its call for a carried start adapter (.carry/, bf16: ~20 MB)
size=$(stat -c %s $stage/model.gguf)
n=$(( (size + room - 1) / room ))
split -n $n -d -a 1 $stage/model.gguf $stage/model.part_
(cd $stage && sha256sum model.part_* > parts)
for i in $(seq 1 $n); do
  mkdir -p .gpu/$i && cp $stage/parts .gpu/$i/ && mv $stage/model.part_$((i - 1)) .gpu/$i/
done
mkdir -p .gpu/$((n + 1)) && mv $stage/wheels $stage/corpus.tar.xz .gpu/$((n + 1))/
rm -rf $stage
echo "working tree $((tree / 1048576)) MiB, room per call $((room / 1048576)) MiB; carry each bundle in its own call, in order:"
du -sh .gpu/*/
# the biggest bundle's call, counted the same way (carry adapters in calls of their own)
.venv/bin/python scripts/gpu/call_size.py .gpu/1 | tail -1
