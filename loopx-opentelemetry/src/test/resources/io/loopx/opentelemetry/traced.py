#!/usr/bin/python3
# A LoopX provider in standard-library Python that reports the W3C trace context it received
# (docs/contract/run.md#trace-context): one-shot from TRACEPARENT / TRACESTATE, as a warm worker
# (--loopx-worker, with "trace_context" announced in its handshake) from each frame's "trace".
# Its doctor probe (--doctor) notes TRACEPARENT in the file doctor-traceparent beside bin/.
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


args = sys.argv[1:]
if "--doctor" in args:
    path = os.path.join(ROOT, "doctor-traceparent")
    with open(path + ".tmp", "w") as f:
        f.write(os.environ.get("TRACEPARENT", "none"))
    os.rename(path + ".tmp", path)
    sys.exit(0)
if "--loopx-worker" not in args:
    json.load(sys.stdin)
    trace = None
    if "TRACEPARENT" in os.environ:
        trace = {"traceparent": os.environ["TRACEPARENT"]}
        if "TRACESTATE" in os.environ:
            trace["tracestate"] = os.environ["TRACESTATE"]
    send({"ok": True, "path": "one_shot", "trace": trace})
    sys.exit(0)
send({"schema_version": "loopx_worker_handshake_v0", "protocol": "demo_recall_v0",
      "pid": os.getpid(), "features": ["trace_context"]})
for line in sys.stdin:
    frame = json.loads(line)
    send({"id": frame["id"],
          "response": {"ok": True, "path": "worker", "pid": os.getpid(), "trace": frame.get("trace")}})
