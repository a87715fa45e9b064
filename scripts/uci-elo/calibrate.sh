#!/usr/bin/env bash
# UCI_Elo calibration against rated engines packaged by Debian (GNU Chess 6,
# Glaurung 2.2, Toga II 3.0), on Stockfish 15.1's UCI_Elo scale, with the
# project's own `fianchetto match`:
#
#   1. anchors: each rated engine at full strength against Stockfish at UCI_Elo Y
#      gives the engine's rating on Stockfish's scale;
#   2. ours:    our engine at UCI_Elo L (a node budget: the engine says which) against
#      an opponent whose rating is near L gives what that budget measures.
#
# Logs are named <player>-vs-<opponent>[-s<seed>].log (players: the engine names,
# sf<Y>, n<nodes> for ours); `fit.py tally` turns them into rows of results.csv and
# `fit.py fit` fits the map. 10+0.1, GAMES games a pair (each opening both ways),
# two at a time. Needs `apt-get install gnuchess glaurung toga2 stockfish` and a
# release build (`cargo build --release`).
#
#   SEED=1 OUT=calib scripts/uci-elo/calibrate.sh anchors ours
#   scripts/uci-elo/fit.py tally calib/*.log >> scripts/uci-elo/results.csv
#
# OURS="2000:sf2000 2400:gnuchess" picks other pairs (UCI_Elo:opponent; sf<Y> is
# Stockfish at UCI_Elo Y). OPENINGS=FILE takes openings (EPD or PGN); the default
# is scripts/openings/balanced-6000.epd. Phalanx, in results.csv, speaks xboard,
# which `fianchetto match` does not: its rows stay as they were measured.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release/fianchetto}
SEED=${SEED:-1}
GAMES=${GAMES:-40}
OUT=${OUT:-calib}
OPENINGS=${OPENINGS:-scripts/openings/balanced-6000.epd}
[ -x "$BIN" ] || { echo "no binary at $BIN: run \`cargo build --release\` or set BIN" >&2; exit 1; }
mkdir -p "$OUT"
suffix=$([ "$SEED" = 1 ] && echo "" || echo "-s$SEED")
# `fianchetto match` has no seed of its own: SEED picks where in the book the games
# start (line SEED*GAMES on), so that seeds play other openings.
book=$(mktemp)
trap 'rm -f "$book"' EXIT
lines=$(wc -l < "$OPENINGS")
skip=$(( (SEED - 1) * GAMES / 2 % lines ))
{ tail -n +"$((skip + 1))" "$OPENINGS"; head -n "$skip" "$OPENINGS"; } > "$book"
match() { "$BIN" match --tc 10+0.1 --games "$GAMES" --concurrency 2 --openings "$book" --quiet "$@"; }

# The engine $2 as match arguments for side $1 (a or b), in the array ENG.
engine() {
    case $2 in
        gnuchess) ENG=("--$1" "/usr/games/gnuchess --uci") ;;
        glaurung) ENG=("--$1" /usr/games/glaurung) ;;
        toga) ENG=("--$1" /usr/games/toga2 "--$1-opt" Hash=64) ;;
        sf[0-9]*) ENG=("--$1" /usr/games/stockfish "--$1-opt" UCI_LimitStrength=true
                       "--$1-opt" "UCI_Elo=${2#sf}") ;;
        *) echo "unknown engine $2 (gnuchess, glaurung, toga, sf<Y>)" >&2; exit 2 ;;
    esac
}
# Engine name and the Stockfish UCI_Elo it meets (about 200 to 300 above it).
ANCHORS=(gnuchess:2700 glaurung:2750 toga:2850)
# Our UCI_Elo and the engine it meets (near that engine's measured rating).
read -r -a OURS <<< "${OURS:-2000:sf2000 2200:sf2200 2400:gnuchess}"

# The node budget the build plays UCI_Elo $1 with (it says so when the option is set).
budget() {
    printf 'setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value %s\nquit\n' "$1" |
        "$BIN" | sed -n "s/^info string UCI_Elo $1: \([0-9]*\) nodes a move$/\1/p"
}

run_anchors() {
    for pair in "${ANCHORS[@]}"; do
        e=${pair%%:*} y=${pair##*:}
        engine a "$e"
        match "${ENG[@]}" --b /usr/games/stockfish --b-opt UCI_LimitStrength=true \
            --b-opt UCI_Elo="$y" > "$OUT/$e-vs-sf$y$suffix.log" 2>&1
    done
}
run_ours() {
    for pair in "${OURS[@]}"; do
        l=${pair%%:*} e=${pair##*:}
        n=$(budget "$l")
        [ -n "$n" ] || { echo "$BIN does not say its budget for UCI_Elo $l" >&2; exit 1; }
        engine b "$e"
        match --a "$(realpath "$BIN")" --a-opt UCI_LimitStrength=true --a-opt UCI_Elo="$l" "${ENG[@]}" \
            > "$OUT/n$n-vs-$e$suffix.log" 2>&1
    done
}
[ $# -gt 0 ] || { echo "usage: calibrate.sh anchors|ours ..." >&2; exit 2; }
for step in "$@"; do
    case $step in
        anchors) run_anchors ;;
        ours) run_ours ;;
        *) echo "unknown step $step (anchors, ours)" >&2; exit 2 ;;
    esac
done
