#!/usr/bin/env bash
# Proves the release profile's output (docs/RELEASING.md), on a fresh clone:
#   1. key       a throwaway PGP key (gpg --batch, temporary GNUPGHOME, no passphrase) in MAVEN_GPG_KEY
#   2. release   mvn -B -Prelease -DskipTests clean deploy  -> target/release-repo (a file repository);
#                with --reuse-build, deploy without clean: the checkout's own build output (from the
#                `mvn -B verify` just run on it, as .ci/run does) is signed and published
#   3. artifacts every published module: jar, sources, javadoc, cyclonedx SBOM (json), pom; each
#                file signed (.asc, gpg --verify); nothing else published; nothing of LoopX
#                written to the local Maven repository
#   4. rebuild   the same commit packaged again from scratch in another directory (git archive
#                HEAD; the published modules only, -pl), every published jar (main, sources, javadoc)
#                byte-compared; the SBOMs compared with their serial number and timestamp removed
#   5. consumer  samples/consumer (not a reactor module) built with its own local repository
#                (samples/consumer/target/m2, kept between runs for third-party artifacts; io/loopx
#                removed before each run) resolving io.loopx ONLY from target/release-repo
#   6. dispatch  the consumer run on the module path: a governed built-in dispatch, receipt printed
#   7. sbom      loopx-runtime's SBOM lists exactly its runtime dependencies, each with a license
# Usage: build-checks/release-check.sh [--reuse-build] [extra Maven arguments, e.g. -o once plugins
#        are cached; the release and rebuild stages ignore -o: deploy and makeBom refuse offline mode]
#        --reuse-build: the checkout was just built (`mvn -B verify`, nothing changed since), so the
#        release stage reuses that output instead of cleaning and compiling again (.ci/run). The
#        rebuild stage still compiles everything from scratch and must match byte for byte, so a
#        stale or different output fails the check as any irreproducible one does.
# Needs: JDK 17+, Maven 3.8+, gpg (GnuPG 2.1+), git, python3; Maven Central for the first run.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
REUSE_BUILD=no
if [ "${1:-}" = --reuse-build ]; then
  REUSE_BUILD=yes
  shift
fi
MVN_ARGS=("$@")
# maven-deploy-plugin refuses to run offline, even to a file repository, and cyclonedx's makeBom
# skips itself offline: the release and rebuild stages drop -o (they download nothing once their
# plugins are cached); the consumer stage keeps it
RELEASE_ARGS=()
for arg in "$@"; do
  case "$arg" in -o | --offline) ;; *) RELEASE_ARGS+=("$arg") ;; esac
done
REPO="$ROOT/target/release-repo"
OUT="$ROOT/target/release-check"
CONSUMER="$ROOT/samples/consumer"
CONSUMER_M2="$CONSUMER/target/m2"
LOCAL_M2="${MAVEN_LOCAL_REPOSITORY:-$HOME/.m2/repository}"
VERSION="$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1)"
JAR_MODULES=(loopx-api loopx-registry loopx-runtime loopx-testkit loopx-scaffold loopx-store-postgresql
  loopx-micrometer loopx-opentelemetry loopx-spring-boot-starter)
POM_MODULES=(loopx-parent loopx-bom)
# the rebuild stage builds only these (-pl): it compares nothing else
PUBLISHED_PL="$(printf ':%s,' "${POM_MODULES[@]}" "${JAR_MODULES[@]}")"
PUBLISHED_PL="${PUBLISHED_PL%,}"
# module directory of each published artifact (loopx-parent is the root)
module_dir() { if [ "$1" = loopx-parent ]; then echo "$ROOT"; else echo "$ROOT/$1"; fi; }

TIMES=()
stage_start() { STAGE="$1"; STAGE_T0=$(date +%s%N); echo; echo "=== release-check: $STAGE"; }
stage_end() {
  local ms=$(( ($(date +%s%N) - STAGE_T0) / 1000000 ))
  TIMES+=("$(awk -v n="$STAGE" -v ms="$ms" 'BEGIN { printf "%-10s %7.1f s", n, ms / 1000 }')")
  echo "=== release-check: $STAGE done in $(awk -v ms="$ms" 'BEGIN { printf "%.1f", ms / 1000 }') s"
}
fail() { echo "release-check: FAIL ($STAGE): $*" >&2; exit 1; }
for tool in gpg mvn java git python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "release-check: $tool is required" >&2; exit 1; }
done

WORK="$(mktemp -d)"
cleanup() { gpgconf --homedir "$WORK/gnupg" --kill all >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT

# --- 1. key ---------------------------------------------------------------------------------
stage_start key
export GNUPGHOME="$WORK/gnupg"
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key \
  'LoopX release check (throwaway) <release-check@invalid>' ed25519 sign 1d 2>/dev/null
MAVEN_GPG_KEY="$(gpg --batch --armor --export-secret-keys)"
export MAVEN_GPG_KEY
unset MAVEN_GPG_PASSPHRASE || true
echo "throwaway key $(gpg --batch --with-colons --list-keys | awk -F: '/^fpr/ {print $10; exit}')"
stage_end

# --- 2. release -----------------------------------------------------------------------------
stage_start release
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null || true)" ]; then
  echo "release-check: WARNING: uncommitted changes; the rebuild stage packages HEAD" >&2
fi
MARKER="$WORK/marker"
touch "$MARKER"
LOCAL_HAD_LOOPX=no
[ -e "$LOCAL_M2/io/loopx" ] && LOCAL_HAD_LOOPX=yes
GOALS=(clean deploy)
if [ "$REUSE_BUILD" = yes ]; then
  # no clean: compile, tests' compile, jars and Javadoc are up to date from `mvn -B verify` (the
  # plugins' own up-to-date checks; no JaCoCo report again: -Djacoco.skip); a file repository
  # left by an earlier run would mix with this one's artifacts
  GOALS=(deploy)
  rm -rf "$REPO"
  echo "reusing the checkout's build output (--reuse-build): mvn ... deploy, no clean"
fi
mvn -B -Prelease -DskipTests -Djacoco.skip=true ${RELEASE_ARGS[@]+"${RELEASE_ARGS[@]}"} "${GOALS[@]}" >"$WORK/release.log" 2>&1 \
  || { tail -60 "$WORK/release.log" >&2; fail "mvn -Prelease deploy failed"; }
mkdir -p "$OUT"
cp "$WORK/release.log" "$OUT/release.log"
stage_end

# --- 3. artifacts ---------------------------------------------------------------------------
stage_start artifacts
published_file() { # artifactId suffix -> the deployed file (timestamped snapshot or release)
  local dir="$REPO/io/loopx/$1/$VERSION" f
  f="$(ls "$dir"/"$1"-*"$2" 2>/dev/null | grep -E "/$1-[0-9][^/]*$2\$" | grep -v -E -- '-(sources|javadoc|cyclonedx|tests)' | sort | tail -1 || true)"
  [ "$2" = .jar ] || [ "$2" = .pom ] || f="$(ls "$dir"/"$1"-*"$2" 2>/dev/null | sort | tail -1 || true)"
  echo "$f"
}
expected="$(printf '%s\n' "${JAR_MODULES[@]}" "${POM_MODULES[@]}" | sort)"
actual="$(ls "$REPO/io/loopx" | sort)"
[ "$expected" = "$actual" ] || fail "published artifacts are [$(echo $actual)], expected [$(echo $expected)]"
printf '%-34s %-16s %10s\n' artifact file bytes | tee "$OUT/artifacts.txt"
total=0
for a in "${JAR_MODULES[@]}" "${POM_MODULES[@]}"; do
  suffixes=(.pom -cyclonedx.json)
  case " ${JAR_MODULES[*]} " in *" $a "*) suffixes=(.jar -sources.jar -javadoc.jar .pom -cyclonedx.json) ;; esac
  for s in "${suffixes[@]}"; do
    f="$(published_file "$a" "$s")"
    [ -n "$f" ] && [ -s "$f" ] || fail "$a: no $s published"
    size=$(stat -c %s "$f")
    total=$((total + size))
    printf '%-34s %-16s %10d\n' "$a" "${s#-}" "$size" | tee -a "$OUT/artifacts.txt"
  done
done
echo "total $total bytes" | tee -a "$OUT/artifacts.txt"
signed=0
while IFS= read -r f; do
  [ -f "$f.asc" ] || fail "$(basename "$f") has no signature (.asc)"
  gpg --batch --quiet --verify "$f.asc" "$f" 2>"$WORK/verify.txt" \
    || { cat "$WORK/verify.txt" >&2; fail "gpg --verify failed on $(basename "$f")"; }
  signed=$((signed + 1))
done < <(find "$REPO" -type f ! -name '*.asc' ! -name '*.md5' ! -name '*.sha1' ! -name '*.sha256' \
           ! -name '*.sha512' ! -name 'maven-metadata*' | sort)
echo "$signed files, each with a good signature (gpg --verify)"
# what Central requires of every POM (inherited from loopx-parent where a module has no own)
poms=()
for a in "${JAR_MODULES[@]}" "${POM_MODULES[@]}"; do poms+=("$(published_file "$a" .pom)"); done
python3 - "$(published_file loopx-parent .pom)" "${poms[@]}" <<'EOF' || fail "a POM lacks what Central requires"
import sys
import xml.etree.ElementTree as ET
ns = {"m": "http://maven.apache.org/POM/4.0.0"}
required = ["m:name", "m:description", "m:url", "m:licenses/m:license/m:name",
            "m:licenses/m:license/m:url", "m:developers/m:developer/m:name", "m:scm/m:url",
            "m:scm/m:connection"]
parent = ET.parse(sys.argv[1]).getroot()
bad = []
for path in sys.argv[2:]:
    pom = ET.parse(path).getroot()
    inherits = pom.find("m:parent/m:artifactId", ns) is not None
    for key in required:
        value = pom.find(key, ns)
        if value is None and inherits and key not in ("m:name", "m:description"):
            value = parent.find(key, ns)
        if value is None or not (value.text or "").strip():
            bad.append(f"{path.rsplit('/', 1)[-1]}: no {key.replace('m:', '')}")
print("\n".join(bad) if bad else f"{len(sys.argv) - 2} POMs: name, description, url, license, developers, scm")
sys.exit(1 if bad else 0)
EOF
# deploy caches the file repository's metadata (maven-metadata-loopx-release.xml) in the local
# repository, as every deploy does; no artifact may be installed there
if [ -d "$LOCAL_M2/io/loopx" ]; then
  leaked="$(find "$LOCAL_M2/io/loopx" -newer "$MARKER" -type f ! -name 'maven-metadata-loopx-release.xml*' \
    ! -name 'resolver-status.properties' | head -5)"
  [ -z "$leaked" ] || fail "the release build wrote LoopX artifacts into $LOCAL_M2: $leaked"
  # remove the metadata cache when this run created io/loopx there
  [ "$LOCAL_HAD_LOOPX" = yes ] || rm -rf "$LOCAL_M2/io/loopx"
fi
echo "no io.loopx artifact written to the local repository ($LOCAL_M2)"
stage_end

# --- 4. rebuild -----------------------------------------------------------------------------
stage_start rebuild
REBUILD="$WORK/rebuild"
mkdir -p "$REBUILD"
if git rev-parse --git-dir >/dev/null 2>&1; then
  git archive --format=tar HEAD | tar -x -C "$REBUILD"
  echo "second build: $(git rev-parse --short HEAD) exported to another directory"
else
  tar -c --exclude=./target --exclude='*/target' . | tar -x -C "$REBUILD"
fi
# the published modules only: the samples, build-checks and benchmarks publish nothing to compare;
# no test is compiled either (-Dmaven.test.skip): the compared jars hold none
(cd "$REBUILD" && mvn -B -Prelease -Dmaven.test.skip=true -Dgpg.skip -pl "$PUBLISHED_PL" \
  ${RELEASE_ARGS[@]+"${RELEASE_ARGS[@]}"} package) \
  >"$OUT/rebuild.log" 2>&1 || { tail -60 "$OUT/rebuild.log" >&2; fail "second package failed"; }
compared=0
for a in "${JAR_MODULES[@]}"; do
  for s in .jar -sources.jar -javadoc.jar; do
    cmp -s "$(published_file "$a" "$s")" "$REBUILD/$a/target/$a-$VERSION$s" \
      || fail "$a$s differs between two builds of the same commit (not reproducible)"
    compared=$((compared + 1))
  done
done
sboms=0
for a in "${JAR_MODULES[@]}" "${POM_MODULES[@]}"; do
  python3 - "$(published_file "$a" -cyclonedx.json)" \
    "$(module_dir "$a" | sed "s:^$ROOT:$REBUILD:")/target/$a-$VERSION-cyclonedx.json" <<'EOF' \
    || fail "$a's SBOM differs beyond serial number and timestamp"
import json, sys
def norm(path):
    bom = json.load(open(path))
    bom.pop("serialNumber", None)
    bom.get("metadata", {}).pop("timestamp", None)
    return bom
sys.exit(0 if norm(sys.argv[1]) == norm(sys.argv[2]) else 1)
EOF
  sboms=$((sboms + 1))
done
echo "$compared jars byte-identical, $sboms SBOMs equal (serial number and timestamp aside)"
stage_end

# --- 5. consumer ----------------------------------------------------------------------------
stage_start consumer
rm -rf "$CONSUMER_M2/io/loopx" "$CONSUMER/target/classes" "$CONSUMER/target/lib" \
  "$CONSUMER/target/maven-status" "$CONSUMER"/target/*.jar
# offline (-o) still reads the file repository
mvn -B -f "$CONSUMER/pom.xml" -Dmaven.repo.local="$CONSUMER_M2" -Dloopx.repo.url="file:$REPO" \
  -Daether.offline.protocols=file ${MVN_ARGS[@]+"${MVN_ARGS[@]}"} package >"$OUT/consumer.log" 2>&1 \
  || { tail -60 "$OUT/consumer.log" >&2; fail "the consumer project did not build"; }
while IFS= read -r f; do
  if grep -q -v -E '^#|>loopx-release=$' "$f"; then
    fail "$f: a LoopX artifact not from the file repository"
  fi
done < <(find "$CONSUMER_M2/io/loopx" -name _remote.repositories)
for a in loopx-api loopx-registry loopx-runtime; do
  cmp -s "$CONSUMER/target/lib/$a-$VERSION.jar" "$(published_file "$a" .jar)" \
    || fail "the consumer's $a is not the published jar"
done
echo "io.loopx resolved only from $REPO ($(find "$CONSUMER_M2/io/loopx" -name '*.jar' | wc -l) jars)"
stage_end

# --- 6. dispatch ----------------------------------------------------------------------------
stage_start dispatch
java -p "$CONSUMER/target/lib:$CONSUMER/target/classes" \
  -m com.example.loopxconsumer/com.example.loopxconsumer.ConsumerMain | tee "$OUT/consumer-run.txt" \
  || fail "the consumer's dispatch exited non-zero"
grep -q '"ok":true' "$OUT/consumer-run.txt" || fail "no ok receipt"
stage_end

# --- 7. sbom --------------------------------------------------------------------------------
stage_start sbom
python3 - "$(published_file loopx-runtime -cyclonedx.json)" "$CONSUMER/target/lib" "$VERSION" <<'EOF' \
  | tee "$OUT/sbom-runtime.txt" || fail "loopx-runtime's SBOM is incomplete"
import json, os, sys
bom = json.load(open(sys.argv[1]))
# the consumer depends on loopx-runtime only: its lib/ is loopx-runtime's runtime closure
deps = {f[:-4] for f in os.listdir(sys.argv[2]) if f.endswith(".jar")} - {"loopx-runtime-" + sys.argv[3]}
listed, unlicensed = set(), []
for c in bom.get("components", []):
    listed.add(c["name"] + "-" + c["version"])
    names = [l.get("license", {}).get("id") or l.get("license", {}).get("name") or l.get("expression")
             for l in c.get("licenses", [])]
    if not any(names):
        unlicensed.append(c["name"])
    print(f'  {c.get("group", "")}:{c["name"]}:{c["version"]}  {", ".join(n for n in names if n)}')
missing, extra = sorted(deps - listed), sorted(listed - deps)
print(f"loopx-runtime SBOM: {len(listed)} components, {len(deps)} runtime dependencies")
if missing or extra or unlicensed:
    print(f"missing {missing} extra {extra} without a license {unlicensed}")
    sys.exit(1)
print("every runtime dependency listed, each with a license")
EOF
stage_end

echo
echo "=== release-check: OK ($VERSION; artifacts in target/release-repo, reports in target/release-check)"
printf '  %s\n' "${TIMES[@]}" | tee "$OUT/times.txt"
