#!/usr/bin/python3
# A standard-library Python warm worker of protocol word_count_v0 for ProviderBusyTest: it answers
# a request once the file named by its "until" key exists beside bin/ (the test holds the pool's
# one slot with it). It verifies no envelope: a test fixture, not a provider to copy.
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


args = sys.argv[1:]
if "--doctor" in args:
    sys.exit(0)
if "--loopx-worker" not in args:
    sys.exit(1)
send({"schema_version": "loopx_worker_handshake_v0", "protocol": "word_count_v0", "pid": os.getpid()})
for line in sys.stdin:
    frame = json.loads(line)
    until = frame["request"].get("until")
    while until and not os.path.exists(os.path.join(ROOT, until)):
        time.sleep(0.01)
    send({"id": frame["id"], "response": {"ok": True, "worker_pid": os.getpid()}})
