#!/usr/bin/env bash
# UCI_Elo calibration against the rated Debian engines (Phalanx XXV, GNU Chess 6,
# Glaurung 2.2, Toga II 3.0), on Stockfish 15.1's UCI_Elo scale:
#
#   1. anchors: each Debian engine at full strength against Stockfish at UCI_Elo Y
#      gives the engine's rating on Stockfish's scale;
#   2. ours:    our engine at UCI_Elo L against each Debian engine, L near the
#      engine's rating, gives what L measures on that scale.
#
# `fit.py` reads the logs and fits the map. 10+0.1, GAMES games a pair (each
# opening both ways), two at a time. Needs the project's match runner (MATCH,
# python-chess) and `apt-get install phalanx gnuchess glaurung toga2 stockfish`.
#
#   MATCH=path/to/match.py BIN=target/release/fianchetto SEED=1 OUT=calib \
#     scripts/uci-elo/calibrate.sh anchors ours
set -euo pipefail
: "${MATCH:?set MATCH to the match runner (match.py)}"
BIN=${BIN:-target/release/fianchetto}
SEED=${SEED:-1}
GAMES=${GAMES:-40}
OUT=${OUT:-calib}
mkdir -p "$OUT"
suffix=$([ "$SEED" = 1 ] && echo "" || echo "-s$SEED")
match() { python3 -u "$MATCH" --tc 10+0.1 --games "$GAMES" --concurrency 2 --seed "$SEED" ${OPENINGS:+--openings "$OPENINGS"} "$@"; }

# The Debian engine $2 as match arguments for side $1 (a or b), in the array ENG.
# Phalanx speaks xboard; its learning and book are off so that every game meets
# the same engine.
engine() {
    case $2 in
        phalanx) ENG=("--$1" "/usr/games/phalanx -l- -b-" "--$1-proto" xboard) ;;
        gnuchess) ENG=("--$1" "/usr/games/gnuchess --uci") ;;
        glaurung) ENG=("--$1" /usr/games/glaurung) ;;
        toga) ENG=("--$1" /usr/games/toga2 "--$1-opt" Hash=64) ;;
        *) echo "unknown engine $2" >&2; exit 2 ;;
    esac
}
# Engine name and the Stockfish UCI_Elo it meets (about 200 to 300 above it).
ANCHORS=(phalanx:2400 gnuchess:2700 glaurung:2750 toga:2850)
# Our UCI_Elo and the engine it meets (near that engine's measured rating).
OURS=(2000:phalanx 2200:phalanx 2400:gnuchess 2500:glaurung 2600:toga)

run_anchors() {
    for pair in "${ANCHORS[@]}"; do
        e=${pair%%:*} y=${pair##*:}
        engine a "$e"
        match "${ENG[@]}" --b /usr/games/stockfish --b-opt UCI_LimitStrength=true \
            --b-opt UCI_Elo="$y" > "$OUT/$e-sf$y$suffix.log" 2>&1
    done
}
run_ours() {
    for pair in "${OURS[@]}"; do
        l=${pair%%:*} e=${pair##*:}
        engine b "$e"
        match --a "$BIN" --a-opt UCI_LimitStrength=true --a-opt UCI_Elo="$l" "${ENG[@]}" \
            > "$OUT/ours$l-$e$suffix.log" 2>&1
    done
}
for step in "$@"; do
    case $step in
        anchors) run_anchors ;;
        ours) run_ours ;;
        *) echo "unknown step $step (anchors, ours)" >&2; exit 2 ;;
    esac
done
