#!/usr/bin/env bash
# A burst of training data on a machine lent for a few minutes: every core plays self-play games with the
# default net for a fixed time, then the games in progress finish and the files are left in $OUT.
#
#   OUT=burst SECONDS_OF_DATA=480 SEED=7001 deploy/burst.sh        # from the repository's root
#
# The binary: $JANGGI when set (a release binary built elsewhere; the default build is portable), else
# target/release/janggi when there, else `cargo build --release` here (offline when the machine has no network:
# the crates must then be in cargo's cache or vendored). The data is split into $FILES shard files of one seed
# (`--shard I/FILES`, the games numbered ≡ I mod FILES), so that no file grows past what the way back carries;
# together they hold the games of one `janggi datagen --seed $SEED` run. Each file is complete game by game, and
# a burst stopped early keeps every finished game. Copy the files into a generation's data folder
# (tools/net_next.py --dir RUN: RUN/data/) or train on them directly; use a new SEED for every burst.
#
# Environment: OUT (default burst), SECONDS_OF_DATA (default 480), SEED (default: the time), NODES (default 1000),
# FILES (default 4), THREADS (default: every core), JANGGI, NET (a net file to play with instead of the embedded
# default: a generation's parent; files for a tools/net_next.py run must come from its parent and its --nodes).
set -euo pipefail
OUT=${OUT:-burst}
SECONDS_OF_DATA=${SECONDS_OF_DATA:-480}
SEED=${SEED:-$(date +%s)}
NODES=${NODES:-1000}
FILES=${FILES:-4}
THREADS=${THREADS:-$(nproc)}
NET_ARGS=()
if [ -n "${NET:-}" ]; then NET_ARGS=(--net "$NET"); fi
if [ -z "${JANGGI:-}" ]; then
    JANGGI=target/release/janggi
    if [ ! -x "$JANGGI" ]; then
        start=$(date +%s)
        cargo build --release --bin janggi >&2
        echo "burst: built in $(( $(date +%s) - start )) s" >&2
    fi
fi
mkdir -p "$OUT"
if [ "$FILES" -gt "$THREADS" ]; then FILES=$THREADS; fi
per_file=$(( THREADS / FILES ))
echo "burst: $FILES files x $per_file threads, $NODES nodes a move, seed $SEED," \
    "$SECONDS_OF_DATA s${NET:+, net $NET}" >&2
pids=()
stopped=0
# One SIGINT to each datagen, once: no new game starts, the games in progress are finished and written (a second
# one would make datagen drop them; for that reason the children run in sessions of their own, out of reach of
# the terminal's Ctrl-C, and `timeout` is not used: it signals the process group as well).
stop() { if [ "$stopped" = 0 ]; then stopped=1; kill -INT "${pids[@]}" 2>/dev/null || true; fi; }
# Stopped early (Ctrl-C, or the lender's SIGTERM): the same single SIGINT, so the games in progress are kept.
trap stop INT TERM HUP
for i in $(seq 0 $(( FILES - 1 ))); do
    setsid "$JANGGI" datagen "${NET_ARGS[@]}" --nodes "$NODES" --games 1000000 --threads "$per_file" --seed "$SEED" \
        --shard "$i/$FILES" --out "$OUT/burst-$SEED.bin" &
    pids+=($!)
done
# `wait` returns early when a trapped signal comes; then the children have their SIGINT already.
sleep "$SECONDS_OF_DATA" & sleeper=$!
wait "$sleeper" || kill "$sleeper" 2>/dev/null || true
stop
trap - INT TERM HUP
status=0
for pid in "${pids[@]}"; do
    # 130 is datagen's "interrupted", the planned end.
    wait "$pid" || { code=$?; [ "$code" = 130 ] || status=$code; }
done
"$JANGGI" datagen stats "$OUT"/burst-"$SEED".*-of-"$FILES".bin | head -5
exit "$status"
