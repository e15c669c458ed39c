#!/usr/bin/env bash
# A real Slurm on this machine: starts munged, slurmctld and slurmd for localhost from a minimal config written to
# a temporary folder, submits a depth-limited match as a 4-task job array with the shipped scripts
# (deploy/slurm/submit-match.sh: the array and the merge job that depends on it with afterok), waits, and checks
# that the merged table equals the table of the same match played in one process (depth-limited single-thread
# games are deterministic). Stops the daemons on exit.
#
# Installs Debian's slurm-wlm and munge when they are missing (as root); skips, saying so, only where they cannot
# be installed. Usage: tests/slurm/run.sh [shards games depth]   (defaults 4 16 3; run from anywhere)
#   KEEP=1 keeps the temporary folder; OPENINGS=FILE plays those openings; CPUS=N node CPUs (default: shards).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
SHARDS=${1:-4}
GAMES=${2:-16}
DEPTH=${3:-3}

skip() {
    echo "SKIP slurm test: $*" >&2
    exit 0
}

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    if [[ $(id -u) -ne 0 ]]; then skip "slurm-wlm and munge are not installed and this user cannot install them"; fi
    echo "installing slurm-wlm and munge" >&2
    if ! (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge) >&2; then
        skip "apt-get could not install slurm-wlm and munge"
    fi
fi
[[ $(id -u) -eq 0 ]] || skip "the daemons need root (SlurmUser=root in the test config)"

janggi=$repo/target/release/janggi
[[ -x $janggi ]] || (cd "$repo" && cargo build --release)

tmp=$(mktemp -d /tmp/janggi-slurm.XXXXXX)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    sleep 1
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
    if [[ -z ${KEEP:-} ]]; then rm -rf "$tmp"; else echo "kept $tmp" >&2; fi
}
trap cleanup EXIT

# munge: a fresh key and socket of our own, so a munged already running elsewhere is left alone.
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/run"
chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.sock" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/seed"
pids+=("$(cat "$tmp/munge/munged.pid")")

# Ports away from the defaults, so that a system Slurm is not disturbed.
ctld_port=$((20000 + RANDOM % 20000))
cpus=${CPUS:-$SHARDS}
cat > "$tmp/slurm.conf" <<CONF
ClusterName=janggitest
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$((ctld_port + 1))
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -f "$SLURM_CONF" -i >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N localhost >"$tmp/slurmd.out" 2>&1 &
pids+=($!)

for _ in $(seq 60); do
    if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then break; fi
    sleep 1
done
sinfo -h -o '%T' | grep -qE '^(idle|mixed|allocated)' || {
    tail -20 "$tmp/slurmctld.log" "$tmp/slurmd.log" >&2 || true
    echo "FAIL: the Slurm node did not come up" >&2
    exit 1
}
echo "slurm is up: $(sinfo -h -o '%P %D %c %T')" >&2

work=$tmp/work
mkdir -p "$work"
sed "s#target/release/janggi#$janggi#" "$repo/engines.toml" >"$work/engines.toml"
match_args=(--config "$work/engines.toml" --engines janggi,janggi-skill19 --games "$GAMES" --depth "$DEPTH")
if [[ -n ${OPENINGS:-} ]]; then match_args+=(--openings "$(realpath "$OPENINGS")"); fi

cd "$work"
start=$(date +%s.%N)
ids=$(JANGGI=$janggi OUT=$work/shards SHARDS=$SHARDS "$repo/deploy/slurm/submit-match.sh" "${match_args[@]}")
echo "$ids" >&2
merge_id=${ids##* }
state=""
for _ in $(seq 7200); do
    state=$(scontrol show job "$merge_id" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2)
    case $state in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
    sleep 1
done
end=$(date +%s.%N)
[[ $state == COMPLETED ]] || {
    tail -n 30 "$work"/*.log "$tmp/slurmctld.log" >&2 || true
    echo "FAIL: the merge job ended $state" >&2
    exit 1
}
echo "slurm: $SHARDS shards + merge done in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s wall" >&2
ls "$work/shards" >&2

# The same match in one process (concurrency 2), and the two tables from the ranking to the forfeits.
start=$(date +%s.%N)
"$janggi" match "${match_args[@]}" --concurrency 2 --pgn "$work/single.pgn" >"$work/single.txt" 2>/dev/null
end=$(date +%s.%N)
echo "one process at concurrency 2: $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s wall" >&2
body() { sed -n '/^Rank/,/^Forfeits:/p' "$1"; }
if ! diff <(body "$work/shards/result.txt") <(body "$work/single.txt"); then
    echo "FAIL: the merged table differs from the single run's" >&2
    exit 1
fi
cat "$work/shards/result.txt"
grep -h '^Timing' "$work"/janggi-match-*.log >&2 || true
grep '^Timing' "$work/single.txt" >&2 || true
games=$(awk '/^Rank/ {getline; print $3}' "$work/shards/result.txt")
[[ $games -eq $GAMES ]] || { echo "FAIL: $games games merged, $GAMES expected" >&2; exit 1; }

# Sharded analysis with the shipped analyze.sbatch: the shards' lines together are the single run's lines.
"$janggi" setups >"$work/positions.fen"
aid=$(sbatch --parsable --array=0-$((SHARDS - 1)) \
    --export=ALL,JANGGI="$janggi",INPUT="$work/positions.fen",OUT="$work/analysis" \
    "$repo/deploy/slurm/analyze.sbatch" --depth 4)
for _ in $(seq 600); do
    [[ -z $(squeue -h -j "$aid" 2>/dev/null) ]] && break
    sleep 1
done
# Everything but the search time, sorted: each position once, with the same move, score and nodes.
strip() { sed 's/"time_ms":[0-9]*,\?//' | sort; }
cat "$work"/analysis/analysis.*.jsonl | strip >"$work/analysis-sharded.txt"
"$janggi" analyze --depth 4 "$work/positions.fen" | strip >"$work/analysis-single.txt"
[[ $(wc -l <"$work/analysis-single.txt") -eq 25 ]] || { echo "FAIL: the single analysis is incomplete" >&2; exit 1; }
if ! diff "$work/analysis-sharded.txt" "$work/analysis-single.txt" >&2; then
    echo "FAIL: the $SHARDS analysis shards differ from the single analysis" >&2
    exit 1
fi
echo "PASS slurm test: $SHARDS-task array + afterok merge = single run ($GAMES games at depth $DEPTH); $SHARDS-task \
analysis array = single analysis (25 positions)" >&2
