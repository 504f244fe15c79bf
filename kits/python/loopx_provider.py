"""LoopX provider kit for Python: one standard-library-only module (Python 3.8+).

Copy this file beside your provider script. It implements, language-neutrally as documented in
docs/contract/envelope-verification.md and docs/contract/worker.md:

* strict JSON input (I-JSON: no duplicate keys, no NaN/Infinity, no lone surrogates, integers
  within +-2^53, strict UTF-8 without a byte order mark): ``parse_strict``;
* RFC 8785 canonical JSON (UTF-16 key order, minimal escaping, ECMAScript number form):
  ``canonical_bytes`` / ``canonical_text`` / ``sha256_digest``. ``json.dumps(sort_keys=True,
  separators=(",", ":"))`` is NOT canonical JSON: it writes ``4.0`` (ES6: ``4``), ``-0.0``
  (``0``), ``1e+16``..``1e+20`` (ES6 writes all digits), ``1e-07`` (``1e-7``), ``1e-06`` (``0.000001``), escapes non-ASCII
  unless ``ensure_ascii=False``, and sorts keys by code point, not by UTF-16 code unit;
* verification of ``loopx_extension_execution_envelope_v0``: ``verify_envelope`` /
  ``Expectation``;
* ``refuse_unknown_keys``: a provider refuses request keys it does not know;
* the one-shot protocol (request on stdin, one JSON object on stdout, exit 0 when ``ok`` is true),
  the ``--doctor`` probe and the warm worker protocol (``--loopx-worker``): ``run``;
* the caller's W3C trace context (docs/contract/run.md#trace-context): while a handler runs,
  ``current_trace_context()`` returns it (a ``TraceContext``: ``traceparent``, ``tracestate``,
  ``trace_id``, ``parent_id``), read from ``TRACEPARENT`` / ``TRACESTATE`` one-shot and from the
  request frame's ``trace`` in a worker (whose handshake announces ``trace_context``); else None.

A handler is a function ``handle(request: dict) -> dict``. Raise ``ProviderError`` (or let
``EnvelopeMismatch`` propagate) to answer ``{"ok": false, "schema_version": ..., "error": ...}``.
"""

import collections
import contextvars
import hashlib
import json
import math
import os
import re
import sys
import traceback

__all__ = [
    "ENVELOPE_SCHEMA",
    "REQUEST_KEY",
    "MAX_REQUEST_BYTES",
    "MAX_FRAME_BYTES",
    "LoopxError",
    "InvalidJson",
    "NoCanonicalForm",
    "EnvelopeMismatch",
    "ProviderError",
    "parse_strict",
    "canonical_bytes",
    "canonical_text",
    "sha256_digest",
    "request_digest",
    "es6_number",
    "Expectation",
    "verify_envelope",
    "refuse_unknown_keys",
    "TraceContext",
    "parse_trace_context",
    "current_trace_context",
    "main",
    "run",
]

ENVELOPE_SCHEMA = "loopx_extension_execution_envelope_v0"
REQUEST_KEY = "execution_envelope"
WORKER_HANDSHAKE_SCHEMA = "loopx_worker_handshake_v0"
FALLBACK_SCHEMA_VERSION = "loopx_provider_response_v0"
DOCTOR_FLAG = "--doctor"
WORKER_FLAG = "--loopx-worker"
WORKER_PROTOCOL_VARIABLE = "LOOPX_WORKER_PROTOCOL"
ID_VARIABLE = "LOOPX_EXTENSION_ID"
REVISION_VARIABLE = "LOOPX_EXTENSION_REVISION"
MAX_REQUEST_BYTES = 1_000_000
MAX_FRAME_BYTES = MAX_REQUEST_BYTES + 16_384 + 1_024
MAX_ERROR_CHARS = 4_096
MAX_SCOPE_BYTES = 16_384
MAX_SAFE_INTEGER = 2**53
TRACEPARENT_VARIABLE = "TRACEPARENT"
TRACESTATE_VARIABLE = "TRACESTATE"
TRACE_CONTEXT_FEATURE = "trace_context"
MAX_TRACESTATE_CHARS = 512

SCHEMA_MESSAGE = "execution envelope fields do not match the schema"
_ENVELOPE_FIELDS = {"schema_version", "action", "scope", "extension", "request_digest"}
_EXTENSION_FIELDS = {"id", "revision"}


class LoopxError(Exception):
    """A typed failure whose message is written as is into the ``error`` of a response."""

    kind = "provider_failed"


class InvalidJson(LoopxError, ValueError):
    """Input that is not strict JSON."""

    kind = "invalid_json"


class NoCanonicalForm(LoopxError, ValueError):
    """A value without RFC 8785 form (lone surrogate, non-finite or out-of-range number)."""

    kind = "invalid_value"


class EnvelopeMismatch(LoopxError):
    """The execution envelope does not bind this request to the expected operation."""

    kind = "envelope_mismatch"


class ProviderError(LoopxError):
    """A refusal or failure of the provider itself."""


# ------------------------------------------------------------------------------------------------
# Strict JSON


def _check_text(s, what):
    for ch in s:
        if "\ud800" <= ch <= "\udfff":
            raise InvalidJson("JSON input has a lone surrogate in a " + what)
    return s


def _pairs(pairs):
    obj = {}
    for key, value in pairs:
        _check_text(key, "key")
        if key in obj:
            raise InvalidJson("JSON input has a duplicate key " + json.dumps(key))
        obj[key] = value
    return obj


def _parse_int(literal):
    value = int(literal)
    if abs(value) > MAX_SAFE_INTEGER:
        raise InvalidJson("JSON input has an integer beyond +-2^53: " + literal[:64])
    return value


def _parse_constant(name):
    raise InvalidJson("JSON input has a non-JSON literal " + name)


def _check_strings(node, depth=0):
    if depth > 500:
        raise InvalidJson("JSON input nests deeper than 500 levels")
    if isinstance(node, str):
        _check_text(node, "string")
    elif isinstance(node, dict):
        for value in node.values():
            _check_strings(value, depth + 1)
    elif isinstance(node, list):
        for value in node:
            _check_strings(value, depth + 1)


def parse_strict(data):
    """Parses one strict I-JSON value from UTF-8 ``bytes`` (docs/contract/grammars.md#strict-json).

    Raises ``InvalidJson``. Numbers with a fraction or exponent become floats (``1e400`` becomes
    infinity, which has no canonical form); integer literals become ints.
    """
    if isinstance(data, str):
        raise TypeError("parse_strict reads UTF-8 bytes, not str")
    if data.startswith(b"\xef\xbb\xbf"):
        raise InvalidJson("JSON input starts with a byte order mark")
    try:
        text = bytes(data).decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        raise InvalidJson("JSON input is not valid UTF-8: " + str(e)) from None
    if not text.strip(" \t\n\r"):
        raise InvalidJson("JSON input is empty")
    try:
        value = json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_int=_parse_int,
            parse_constant=_parse_constant,
        )
    except InvalidJson:
        raise
    except (ValueError, RecursionError) as e:
        raise InvalidJson("JSON input is malformed: " + str(e)) from None
    _check_strings(value)
    return value


def parse_object(data):
    """As ``parse_strict``, and the value must be a JSON object."""
    value = parse_strict(data)
    if not isinstance(value, dict):
        raise InvalidJson("JSON input is not an object")
    return value


# ------------------------------------------------------------------------------------------------
# RFC 8785 canonical JSON

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def es6_number(value):
    """Returns ECMAScript ``Number.prototype.toString`` of a float (RFC 8785 section 3.2.2.3).

    ``repr`` already gives the shortest digits that round-trip; only the layout differs.
    """
    if math.isnan(value) or math.isinf(value):
        raise NoCanonicalForm("a number is not finite (NaN, infinity or beyond the double range)")
    if value == 0:
        return "0"  # also -0.0
    sign = "-" if value < 0 else ""
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + (int(exponent) if exponent else 0)
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    k, n = len(digits), point
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    exp = ("+" if e >= 0 else "-") + str(abs(e))
    if k == 1:
        return sign + digits + "e" + exp
    return sign + digits[0] + "." + digits[1:] + "e" + exp


def _string(s):
    out = ['"']
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch < " ":
            out.append("\\u%04x" % ord(ch))
        elif "\ud800" <= ch <= "\udfff":
            raise NoCanonicalForm("a string or key holds a lone surrogate")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _utf16_key(key):
    return key.encode("utf-16-be", errors="surrogatepass")


def _write(node, out, skip_key=None):
    if node is None:
        out.append("null")
    elif node is True:
        out.append("true")
    elif node is False:
        out.append("false")
    elif isinstance(node, int):
        if abs(node) > MAX_SAFE_INTEGER:
            raise NoCanonicalForm("an integer is beyond +-2^53")
        out.append(str(int(node)))
    elif isinstance(node, float):
        out.append(es6_number(node))
    elif isinstance(node, str):
        out.append(_string(node))
    elif isinstance(node, dict):
        out.append("{")
        first = True
        for key in sorted((k for k in node if k != skip_key), key=_utf16_key):
            if not isinstance(key, str):
                raise NoCanonicalForm("an object key is not a string")
            if not first:
                out.append(",")
            first = False
            out.append(_string(key))
            out.append(":")
            _write(node[key], out)
        out.append("}")
    elif isinstance(node, (list, tuple)):
        out.append("[")
        for i, item in enumerate(node):
            if i:
                out.append(",")
            _write(item, out)
        out.append("]")
    else:
        raise NoCanonicalForm("not a JSON value: " + type(node).__name__)


def canonical_text(node, skip_key=None):
    """Returns the RFC 8785 canonical JSON text of ``node`` (``skip_key``: a top-level key left out).

    Raises ``NoCanonicalForm``.
    """
    out = []
    _write(node, out, skip_key)
    return "".join(out)


def canonical_bytes(node, skip_key=None):
    """Returns the canonical JSON of ``node`` as UTF-8 bytes."""
    return canonical_text(node, skip_key).encode("utf-8")


def sha256_digest(node, skip_key=None):
    """Returns the digest text form: ``sha256:`` and 64 lowercase hex digits."""
    return "sha256:" + hashlib.sha256(canonical_bytes(node, skip_key)).hexdigest()


def request_digest(request):
    """The ``request_digest`` of a request: its digest without the top-level envelope key."""
    return sha256_digest(request, REQUEST_KEY)


# ------------------------------------------------------------------------------------------------
# Execution envelope


def _mismatch(field):
    return EnvelopeMismatch("execution envelope " + field + " does not match the operation")


_KEBAB = "abcdefghijklmnopqrstuvwxyz0123456789"


def _invalid_id(value):
    if not 1 <= len(value) <= 48:
        return "must be 1..48 characters of lower-kebab-case"
    groups = value.split("-")
    ok = (
        "a" <= value[0] <= "z"
        and all(g and all(c in _KEBAB for c in g) for g in groups)
    )
    return None if ok else "must be lower-kebab-case ([a-z][a-z0-9]*(-[a-z0-9]+)*)"


def _invalid_revision(value):
    ok = len(value) == 16 and all(c in "0123456789abcdef" for c in value)
    return None if ok else "must be 16 lowercase hex characters"


class Expectation:
    """What a provider expects of an envelope: its action and scope, its own id and revision."""

    def __init__(self, action, scope, extension_id, revision):
        if not isinstance(scope, dict) or not scope:
            raise ValueError("the expected scope must be a non-empty JSON object")
        self.action = action
        self.scope = scope
        self.extension_id = extension_id
        self.revision = revision
        self.canonical_scope = canonical_text(scope)
        if len(self.canonical_scope.encode("utf-8")) > MAX_SCOPE_BYTES:
            raise ValueError("the expected scope exceeds %d canonical bytes" % MAX_SCOPE_BYTES)

    @classmethod
    def from_environment(cls, action, scope, env=None):
        """Reads the id and revision from LOOPX_EXTENSION_ID / LOOPX_EXTENSION_REVISION."""
        env = os.environ if env is None else env
        problems = []
        values = []
        for name, what, check in (
            (ID_VARIABLE, "extension id", _invalid_id),
            (REVISION_VARIABLE, "revision", _invalid_revision),
        ):
            value = env.get(name)
            if value is None:
                problems.append("environment variable %s is not set" % name)
                continue
            rule = check(value)
            if rule:
                problems.append(
                    "environment variable %s is invalid: invalid %s `%s`: %s" % (name, what, value, rule)
                )
                continue
            values.append(value)
        if problems:
            raise EnvelopeMismatch("execution envelope cannot be verified: " + "; ".join(problems))
        return cls(action, scope, values[0], values[1])


def _has_shape(envelope):
    if not isinstance(envelope, dict) or set(envelope) != _ENVELOPE_FIELDS:
        return False
    extension = envelope["extension"]
    if not isinstance(envelope["scope"], dict) or not isinstance(extension, dict):
        return False
    if set(extension) != _EXTENSION_FIELDS:
        return False
    strings = (
        envelope["schema_version"],
        envelope["action"],
        envelope["request_digest"],
        extension["id"],
        extension["revision"],
    )
    return all(isinstance(s, str) for s in strings)


def verify_envelope(request, expected):
    """Verifies the request's envelope (first failure wins) and returns the bare request.

    Raises ``EnvelopeMismatch`` with exactly the contract's messages. The returned dict is the
    request without its ``execution_envelope`` key, the other keys in their order.
    """
    envelope = request.get(REQUEST_KEY) if isinstance(request, dict) else None
    if not _has_shape(envelope):
        raise EnvelopeMismatch(SCHEMA_MESSAGE)
    if envelope["schema_version"] != ENVELOPE_SCHEMA:
        raise _mismatch("schema_version")
    if envelope["action"] != expected.action:
        raise _mismatch("action")
    try:
        scope = canonical_text(envelope["scope"])
    except NoCanonicalForm:
        scope = None
    if scope != expected.canonical_scope:
        raise _mismatch("scope")
    extension = envelope["extension"]
    if extension["id"] != expected.extension_id or extension["revision"] != expected.revision:
        raise _mismatch("extension")
    try:
        digest = request_digest(request)
    except NoCanonicalForm:
        raise _mismatch("request_digest") from None
    if digest != envelope["request_digest"]:
        raise _mismatch("request_digest")
    return {k: v for k, v in request.items() if k != REQUEST_KEY}


def refuse_unknown_keys(request, known):
    """Refuses (``ProviderError``) a request with a key outside ``known``.

    A provider that ignored unknown keys would act on a request whose meaning it does not fully
    know; the contract kit sends such requests and expects ``ok: false``.
    """
    unknown = sorted(k for k in request if k not in known)
    if unknown:
        raise ProviderError("request has unknown keys: " + ", ".join("`%s`" % k for k in unknown))


# ------------------------------------------------------------------------------------------------
# Trace context (docs/contract/run.md#trace-context, docs/contract/worker.md#trace-context)

_TRACEPARENT = re.compile(r"00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}\Z")


class TraceContext(collections.namedtuple("TraceContext", ["traceparent", "tracestate"])):
    """A valid W3C trace context: ``traceparent`` and ``tracestate`` (``""`` when none)."""

    __slots__ = ()

    @property
    def trace_id(self):
        """The 32-hex-character trace id."""
        return self.traceparent[3:35]

    @property
    def parent_id(self):
        """The 16-hex-character id of the caller's span."""
        return self.traceparent[36:52]


def _valid_traceparent(value):
    if not isinstance(value, str):
        return False
    m = _TRACEPARENT.match(value)
    return bool(m) and m.group(1) != "0" * 32 and m.group(2) != "0" * 16


def _valid_tracestate(value):
    return (
        isinstance(value, str)
        and len(value) <= MAX_TRACESTATE_CHARS
        and all(" " <= c <= "~" for c in value)
    )


def parse_trace_context(traceparent, tracestate=None):
    """Returns the ``TraceContext`` of the header values, or None when they are not valid (lenient).

    ``traceparent``: ``00-<32 lowercase hex>-<16 lowercase hex>-<2 lowercase hex>``, ids not all
    zero; ``tracestate``: at most 512 printable ASCII characters, None or ``""`` for none.
    """
    state = "" if tracestate is None else tracestate
    if not _valid_traceparent(traceparent) or not _valid_tracestate(state):
        return None
    return TraceContext(traceparent, state)


def _frame_trace(value):
    """The strict read of a request frame's ``trace``; None when it is malformed."""
    if not isinstance(value, dict) or "traceparent" not in value:
        return None
    if set(value) - {"traceparent", "tracestate"}:
        return None
    state = value.get("tracestate")
    if state is not None and (not isinstance(state, str) or not state):
        return None
    return parse_trace_context(value["traceparent"], state)


_CURRENT_TRACE = contextvars.ContextVar("loopx_trace_context", default=None)


def current_trace_context():
    """Returns the ``TraceContext`` of the request being handled, or None when it has none."""
    return _CURRENT_TRACE.get()


# ------------------------------------------------------------------------------------------------
# The provider process: one-shot, doctor, worker


def _writable(message):
    cut = message[:MAX_ERROR_CHARS]
    return cut.encode("utf-8", errors="surrogatepass").decode("utf-8", errors="replace") if any(
        "\ud800" <= c <= "\udfff" for c in cut
    ) else cut


def _compact(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


def _describe(error):
    if isinstance(error, LoopxError):
        return str(error)
    text = str(error)
    return "provider failed: " + type(error).__name__ + (": " + text if text else "")


def _report(stderr, line, error=None):
    try:
        stderr.write((_writable(line) + "\n").encode("utf-8", errors="replace"))
        if error is not None and not isinstance(error, LoopxError):
            stderr.write("".join(traceback.format_exception(type(error), error, error.__traceback__)).encode("utf-8", errors="replace"))
        stderr.flush()
    except OSError:
        pass


def _answer(handle, request_thunk, schema_version, stderr, trace=None):
    """Returns (response bytes, ok); ``current_trace_context()`` is ``trace`` while it runs."""
    token = _CURRENT_TRACE.set(trace)
    try:
        return _answer_with(handle, request_thunk, schema_version, stderr)
    finally:
        _CURRENT_TRACE.reset(token)


def _answer_with(handle, request_thunk, schema_version, stderr):
    try:
        response = handle(request_thunk())
        if not isinstance(response, dict):
            raise ProviderError("the provider handler returned no JSON object")
        try:
            body = _compact(response)
        except (ValueError, TypeError, UnicodeEncodeError) as e:
            raise ProviderError("the provider response cannot be written as JSON: " + str(e)) from None
        return body, response.get("ok") is True
    except Exception as e:  # every failure becomes the ok:false object of the contract
        message = _describe(e)
        _report(stderr, message, e)
        error = {"ok": False, "schema_version": schema_version, "error": _writable(message)}
        return _compact(error), False


def _read_request(stdin):
    data = stdin.read(MAX_REQUEST_BYTES + 1)
    if len(data) > MAX_REQUEST_BYTES:
        raise ProviderError("request exceeds the %d-byte limit" % MAX_REQUEST_BYTES)
    try:
        value = parse_strict(data)
    except InvalidJson as e:
        raise ProviderError("request must be a readable JSON object: " + str(e)) from None
    if not isinstance(value, dict):
        raise ProviderError("request must be a JSON object: JSON input is not an object")
    return value


def serve_worker(handle, protocol, schema_version, stdin, stdout, stderr):
    """The worker loop: handshake, then one response frame per request frame; 0 at end of input."""
    handshake = {
        "schema_version": WORKER_HANDSHAKE_SCHEMA,
        "protocol": protocol,
        "pid": os.getpid(),
        "features": [TRACE_CONTEXT_FEATURE],
    }
    stdout.write(_compact(handshake) + b"\n")
    stdout.flush()
    while True:
        line = stdin.readline(MAX_FRAME_BYTES + 1)
        if not line:
            return 0
        if not line.endswith(b"\n"):
            what = "exceeds the %d-byte limit" % MAX_FRAME_BYTES if len(line) > MAX_FRAME_BYTES else "is not ended by a line feed"
            _report(stderr, "worker frame " + what)
            return 1
        try:
            frame = parse_strict(line[:-1])
        except InvalidJson as e:
            _report(stderr, "worker frame is not a JSON object: " + str(e))
            return 1
        if (
            not isinstance(frame, dict)
            or set(frame) - {"trace"} != {"id", "request"}
            or not isinstance(frame["id"], str)
            or not isinstance(frame["request"], dict)
        ):
            _report(stderr, 'worker frame must be {"id":<string>,"request":<object>[,"trace":<object>]}')
            return 1
        trace = None
        if "trace" in frame:
            trace = _frame_trace(frame["trace"])
            if trace is None:
                _report(stderr, "worker frame has a malformed trace: " + _compact(frame["trace"]).decode("utf-8")[:256])
                return 1
        body, _ = _answer(handle, lambda: frame["request"], schema_version, stderr, trace)
        stdout.write(b'{"id":' + _compact(frame["id"]) + b',"response":' + body + b"}\n")
        stdout.flush()


def main(handle, doctor=None, response_schema_version=FALLBACK_SCHEMA_VERSION, argv=None,
         stdin=None, stdout=None, stderr=None, env=None):
    """Runs the provider protocol and returns the exit code (``run`` exits with it).

    ``--doctor`` in the arguments: calls ``doctor()`` (if given), reads no stdin, writes nothing
    to stdout; 0, or 1 when it raises. ``--loopx-worker``: the worker protocol. Otherwise one
    request from stdin, one response object and a line feed on stdout; 0 when ``ok`` is true.
    """
    argv = sys.argv[1:] if argv is None else argv
    stdin = sys.stdin.buffer if stdin is None else stdin
    stdout = sys.stdout.buffer if stdout is None else stdout
    stderr = sys.stderr.buffer if stderr is None else stderr
    env = os.environ if env is None else env
    if DOCTOR_FLAG in argv:
        try:
            if doctor is not None:
                doctor()
            return 0
        except Exception as e:
            _report(stderr, "doctor failed: " + _describe(e), e)
            return 1
    if WORKER_FLAG in argv:
        protocol = env.get(WORKER_PROTOCOL_VARIABLE)
        if not protocol:
            _report(stderr, "worker mode needs %s (set by the host)" % WORKER_PROTOCOL_VARIABLE)
            return 1
        return serve_worker(handle, protocol, response_schema_version, stdin, stdout, stderr)
    trace = parse_trace_context(env.get(TRACEPARENT_VARIABLE), env.get(TRACESTATE_VARIABLE))
    body, ok = _answer(handle, lambda: _read_request(stdin), response_schema_version, stderr, trace)
    stdout.write(body + b"\n")
    stdout.flush()
    return 0 if ok else 1


def run(handle, doctor=None, response_schema_version=FALLBACK_SCHEMA_VERSION):
    """Calls ``main`` on this process's streams and exits with its code.

    ``sys.stdout`` is pointed at stderr while the handler runs, so that stray prints cannot corrupt
    the protocol on stdout.
    """
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr
    code = main(handle, doctor, response_schema_version, stdout=stdout)
    sys.exit(code)
