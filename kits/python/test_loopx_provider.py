"""Tests of loopx_provider.py against the repository's language-neutral vectors (unittest only).

Run from anywhere: ``python3 -m unittest discover -s kits/python -v``. The JUnit test
PythonKitTest runs it in ``mvn verify``.
"""

import io
import json
import os
import struct
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import loopx_provider as k  # noqa: E402

VECTORS = os.path.join(ROOT, "docs", "contract", "vectors", "envelope-vectors-v1.json")
ORACLE = os.path.join(
    ROOT, "loopx-api", "src", "test", "resources", "io", "loopx", "api", "json", "es6-oracle.txt"
)


def load_vectors():
    with open(VECTORS, "rb") as f:
        return k.parse_strict(f.read())


def obj(text):
    return k.parse_object(text.encode("utf-8"))


class VectorsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.v = load_vectors()
        e = cls.v["expectation"]
        cls.expected = k.Expectation(e["action"], e["scope"], e["extension_id"], e["revision"])

    def test_version(self):
        self.assertEqual(self.v["schema_version"], "loopx_envelope_vectors_v1")
        self.assertGreaterEqual(len(self.v["canonical"]), 30)
        self.assertGreaterEqual(len(self.v["refused"]), 25)

    def test_canonical_forms_and_digests(self):
        for row in self.v["canonical"]:
            with self.subTest(row["name"]):
                request = obj(row["input"])
                self.assertEqual(k.canonical_text(request), row["canonical"])
                self.assertEqual(k.canonical_bytes(request).hex(), row["canonical_utf8_hex"])
                self.assertEqual(k.request_digest(request), row["request_digest"])
                envelope = obj(row["envelope"])
                self.assertEqual(envelope["request_digest"], row["request_digest"])
                bound = dict(request)
                bound[k.REQUEST_KEY] = envelope
                self.assertEqual(k.verify_envelope(bound, self.expected), request)

    def test_no_canonical_form(self):
        for row in self.v["no_canonical_form"]:
            with self.subTest(row["name"]):
                with self.assertRaises((k.InvalidJson, k.NoCanonicalForm)):
                    k.canonical_bytes(obj(row["input"]))

    def test_accepted(self):
        for row in self.v["accepted"]:
            with self.subTest(row["name"]):
                bare = k.verify_envelope(obj(row["bound"]), self.expected)
                self.assertNotIn(k.REQUEST_KEY, bare)
                self.assertEqual(k.canonical_text(bare), row["bare_canonical"])
                self.assertEqual(k.request_digest(bare), row["request_digest"])

    def test_refused_with_the_exact_message(self):
        for row in self.v["refused"]:
            with self.subTest(row["name"]):
                with self.assertRaises(k.EnvelopeMismatch) as caught:
                    k.verify_envelope(obj(row["bound"]), self.expected)
                self.assertEqual(str(caught.exception), row["message"])
                self.assertEqual(caught.exception.kind, "envelope_mismatch")


class NumbersTest(unittest.TestCase):
    def test_es6_oracle(self):
        count = 0
        with open(ORACLE, encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                bits, expected = line.split()
                value = struct.unpack(">d", bytes.fromhex(bits))[0]
                self.assertEqual(k.es6_number(value), expected, bits)
                count += 1
        self.assertGreater(count, 2000)

    def test_json_dumps_is_not_canonical(self):
        # The pitfalls the contract docs warn about: each differs from RFC 8785.
        for value, canonical in ((4.0, "4"), (-0.0, "0"), (1e20, "100000000000000000000"), (1e-7, "1e-7")):
            self.assertNotEqual(json.dumps(value), canonical)
            self.assertEqual(k.es6_number(value), canonical)
        keys = {"\U0001F600": 1, "\uffff": 2}
        self.assertEqual(list(json.loads(json.dumps(keys, sort_keys=True))), ["\uffff", "\U0001F600"])
        self.assertEqual(k.canonical_text(keys), '{"\U0001F600":1,"\uffff":2}')

    def test_non_finite_and_big_integers_have_no_canonical_form(self):
        for value in (float("nan"), float("inf"), -float("inf"), 2**53 + 1, -(2**53) - 1):
            with self.assertRaises(k.NoCanonicalForm):
                k.canonical_text([value])
        self.assertEqual(k.canonical_text([2**53, -(2**53), True, False, None]), "[9007199254740992,-9007199254740992,true,false,null]")


class StrictJsonTest(unittest.TestCase):
    def test_refusals(self):
        for data in (
            b'{"a":1,"a":2}',
            b'{"a":NaN}',
            b'{"a":Infinity}',
            b"\xef\xbb\xbf{}",
            b'{"a":"\\ud800"}',
            b'{"\\udc00":1}',
            b'{"a":9007199254740993}',
            b"\xff",
            b"",
            b"  ",
            b'{"a":1} x',
            b"{'a':1}",
            b'{"a":"\x01"}',
        ):
            with self.subTest(data):
                with self.assertRaises(k.InvalidJson):
                    k.parse_strict(data)

    def test_accepts_strict_json(self):
        self.assertEqual(k.parse_strict(b' {"a":[1,2.5,"\\ud83d\\ude00"]}\n'), {"a": [1, 2.5, "\U0001F600"]})
        self.assertEqual(k.parse_strict(b'{"a":9007199254740992}'), {"a": 2**53})


class EnvironmentTest(unittest.TestCase):
    SCOPE = {"path": "x"}

    def test_from_environment(self):
        e = k.Expectation.from_environment(
            "files.write", self.SCOPE, {"LOOPX_EXTENSION_ID": "demo", "LOOPX_EXTENSION_REVISION": "0123456789abcdef"}
        )
        self.assertEqual((e.extension_id, e.revision), ("demo", "0123456789abcdef"))

    def test_missing_and_invalid_variables_are_named_together(self):
        with self.assertRaises(k.EnvelopeMismatch) as caught:
            k.Expectation.from_environment("files.write", self.SCOPE, {"LOOPX_EXTENSION_REVISION": "XYZ"})
        self.assertEqual(
            str(caught.exception),
            "execution envelope cannot be verified: environment variable LOOPX_EXTENSION_ID is not set; "
            "environment variable LOOPX_EXTENSION_REVISION is invalid: invalid revision `XYZ`: "
            "must be 16 lowercase hex characters",
        )

    def test_unknown_keys_are_refused(self):
        k.refuse_unknown_keys({"a": 1}, {"a", "b"})
        with self.assertRaises(k.ProviderError) as caught:
            k.refuse_unknown_keys({"a": 1, "z": 2, "c": 3}, {"a"})
        self.assertEqual(str(caught.exception), "request has unknown keys: `c`, `z`")


def echo(request):
    if request.get("fail"):
        raise k.ProviderError("refused on purpose")
    if request.get("crash"):
        raise RuntimeError("boom")
    return {"ok": True, "echo": request}


def call(argv, stdin=b"", env=None, handle=echo, doctor=None):
    out, err = io.BytesIO(), io.BytesIO()
    code = k.main(handle, doctor, "demo_response_v0", argv, io.BytesIO(stdin), out, err, env or {})
    return code, out.getvalue(), err.getvalue()


class OneShotTest(unittest.TestCase):
    def test_ok_response(self):
        code, out, _ = call([], b'{"q":"\xc3\xa9"}')
        self.assertEqual(code, 0)
        self.assertEqual(out, '{"ok":true,"echo":{"q":"\u00e9"}}\n'.encode("utf-8"))

    def test_failures_are_one_ok_false_object(self):
        for stdin, error, code_expected in (
            (b'{"fail":true}', "refused on purpose", 1),
            (b'{"crash":true}', "provider failed: RuntimeError: boom", 1),
            (b"[1]", "request must be a JSON object: JSON input is not an object", 1),
            (b"x" * (k.MAX_REQUEST_BYTES + 1), "request exceeds the 1000000-byte limit", 1),
        ):
            with self.subTest(error):
                code, out, _ = call([], stdin)
                self.assertEqual(code, code_expected)
                self.assertTrue(out.endswith(b"\n"))
                self.assertEqual(
                    json.loads(out), {"ok": False, "schema_version": "demo_response_v0", "error": error}
                )

    def test_doctor_reads_and_writes_nothing(self):
        self.assertEqual(call(["--doctor"], b"not json")[:2], (0, b""))

        def broken():
            raise k.ProviderError("no corpus")

        code, out, err = call(["--doctor"], doctor=broken)
        self.assertEqual((code, out), (1, b""))
        self.assertIn(b"doctor failed: no corpus", err)


class WorkerTest(unittest.TestCase):
    ENV = {"LOOPX_WORKER_PROTOCOL": "demo_v0"}

    def test_handshake_frames_and_exit_on_eof(self):
        frames = b'{"id":"1","request":{"a":1}}\n{"id":"2","request":{"fail":true}}\n'
        code, out, _ = call(["--loopx-worker"], frames, self.ENV)
        self.assertEqual(code, 0)
        lines = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(lines[0]["schema_version"], "loopx_worker_handshake_v0")
        self.assertEqual(lines[0]["protocol"], "demo_v0")
        self.assertEqual(set(lines[0]), {"schema_version", "protocol", "pid", "features"})
        self.assertEqual(lines[0]["features"], ["trace_context"])
        self.assertEqual(lines[1], {"id": "1", "response": {"ok": True, "echo": {"a": 1}}})
        self.assertEqual(lines[2]["id"], "2")
        self.assertEqual(lines[2]["response"]["ok"], False)
        self.assertEqual(len(lines), 3)

    def test_a_bad_frame_ends_the_worker(self):
        for frames in (b"not json\n", b'{"id":1,"request":{}}\n', b'{"id":"1","request":{}}'):
            with self.subTest(frames):
                code, out, _ = call(["--loopx-worker"], frames, self.ENV)
                self.assertEqual(code, 1)
                self.assertEqual(len(out.splitlines()), 1)

    def test_worker_needs_the_protocol_variable(self):
        self.assertEqual(call(["--loopx-worker"], b"")[:2], (1, b""))


TP1 = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
TP2 = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"


def traced(request):
    """A handler that answers with the trace context it sees."""
    t = k.current_trace_context()
    if t is None:
        return {"ok": True, "trace": None}
    return {"ok": True, "trace": [t.traceparent, t.tracestate, t.trace_id, t.parent_id]}


class TraceContextTest(unittest.TestCase):
    ENV = {"LOOPX_WORKER_PROTOCOL": "demo_v0"}

    def test_parse_is_lenient_and_validates(self):
        self.assertEqual(k.parse_trace_context(TP1), k.TraceContext(TP1, ""))
        self.assertEqual(k.parse_trace_context(TP1, "a=1").tracestate, "a=1")
        self.assertEqual(k.parse_trace_context(TP1).trace_id, "0af7651916cd43dd8448eb211c80319c")
        self.assertEqual(k.parse_trace_context(TP1).parent_id, "b7ad6b7169203331")
        for bad in (
            None,
            "",
            TP1.upper(),
            "01" + TP1[2:],
            TP1 + "-00",
            "00-" + "0" * 32 + "-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-" + "0" * 16 + "-01",
            TP1.replace("-", "_"),
        ):
            with self.subTest(bad):
                self.assertIsNone(k.parse_trace_context(bad))
        self.assertIsNone(k.parse_trace_context(TP1, "x" * 513))
        self.assertIsNone(k.parse_trace_context(TP1, "a=\n"))

    def test_one_shot_reads_the_environment(self):
        code, out, _ = call([], b"{}", {"TRACEPARENT": TP1, "TRACESTATE": "v=1"}, handle=traced)
        self.assertEqual(code, 0)
        self.assertEqual(
            json.loads(out)["trace"],
            [TP1, "v=1", "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"],
        )
        self.assertIsNone(k.current_trace_context())  # reset after the handler

    def test_one_shot_without_or_with_an_invalid_context_has_none(self):
        for env in ({}, {"TRACEPARENT": "garbage"}, {"TRACESTATE": "v=1"}):
            with self.subTest(env):
                code, out, _ = call([], b"{}", env, handle=traced)
                self.assertEqual((code, json.loads(out)["trace"]), (0, None))

    def test_worker_gives_each_request_its_own_context(self):
        frames = (
            b'{"id":"1","request":{},"trace":{"traceparent":"' + TP1.encode() + b'"}}\n'
            b'{"id":"2","request":{}}\n'
            b'{"id":"3","request":{},"trace":{"traceparent":"' + TP2.encode()
            + b'","tracestate":"a=b"}}\n'
        )
        code, out, _ = call(["--loopx-worker"], frames, self.ENV, handle=traced)
        self.assertEqual(code, 0)
        lines = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(lines[0]["features"], ["trace_context"])
        self.assertEqual(lines[1]["response"]["trace"][:2], [TP1, ""])
        self.assertIsNone(lines[2]["response"]["trace"])
        self.assertEqual(lines[3]["response"]["trace"][:2], [TP2, "a=b"])

    def test_a_malformed_trace_is_a_malformed_frame(self):
        for trace in (
            b'"' + TP1.encode() + b'"',
            b"{}",
            b'{"traceparent":"nope"}',
            b'{"traceparent":"' + TP1.encode() + b'","tracestate":""}',
            b'{"traceparent":"' + TP1.encode() + b'","tracestate":1}',
            b'{"traceparent":"' + TP1.encode() + b'","baggage":"x"}',
        ):
            with self.subTest(trace):
                frame = b'{"id":"1","request":{},"trace":' + trace + b"}\n"
                code, out, err = call(["--loopx-worker"], frame, self.ENV, handle=traced)
                self.assertEqual(code, 1)
                self.assertEqual(len(out.splitlines()), 1)
                self.assertIn(b"malformed trace", err)


if __name__ == "__main__":
    unittest.main()
