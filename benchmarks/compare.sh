#!/usr/bin/env bash
# Runs the benchmarks (benchmarks/run.sh, same arguments and JMH_OPTS) and compares every ratio with
# the committed ratios of a quiet run in benchmarks/baseline.tsv: a ratio more than 25 % worse than
# its baseline is flagged and the script exits 1 (docs/PERFORMANCE.md#regressions).
# Usage: benchmarks/compare.sh [JMH regex]     (BENCH_NO_RUN=1: compare the last run's results only)
#        benchmarks/compare.sh --write-baseline "HEADER"   (replace the baseline with the last run's)
set -euo pipefail
cd "$(dirname "$0")/.."
jar=benchmarks/target/benchmarks.jar
results=benchmarks/target/results/latest.json
if [ "${1:-}" = "--write-baseline" ]; then
  java -cp "$jar" io.loopx.benchmarks.RatioBaseline write "$results" benchmarks/baseline.tsv "$2"
  exit 0
fi
[ -n "${BENCH_NO_RUN:-}" ] || benchmarks/run.sh "$@"
java -cp "$jar" io.loopx.benchmarks.RatioBaseline check benchmarks/baseline.tsv "$results"
