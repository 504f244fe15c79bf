#!/usr/bin/env bash
# Runs the JMH benchmarks with settings for a 2-core machine and prints each result with its
# baseline. Usage: benchmarks/run.sh [JMH regex, default: all]   (build first: mvn -DskipTests package)
set -euo pipefail
cd "$(dirname "$0")/.."
jar=benchmarks/target/benchmarks.jar
[ -f "$jar" ] || mvn -B -q -DskipTests package -pl benchmarks -am
mkdir -p benchmarks/target/results
java -jar "$jar" "${1:-.*}" -f 1 -wi 3 -w 2s -i 5 -r 2s -t 1 \
  -rf json -rff benchmarks/target/results/latest.json | tee benchmarks/target/results/latest.txt
