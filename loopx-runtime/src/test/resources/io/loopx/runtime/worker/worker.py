#!/usr/bin/python3
# A LoopX provider that is also a warm worker (docs/contract/worker.md), in standard-library
# Python, so that the worker protocol stays language-neutral. Its behaviour comes from the file
# `mode` beside `bin/` (read once per process), so that tests change it without changing the
# runtime identity. Every request it receives is noted in `seen/` (one file per request).
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def mode():
    try:
        with open(os.path.join(ROOT, "mode")) as f:
            return f.read().strip()
    except OSError:
        return "ok"


def note(name):
    # Written then renamed, like mark(): a test that sees the file also reads the pid in it.
    mark(name, os.getpid())


def mark(name, value):
    seen = os.path.join(ROOT, "seen")
    os.makedirs(seen, exist_ok=True)
    with open(os.path.join(seen, name + ".tmp"), "w") as f:
        f.write(str(value))
    os.rename(os.path.join(seen, name + ".tmp"), os.path.join(seen, name))


def allocate(megabytes):
    """Allocates and touches `megabytes` MiB in 16 MiB chunks (every page written), and keeps it."""
    chunks = []
    for _ in range(0, megabytes, 16):
        chunk = bytearray(16 * 1024 * 1024)
        for i in range(0, len(chunk), 4096):
            chunk[i] = 1
        chunks.append(chunk)
    return chunks


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


args = sys.argv[1:]
if "--doctor" in args:
    sys.exit(0)
if "--loopx-worker" not in args:
    request = json.load(sys.stdin)
    if request.get("sleep"):
        # Starts a grandchild, notes both pids, then sleeps: only LoopX can end this tree early.
        grandchild = subprocess.Popen(["sleep", "600"])
        mark(request["tag"] + ".child", grandchild.pid)
        mark(request["tag"], os.getpid())
        time.sleep(600)
    kept = allocate(request.get("allocate_mb", 0))
    send({"ok": True, "one_shot": True, "pid": os.getpid(), "allocated": len(kept) * 16,
          "traceparent": os.environ.get("TRACEPARENT"), "tracestate": os.environ.get("TRACESTATE")})
    sys.exit(0)

m = mode()
if m == "exit-at-start":
    sys.exit(4)
if m == "refuse":
    send({"hello": "not a handshake"})
    time.sleep(600)
    sys.exit(0)
if m == "stray":
    # A library's progress line on stdout before the handshake: ESC, a tab, then the handshake.
    sys.stdout.write("loading model \x1b[1m42%\tdone\n")
    send({"schema_version": "loopx_worker_handshake_v0", "protocol": "demo_recall_v0", "pid": os.getpid()})
    time.sleep(600)
    sys.exit(0)
if m == "bad-features":
    send({"schema_version": "loopx_worker_handshake_v0", "protocol": "demo_recall_v0", "pid": os.getpid(),
          "features": "trace_context"})
    time.sleep(600)
    sys.exit(0)
if m == "silent":
    time.sleep(600)
    sys.exit(0)
send({"schema_version": "loopx_worker_handshake_v0", "protocol": "demo_recall_v0", "pid": os.getpid()})
if m == "child":
    grandchild = subprocess.Popen(["sleep", "600"])
    mark("grandchild", grandchild.pid)
served = 0
for line in sys.stdin:
    frame = json.loads(line)
    if sorted(frame) != ["id", "request"]:
        # A deployed worker of today's handshake refuses frame keys it does not know.
        sys.stderr.write("unknown frame keys: %s\n" % sorted(frame))
        sys.exit(5)
    rid = frame["id"]
    request = frame["request"]
    served += 1
    note(str(request.get("tag", rid)))
    if m == "die-first":
        sys.exit(3)  # ends before answering its first request
    envelope = request.get("execution_envelope", {})
    response = {
        "ok": True,
        "pid": os.getpid(),
        "served": served,
        "revision": os.environ.get("LOOPX_EXTENSION_REVISION"),
        "envelope_revision": envelope.get("extension", {}).get("revision"),
        "env_traceparent": os.environ.get("TRACEPARENT"),
    }
    if request.get("allocate_mb"):
        response["allocated"] = len(allocate(request["allocate_mb"])) * 16
    if request.get("spawn"):
        grandchild = subprocess.Popen(["sleep", "600"])
        mark(str(request["tag"]) + ".child", grandchild.pid)
        continue  # never answers: only LoopX can end this tree
    if m == "exit":
        sys.exit(3)  # ends on its own, without answering
    if m in ("hang", "child") or request.get("hang"):
        continue
    if request.get("until"):
        while not os.path.exists(os.path.join(ROOT, request["until"])):
            time.sleep(0.01)
    if m == "malformed":
        sys.stdout.write("this is not a frame\n")
        sys.stdout.flush()
        continue
    if m == "unknown-id":
        send({"id": "999999", "response": response})
        continue
    if m == "big":
        response["padding"] = "x" * 1_100_000
    if m == "deaf-hop":
        # A pid hopper: its parent shell exits at once, so it is reparented away from the worker
        # and has no parent-death signal; only its cgroup can end it when the host dies.
        hop = subprocess.run(
            ["sh", "-c", "sleep 600 < /dev/null > /dev/null 2>&1 & echo $!"],
            stdout=subprocess.PIPE, text=True).stdout
        response["hop"] = int(hop.strip())
    send({"id": rid, "response": response})
    if m in ("deaf", "deaf-hop"):
        time.sleep(600)  # ignores stdin from now on: only the kernel can end it with its host
    if m == "twice":
        send({"id": rid, "response": response})
