#!/usr/bin/env bash
# Runs the JMH benchmarks with settings for a 2-core machine and writes the results table (each
# LoopX path against its baseline, measured in the same run) to benchmarks/target/results/:
# latest.json (JMH), latest.txt (JMH log), latest.md (machine + table, as in docs/PERFORMANCE.md).
# Usage: benchmarks/run.sh [JMH regex, default: all]
# Other JMH settings: JMH_OPTS="-f 3 -wi 3 -w 1s -i 6 -r 1s" benchmarks/run.sh ProcessRunner
set -euo pipefail
cd "$(dirname "$0")/.."
jar=benchmarks/target/benchmarks.jar
# Build the jar from these sources (set BENCH_NO_BUILD=1 to reuse the last one).
[ -n "${BENCH_NO_BUILD:-}" ] && [ -f "$jar" ] || mvn -B -q -DskipTests package -pl benchmarks -am
out=benchmarks/target/results
mkdir -p "$out"
# Default: two forks, 3 x 2 s warm-up and 5 x 2 s measurement per method, one thread (on two cores
# a second benchmark thread would compete with the JIT and GC threads and the measured processes).
# shellcheck disable=SC2086
java -jar "$jar" "${1:-.*}" ${JMH_OPTS:--f 2 -wi 3 -w 2s -i 5 -r 2s} -t 1 \
  -rf json -rff "$out/latest.json" | tee "$out/latest.txt"
{
  echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'),"\
       "$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM, Linux $(uname -r),"\
       "$(java -version 2>&1 | head -1), $(date -u +%Y-%m-%d)."
  echo
  java -cp "$jar" io.loopx.benchmarks.ResultsTable "$out/latest.json"
} > "$out/latest.md"
echo
cat "$out/latest.md"
