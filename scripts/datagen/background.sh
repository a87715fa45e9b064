#!/bin/bash
# Starts (or resumes) the background self-play job on this machine's idle
# cores, so that every session can restart it in its first minute.
#
#   SEED=63 BIN=data/bin/fianchetto-COMMIT scripts/datagen/background.sh
#
# The job writes data/nn7-games-s$SEED.bin in the games format; datagen keeps a
# `.progress` sidecar, so running this again with the same SEED and BIN resumes
# the file where it stopped (at most the games in flight are lost). It runs at
# nice 19 and its scheduler autogroup is lowered to nice 19 too, so builds,
# tests and matches take the cores first. Record SEED, BIN's commit and the
# count in docs/data.md.
set -eu
cd "$(dirname "$0")/../.."
. scripts/datagen/flags.sh
SEED=${SEED:?set SEED (a new seed for a new file, the same to resume)}
BIN=${BIN:?set BIN to a release build, e.g. data/bin/fianchetto-COMMIT}
THREADS=${THREADS:-2}
SYZYGY=${SYZYGY:-/work/shared/data/syzygy}
mkdir -p data
BIN=$(realpath "$BIN")
cd data
TB=()
[ -d "$SYZYGY" ] && TB=(--syzygy "$SYZYGY")
setsid nohup nice -n 19 "$BIN" datagen --out "nn7-games-s$SEED.bin" "${DATAGEN_FLAGS[@]}" \
  --threads "$THREADS" --seed "$SEED" "${TB[@]}" --quiet >> "datagen-s$SEED.log" 2>&1 < /dev/null &
PID=$!
# Lower the job's own autogroup, not this shell's: wait until setsid has
# moved it into a new one (writing earlier would lower the caller's group).
group() { cut -d' ' -f1 "/proc/$1/autogroup" 2>/dev/null || true; }
OWN=$(group $$)
for _ in $(seq 50); do
  if [ "$(group "$PID")" != "$OWN" ]; then
    echo 19 > "/proc/$PID/autogroup" 2>/dev/null || true
    break
  fi
  sleep 0.1
done
echo "datagen s$SEED started as pid $PID ($BIN)"
