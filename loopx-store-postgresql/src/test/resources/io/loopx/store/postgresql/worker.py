#!/usr/bin/python3
# A LoopX provider that is also a warm worker (docs/contract/worker.md), in standard-library
# Python: the part of loopx-runtime's test worker (io/loopx/runtime/worker/worker.py) that the
# fleet tests need. It answers every request with its pid and the revision it was started for.
import json
import os
import sys


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def response():
    return {"ok": True, "pid": os.getpid(), "revision": os.environ.get("LOOPX_EXTENSION_REVISION")}


args = sys.argv[1:]
if "--doctor" in args:
    sys.exit(0)
if "--loopx-worker" not in args:
    json.load(sys.stdin)
    send(response())
    sys.exit(0)

send({"schema_version": "loopx_worker_handshake_v0", "protocol": "demo_recall_v0", "pid": os.getpid()})
for line in sys.stdin:
    frame = json.loads(line)
    send({"id": frame["id"], "response": response()})
