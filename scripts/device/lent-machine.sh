#!/bin/bash
# One call's work on a lent many-core machine (the `device` tool), prepared so
# that none of its few minutes is spent typing: the machine, the trainer's
# speed on all its cores, then self-play data until the time is up.
#
#   run --carry data/bin/fianchetto-COMMIT --carry data/syzygy --carry data/speed.bin \
#       'scripts/device/lent-machine.sh data/bin/fianchetto-COMMIT SEED SECONDS'
#
# BIN is a release build of this repository (the machine reaches no registry),
# SEED the datagen seed (record it in docs/data.md), SECONDS the datagen's
# share of the call. data/speed.bin, when carried, is any small games-format
# or marlinformat file (half a million positions is plenty) for the trainer's
# positions/s; data/syzygy, when carried, the 3-4-piece tables. Everything
# worth keeping lands in $OUT (about 4.3 bytes a position: 64 MiB carry back
# 15 M positions).
set -u
BIN=$1 SEED=$2 SECONDS_FOR_DATA=$3
OUT=${OUT:-out}
mkdir -p "$OUT"
THREADS=$(nproc)
{
  echo "== machine"; nproc; lscpu | grep -i "model name"; free -g | head -2
  echo "== bench"; "$BIN" bench 2>&1 | tail -2
} > "$OUT/machine.txt" 2>&1
if [ -f data/speed.bin ]; then
  for arch in "--hidden 256" "--hidden 1024 --king-buckets mirrored-9 --output-buckets 8"; do
    for t in $(echo 2 "$THREADS" | tr ' ' '\n' | sort -un); do
      name="speed-$(echo $arch | tr -cd 'a-z0-9-')-t$t"
      rm -f "/tmp/$name.nnue"*
      echo "== train $arch --threads $t" >> "$OUT/machine.txt"
      "$BIN" train --data data/speed.bin --out "/tmp/$name.nnue" $arch --epochs 1 \
        --threads "$t" --quiet 2>&1 | grep "^epoch" >> "$OUT/machine.txt"
    done
  done
fi
TB=()
[ -d data/syzygy ] && TB=(--syzygy data/syzygy)
. "$(dirname "$0")/../datagen/flags.sh"
timeout -s INT "$SECONDS_FOR_DATA" "$BIN" datagen --out "$OUT/nn7-games-s$SEED.bin" "${DATAGEN_FLAGS[@]}" \
  --threads "$THREADS" --seed "$SEED" "${TB[@]}" --quiet > "$OUT/datagen-s$SEED.log" 2>&1
cat "$OUT/machine.txt" "$OUT/nn7-games-s$SEED.bin.progress"; tail -1 "$OUT/datagen-s$SEED.log"
