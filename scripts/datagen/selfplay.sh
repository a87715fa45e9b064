#!/usr/bin/env bash
# Self-play training data for the NNUE trainer: runs `fianchetto datagen` with a
# seed into the ignored `data/` folder, and resumes the file where it stopped when
# run again with the same seed (datagen keeps a `.progress` file beside it; at most
# the games in flight when it stopped are played again).
#
#   SEED=1 scripts/datagen/selfplay.sh                  # data/games-s1.bin, in the foreground
#   SEED=1 THREADS=4 POSITIONS=5000000 scripts/datagen/selfplay.sh
#   SEED=1 BACKGROUND=1 scripts/datagen/selfplay.sh     # detached, at nice 19; log in data/
#
# Variables: SEED (required: a new seed for a new file, the same one to resume),
# BIN (default target/release/fianchetto), THREADS (default 1), NODES (a move's soft
# node limit, default 5000), POSITIONS (stop at this many, default 200000000),
# CHESS960 (the share of Chess960 starts, default 0.25), SYZYGY (table directories,
# separated by `:`, to end games early; default none), BACKGROUND (1: detach).
# These are the settings the shipped net's data was made with (docs/data.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
SEED=${SEED:?set SEED (a new seed for a new file, the same one to resume)}
BIN=${BIN:-target/release/fianchetto}
THREADS=${THREADS:-1}
NODES=${NODES:-5000}
POSITIONS=${POSITIONS:-200000000}
CHESS960=${CHESS960:-0.25}
[ -x "$BIN" ] || { echo "no binary at $BIN: run \`cargo build --release\` or set BIN" >&2; exit 1; }
BIN=$(realpath "$BIN")
mkdir -p data
OUT=data/games-s$SEED.bin
ARGS=(datagen --out "$OUT" --seed "$SEED" --threads "$THREADS" --nodes "$NODES"
      --positions "$POSITIONS" --chess960-share "$CHESS960")
if [ -n "${SYZYGY:-}" ]; then ARGS+=(--syzygy "$SYZYGY"); fi
if [ "${BACKGROUND:-0}" = 1 ]; then
    LOG=data/datagen-s$SEED.log
    nohup nice -n 19 "$BIN" "${ARGS[@]}" --quiet >> "$LOG" 2>&1 < /dev/null &
    echo "datagen seed $SEED started as process $! ($OUT, log $LOG); stop it with: kill $!"
else
    exec "$BIN" "${ARGS[@]}"
fi
