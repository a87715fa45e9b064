# The self-play settings every datagen job of ours shares (sourced by
# background.sh and ../device/lent-machine.sh): 5 000 nodes a move, a quarter
# of the games from Chess960 starts, and no position limit worth reaching.
DATAGEN_FLAGS=(--nodes 5000 --positions 200000000 --chess960-share 0.25)
