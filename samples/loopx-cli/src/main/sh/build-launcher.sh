#!/bin/sh
# Run by the build (package phase, after the shaded jar): puts the `loopx` launcher beside
# target/loopx.jar and dumps its class-data archive, target/loopx.jsa, from one training run of
# `extension list` over a scratch runtime root holding one installed shell-script extension.
# Usage: build-launcher.sh JAVA SOURCE_DIR TARGET_DIR
set -eu
java=$1
source_dir=$2
target=$(CDPATH='' cd -- "$3" && pwd)
cp "$source_dir/loopx" "$target/loopx"
chmod 755 "$target/loopx"
training="$target/cds-training"
rm -rf "$training" "$target/loopx.jsa"
mkdir -p "$training/package/bin"
cat > "$training/package/bin/provider" <<'SCRIPT'
#!/bin/sh
[ "${1:-}" = "--doctor" ] && exit 0
cat > /dev/null
echo '{"ok":true}'
SCRIPT
chmod 755 "$training/package/bin/provider"
cat > "$training/package/extension.toml" <<'TOML'
schema_version = "loopx_extension_manifest_v0"
id = "cds-training"
version = "1.0.0"
requires_loopx_api = ">=1,<2"
title = "Training"
permissions = ["training.read"]
[runtime]
protocol = "training_v0"
entrypoint = "bin/provider"
doctor_args = ["--doctor"]
required_permissions = ["training.read"]
timeout_seconds = 30
TOML
quiet="-Xlog:disable -Xlog:all=warning:stderr"
# shellcheck disable=SC2086
"$java" $quiet -jar "$target/loopx.jar" extension install --execute \
  --manifest "$training/package/extension.toml" --runtime-root "$training/root" > /dev/null
# shellcheck disable=SC2086
"$java" "-XX:ArchiveClassesAtExit=$target/loopx.jsa" $quiet '-Xlog:cds*=off:stderr' \
  -XX:TieredStopAtLevel=1 -jar "$target/loopx.jar" extension list \
  --runtime-root "$training/root" > /dev/null
rm -rf "$training"
