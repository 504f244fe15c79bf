#!/usr/bin/env bash
# The whole-process rows of the scaling table in docs/PERFORMANCE.md: for 1, 10, 100 and 1,000
# installed #!/bin/sh extensions with 5 revisions each (written by ScalingFixture), the size of
# state.json, the wall time and peak memory of `loopx extension list` (the CLI launcher, through
# farm-bench: median of 10 runs), and the wall time of one more `extension install --execute`
# (median of 5 fresh ids, each a new CLI process). In-process rows come from ManyExtensionsBenchmark.
# Usage: benchmarks/scaling.sh [COUNTS...]   (default: 1 10 100 1000); needs farm-bench on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
jar=benchmarks/target/benchmarks.jar
cli=samples/loopx-cli/target/loopx
[ -f "$jar" ] && [ -x "$cli" ] || mvn -B -q -DskipTests package -pl benchmarks,samples/loopx-cli -am
out=benchmarks/target/scaling
mkdir -p "$out"
echo "| installed | state.json | list wall (median) | list peak | one more install (median of 5) |"
echo "|---:|---:|---:|---:|---:|"
for n in "${@:-1 10 100 1000}"; do
  for count in $n; do
    dir="$out/n$count"
    rm -rf "$dir"
    java -cp "$jar" io.loopx.benchmarks.ScalingFixture "$dir" "$count" 5
    root="$dir/root"
    size=$(stat -c %s "$root/extensions/state.json")
    report=$(farm-bench -n 10 --warmup 1 -- "$cli" extension list --runtime-root "$root")
    wall=$(awk '$1 == "A" && $2 == "wall" {print $5}' <<< "$report")
    peak=$(awk '$1 == "A" && $2 == "peak" {print $5}' <<< "$report")
    times=()
    for k in 1 2 3 4 5; do
      pkg="$dir/extra-$k"
      mkdir -p "$pkg/bin"
      cp "$dir/packages/scale-ext-0000/bin/provider" "$pkg/bin/provider"
      sed -e "s/scale-ext-0000/scale-extra-$k/" -e 's/^version = .*/version = "1.0.0"/' \
        "$dir/packages/scale-ext-0000/extension.toml" > "$pkg/extension.toml"
      start=$(date +%s%N)
      "$cli" extension install --execute --manifest "$pkg/extension.toml" --runtime-root "$root" \
        > /dev/null
      times+=($(( ($(date +%s%N) - start) / 1000000 )))
    done
    install=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
    echo "| $count | $((size / 1024)) KB | ${wall} s | ${peak} MiB | ${install} ms |"
  done
done
