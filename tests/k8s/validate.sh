#!/usr/bin/env bash
# Validates the Kubernetes manifests in deploy/k8s/ offline against the Kubernetes API schemas that PyPI's
# kubernetes-validate bundles (strict: unknown fields are errors), checks that a broken manifest is rejected, and
# that the match Job's --shard auto/N agrees with its completions. Installs kubernetes-validate when missing.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
if ! python3 -c 'import kubernetes_validate' 2>/dev/null; then
    python3 -m pip install --quiet kubernetes-validate
fi
validate() { python3 -m kubernetes_validate --strict --quiet "$@"; }

validate "$repo"/deploy/k8s/*.yaml
echo "deploy/k8s: $(ls "$repo"/deploy/k8s/*.yaml | wc -l) manifests valid" >&2

# The validator must be able to fail: a misspelt field and a wrong type are caught.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/completionMode: Indexed/completionsMode: Indexed/' "$repo/deploy/k8s/match-job.yaml" >"$tmp/typo.yaml"
sed 's/parallelism: 8/parallelism: eight/' "$repo/deploy/k8s/match-job.yaml" >"$tmp/type.yaml"
for bad in "$tmp/typo.yaml" "$tmp/type.yaml"; do
    if validate "$bad" >/dev/null 2>&1; then
        echo "FAIL: $(basename "$bad") should not validate" >&2
        exit 1
    fi
done

# The shard count given to janggi is the Job's number of completions.
job=$repo/deploy/k8s/match-job.yaml
completions=$(awk '/^  completions:/ {print $2}' "$job")
count=$(grep -A1 -- '- --shard' "$job" | tail -1 | sed 's/.*auto\///')
[[ $completions == "$count" ]] || { echo "FAIL: completions $completions but --shard auto/$count" >&2; exit 1; }
grep -q "of-$count.json" "$repo/deploy/k8s/merge-job.yaml" || { echo "FAIL: the merge waits for another count" >&2; exit 1; }
echo "PASS k8s manifests: valid, a broken copy rejected, $completions shards throughout" >&2
