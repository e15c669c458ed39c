#!/usr/bin/env bash
# Queues a match as a Slurm job array of SHARDS tasks and the merge job that waits for all of them:
#
#   SHARDS=8 OUT=/shared/run1 deploy/slurm/submit-match.sh --games 1000 --depth 6 [--sprt 0,5]
#
# Every argument goes to `janggi match`; an --sprt is also given to the merge, which decides it on all games
# (shards never stop early: each sees only part of the evidence). Prints the two job ids.
set -euo pipefail
here=$(dirname "$0")
SHARDS=${SHARDS:-8}
merge_args=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    if [[ ${args[i]} == --sprt ]]; then merge_args+=(--sprt "${args[i + 1]}"); fi
    if [[ ${args[i]} == --sprt=* ]]; then merge_args+=("${args[i]}"); fi
done
array=$(sbatch --parsable --array=0-$((SHARDS - 1)) "$here/match.sbatch" "$@")
merge=$(sbatch --parsable --dependency=afterok:"$array" "$here/merge.sbatch" "${merge_args[@]}")
echo "match array $array, merge $merge"
