#!/usr/bin/python3
# A LoopX provider in standard-library Python for ProviderConformanceTest: one-shot, doctor and
# worker mode, verifying its execution envelope when it implements a capability. The file `break`
# beside `bin/` names one way to break the protocol (see BREAKS in the test), so that each broken
# provider fails exactly the check it breaks. Canonical JSON here is json.dumps with sorted keys,
# which equals RFC 8785 only for the ASCII keys, strings and small integers the test sends.
import hashlib
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LIMIT = 1000000
ACTION = "demo.write"
SCOPE = {"target": "notes"}
FIELDS = {"schema_version", "action", "scope", "extension", "request_digest"}


def broken():
    try:
        with open(os.path.join(ROOT, "break")) as f:
            return f.read().strip()
    except OSError:
        return ""


BREAK = broken()
IMPLEMENTS = os.path.exists(os.path.join(ROOT, "implements"))
AS_WORKER = "--loopx-worker" in sys.argv[1:]


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def refusal(message):
    return {"ok": False, "error": message}


def envelope_problem(request):
    if BREAK == "trusts_envelope_as_worker" and AS_WORKER:
        return None
    envelope = request.get("execution_envelope")
    if not isinstance(envelope, dict) or set(envelope) != FIELDS:
        return "execution envelope fields do not match the schema"
    if BREAK == "trusts_envelope":
        return None
    bare = {k: v for k, v in request.items() if k != "execution_envelope"}
    digest = "sha256:" + hashlib.sha256(canonical(bare)).hexdigest()
    extension = envelope["extension"]
    if (envelope["schema_version"] != "loopx_extension_execution_envelope_v0"
            or envelope["action"] != ACTION
            or envelope["scope"] != SCOPE
            or not isinstance(extension, dict)
            or extension != {"id": os.environ.get("LOOPX_EXTENSION_ID"),
                             "revision": os.environ.get("LOOPX_EXTENSION_REVISION")}
            or envelope["request_digest"] != digest):
        return "execution envelope does not match the operation"
    return None


def answer(request):
    """Returns (response, exit code) for one request object."""
    if not isinstance(request, dict):
        return refusal("the request is not an object"), 1
    if IMPLEMENTS:
        problem = envelope_problem(request)
        if problem:
            return refusal(problem), 1
        with open(os.environ["EFFECT_MARKER"], "w") as f:
            f.write("effect")
    return {"ok": True, "echo": request.get("text")}, 0


def write(data):
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def one_shot():
    data = sys.stdin.buffer.read(LIMIT + 1)
    if BREAK == "small_cap" and len(data) > 4096:
        sys.exit(3)
    if BREAK == "slow":
        time.sleep(30)
    response, code = answer(json.loads(data))
    if BREAK == "two_objects":
        write(b'{"ok":true}\n')
    if BREAK == "latin1":
        write(json.dumps({"ok": True, "text": "caf\u00e9"}, ensure_ascii=False).encode("latin-1"))
        sys.exit(0)
    write(json.dumps(response).encode())
    sys.exit(code)


def worker():
    if BREAK == "bad_handshake":
        write(b'{"hello":"not a handshake"}\n')
    else:
        # Optional features, one unknown to the host: verify accepts them (worker.md#start).
        features = ["trace_context", "Not-A-Feature"] if BREAK == "bad_features" else ["trace_context", "some_future_feature"]
        handshake = {"schema_version": "loopx_worker_handshake_v0",
                     "protocol": os.environ["LOOPX_WORKER_PROTOCOL"], "pid": os.getpid(),
                     "features": features}
        write(json.dumps(handshake).encode() + b"\n")
    for line in sys.stdin.buffer:
        frame = json.loads(line)
        response, _ = answer(frame["request"])
        out = json.dumps({"id": frame["id"], "response": response}).encode() + b"\n"
        write(out)
        if BREAK == "double_response":
            write(out)
    if BREAK == "no_exit_on_eof":
        time.sleep(30)
    sys.exit(0)


args = sys.argv[1:]
if "--doctor" in args:
    if BREAK == "doctor_fails":
        sys.exit(2)
    if BREAK == "doctor_writes":
        with open(os.path.join(os.environ["HOME"], ".provider-cache"), "w") as f:
            f.write("x")
    sys.exit(0)
if "--loopx-worker" in args:
    worker()
else:
    one_shot()
