#!/usr/bin/python3
# A LoopX provider in standard-library Python (docs/contract/run.md, worker.md): one-shot by
# default, a warm worker when started with --loopx-worker. A request with "until": NAME is answered
# once the file NAME exists beside bin/; every request a worker receives is noted in seen/<tag>.
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def answer(request):
    if request.get("until"):
        while not os.path.exists(os.path.join(ROOT, request["until"])):
            time.sleep(0.01)
    return {"ok": True, "pid": os.getpid()}


args = sys.argv[1:]
if "--doctor" in args:
    sys.exit(0)
if "--loopx-worker" not in args:
    send(answer(json.load(sys.stdin)))
    sys.exit(0)
send({"schema_version": "loopx_worker_handshake_v0", "protocol": "demo_recall_v0", "pid": os.getpid()})
for line in sys.stdin:
    frame = json.loads(line)
    request = frame["request"]
    seen = os.path.join(ROOT, "seen")
    os.makedirs(seen, exist_ok=True)
    with open(os.path.join(seen, str(request.get("tag", frame["id"]))), "w") as f:
        f.write(str(os.getpid()))
    send({"id": frame["id"], "response": answer(request)})
