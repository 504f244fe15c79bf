package io.loopx.api.envelope;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.loopx.api.ActionToken;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.json.CanonicalJson;
import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.function.Consumer;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes {@code docs/contract/vectors/envelope-vectors-v1.json}, the language-neutral test vectors
 * of canonical JSON, request digests and envelope verification ({@link EnvelopeVectorsTest} checks
 * the implementation against the committed file). Not a test and not run by the build: run it once
 * when cases are added, from the {@code loopx-api} module after {@code mvn test-compile}:
 *
 * <pre>
 * java -cp target/test-classes:target/classes:$(deps) io.loopx.api.envelope.EnvelopeVectorsGenerator \
 *     ../docs/contract/vectors/envelope-vectors-v1.json
 * </pre>
 *
 * A change of an existing expected value is a change of the wire contract: it needs a new version
 * of the file, not a regeneration of v1.
 */
public final class EnvelopeVectorsGenerator {
  static final String SCHEMA = "loopx_envelope_vectors_v1";
  static final String ACTION = "files.write";
  static final String SCOPE =
      "{\"path\":\"notes/today.md\",\"mode\":\"append\",\"max_bytes\":4096}";
  static final String EXTENSION_ID = "demo-writer";
  static final String REVISION = "0123456789abcdef";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final ObjectNode root = NODES.objectNode();

  private EnvelopeVectorsGenerator() {}

  /** Writes the vectors to {@code args[0]}. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: EnvelopeVectorsGenerator <output file>");
    }
    EnvelopeVectorsGenerator g = new EnvelopeVectorsGenerator();
    g.build();
    String text =
        JsonMapper.builder()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .build()
                .writeValueAsString(g.root)
            + "\n";
    Files.writeString(Path.of(args[0]), text, UTF_8);
  }

  private void build() {
    root.put("schema_version", SCHEMA);
    root.put(
        "description",
        "Test vectors for RFC 8785 canonical JSON, the request digest and the verification of"
            + " loopx_extension_execution_envelope_v0 (docs/contract/envelope-verification.md)."
            + " Every input and bound request is JSON text exactly as a provider would read it;"
            + " canonical forms are given as text and as UTF-8 hex.");
    ObjectNode expectation = root.putObject("expectation");
    expectation.put("action", ACTION);
    expectation.set("scope", json(SCOPE));
    expectation.put("extension_id", EXTENSION_ID);
    expectation.put("revision", REVISION);
    canonical(root.putArray("canonical"));
    noCanonicalForm(root.putArray("no_canonical_form"));
    accepted(root.putArray("accepted"));
    refused(root.putArray("refused"));
  }

  // ---------------------------------------------------------------------------------------------
  // canonical: request -> canonical text -> digest -> envelope

  private void canonical(ArrayNode out) {
    c(out, "integral-double-4.0", "{\"v\":4.0}", "a double with an integral value has no '.0'");
    c(out, "exponent-1e21", "{\"v\":1e21}", "from 1e21 on ES6 uses the exponent form with '+'");
    c(out, "just-below-1e21", "{\"v\":1e20}", "below 1e21 ES6 writes all digits");
    c(out, "large-fixed-as-double", "{\"v\":1.2345678901234568e20}", "fixed form below 1e21");
    c(out, "small-1e-6", "{\"v\":0.000001}", "from 1e-6 up ES6 writes the fixed form");
    c(out, "small-1e-7", "{\"v\":1e-7}", "below 1e-6 ES6 uses the exponent form");
    c(out, "negative-zero-double", "{\"v\":-0.0}", "-0 is written 0");
    c(out, "negative-zero-integer", "{\"v\":-0}", "-0 is written 0");
    c(out, "min-subnormal", "{\"v\":5e-324}", "the smallest double");
    c(out, "min-subnormal-long", "{\"v\":4.9406564584124654e-324}", "same double, shortest digits");
    c(out, "max-double", "{\"v\":1.7976931348623157e308}", "the largest finite double");
    c(out, "min-normal", "{\"v\":2.2250738585072014e-308}", "the smallest normal double");
    c(out, "one-tenth", "{\"v\":0.1}", "shortest round-trip digits");
    c(out, "trailing-zero", "{\"v\":1.50}", "trailing zeros go");
    c(out, "exponent-spelling", "{\"v\":1E+2}", "exponent spellings are normalised");
    c(out, "fraction-with-exponent", "{\"v\":0.1e1}", "normalised to an integer form");
    c(out, "shortest-repr", "{\"v\":333333333.33333329}", "RFC 8785 appendix B");
    c(out, "binary-noise", "{\"v\":4.35}", "never 4.3499999999999996");
    c(out, "tiny-fixed", "{\"v\":123e-20}", "exponent form with '-'");
    c(out, "big-1e23", "{\"v\":1e23}", "shortest digits of the double nearest 1e23");
    c(out, "int-2^53", "{\"v\":9007199254740992}", "the largest integer literal admitted");
    c(out, "int-minus-2^53", "{\"v\":-9007199254740992}", "the smallest integer literal admitted");
    c(out, "int-2^53-1", "{\"v\":9007199254740991}", "exact integer");
    c(
        out,
        "double-2^53+1",
        "{\"v\":9007199254740993.0}",
        "a double literal, rounds to 2^53;"
            + " a host never dispatches it (not exactly a double), but its canonical form exists");
    c(out, "double-2^53+2", "{\"v\":9007199254740994.0}", "exact double above 2^53");
    c(out, "double-2^54", "{\"v\":1.8014398509481984e16}", "2^54 in fixed form");
    c(
        out,
        "numbers-array",
        "{\"n\":[0,-1,1,0.5,-0.5,1e-7,1e21,1e-6,9.999999999999999e20]}",
        "several numbers in one array, order kept");
    c(
        out,
        "escapes",
        "{\"s\":\"\\u0000\\u0001\\u001f\\b\\f\\n\\r\\t\\\"\\\\\\/\\u007f\\u00e9\\u2028\\ud83d\\ude00\"}",
        "minimal escaping: \\b \\f \\n \\r \\t \\\" \\\\ and \\u00xx (lowercase) below U+0020;"
            + " '/', DEL, U+2028 and non-ASCII are written as is");
    c(
        out,
        "keys-utf16-order",
        "{\"\\ud83d\\ude00\":1,\"\\uffff\":2,\"\\u00e9\":3,\"a\":4,\"\\u20ac\":5,\"\":0,\"A\":6,\"aa\":7}",
        "keys sort by UTF-16 code units: U+1F600 (D83D DE00) sorts before U+FFFF, unlike code"
            + " point order");
    c(
        out,
        "keys-surrogate-vs-private-use",
        "{\"\\ue000\":1,\"\\ud800\\udc00\":2}",
        "U+10000 (D800 DC00) sorts before U+E000 in UTF-16 order");
    c(
        out,
        "nested",
        "{\"b\":[1,{\"z\":null,\"a\":true}],\"a\":{\"y\":[],\"x\":{}},\"c\":[[[\"deep\"]]]}",
        "objects sorted at every level; arrays keep their order");
    c(out, "literals", "{\"t\":true,\"f\":false,\"n\":null}", "literals as is");
    c(
        out,
        "rfc8785-example",
        "{\"numbers\":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"
            + "\"string\":\"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\","
            + "\"literals\":[null,true,false]}",
        "the example of RFC 8785 section 3.2.3");
    c(
        out,
        "pretty-input",
        "{ \"b\" : 1 ,\n  \"a\" : [ 1 , 2 ]\n}\n",
        "whitespace of the input does not matter");
    c(
        out,
        "nested-execution-envelope",
        "{\"q\":{\"execution_envelope\":\"nested keys are ordinary content\"}}",
        "only the top-level execution_envelope key is left out of the digest");
  }

  private void c(ArrayNode out, String name, String input, String note) {
    ObjectNode request = json(input);
    ObjectNode row = out.addObject();
    row.put("name", name);
    row.put("note", note);
    row.put("input", input);
    byte[] canonical = CanonicalJson.toBytes(request);
    row.put("canonical", new String(canonical, UTF_8));
    row.put("canonical_utf8_hex", HexFormat.of().formatHex(canonical));
    String digest = ExecutionEnvelope.requestDigest(request).value();
    row.put("request_digest", digest);
    row.put("envelope", new String(StrictJson.toCompactBytes(envelopeFor(request)), UTF_8));
  }

  // ---------------------------------------------------------------------------------------------
  // no canonical form

  private void noCanonicalForm(ArrayNode out) {
    n(out, "double-overflow", "{\"v\":1e400}", "the nearest double is infinite");
    n(out, "negative-double-overflow", "{\"v\":-1e400}", "the nearest double is infinite");
    n(
        out,
        "integer-beyond-2^53",
        "{\"v\":9007199254740993}",
        "an integer literal beyond 2^53 (strict parsing already refuses it)");
    n(
        out,
        "integer-below-minus-2^53",
        "{\"v\":-9007199254740993}",
        "an integer literal below -2^53 (strict parsing already refuses it)");
    n(
        out,
        "lone-high-surrogate-string",
        "{\"v\":\"\\ud800\"}",
        "a lone surrogate has no UTF-8 form (strict parsing already refuses it)");
    n(
        out,
        "lone-low-surrogate-key",
        "{\"\\udc00\":1}",
        "a lone surrogate has no UTF-8 form (strict parsing already refuses it)");
  }

  private static void n(ArrayNode out, String name, String input, String reason) {
    try {
      CanonicalJson.toBytes(StrictJson.parseObject(input.getBytes(UTF_8)));
      throw new IllegalStateException(name + " has a canonical form");
    } catch (InvalidJsonException | InvalidValueException expected) {
      ObjectNode row = out.addObject();
      row.put("name", name);
      row.put("input", input);
      row.put("reason", reason);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // accepted: bound requests that verify

  private void accepted(ArrayNode out) {
    ObjectNode request = json("{\"schema_version\":\"demo_request_v0\",\"text\":\"h\u00e9llo\"}");
    a(out, "plain", bind(request), "the request as the host sends it");
    ObjectNode reordered = json("{\"text\":\"h\u00e9llo\",\"schema_version\":\"demo_request_v0\"}");
    ObjectNode bound = bind(request);
    bound.remove("schema_version");
    bound.remove("text");
    bound.setAll(reordered);
    a(out, "keys-reordered", bound, "key order of the request and the envelope does not matter");
    ObjectNode scopeRespelled = bind(request);
    ObjectNode scope = (ObjectNode) envelopeOf(scopeRespelled).get("scope");
    scope.removeAll();
    scope.setAll(json("{\"max_bytes\":4096.0,\"mode\":\"append\",\"path\":\"notes/today.md\"}"));
    a(
        out,
        "scope-respelled",
        scopeRespelled,
        "the scope is compared by canonical JSON: key order and 4096 vs 4096.0 do not matter");
    a(
        out,
        "numbers-as-written",
        bind(json("{\"a\":1.50,\"b\":1e5,\"c\":-0.0,\"d\":5e-324,\"e\":9007199254740992}")),
        "numbers are digested through their nearest double");
    a(
        out,
        "non-bmp-keys",
        bind(json("{\"\\ud83d\\ude00\":\"smile\",\"\\uffff\":\"max\",\"\\u00e9\":\"e\"}")),
        "UTF-16 key order inside the digest");
    a(
        out,
        "nested-execution-envelope",
        bind(json("{\"q\":{\"execution_envelope\":{\"not\":\"the envelope\"}}}")),
        "a nested execution_envelope key is request content and part of the digest");
    ObjectNode pretty = bind(request);
    row(
        out,
        "pretty-printed",
        prettyText(pretty),
        "whitespace in the received text does not matter",
        null);
  }

  private void a(ArrayNode out, String name, ObjectNode bound, String note) {
    row(out, name, compact(bound), note, null);
  }

  // ---------------------------------------------------------------------------------------------
  // refused: mutated envelopes, each with the exact message

  private void refused(ArrayNode out) {
    ObjectNode request = json("{\"schema_version\":\"demo_request_v0\",\"text\":\"hello\"}");
    r(out, "envelope-missing", request.deepCopy(), b -> {}, "no execution_envelope key");
    r(
        out,
        "envelope-not-object",
        bind(request),
        b -> b.put("execution_envelope", "sha256:00"),
        "the envelope is a string");
    r(
        out,
        "envelope-extra-field",
        bind(request),
        b -> envelopeOf(b).put("expires", "never"),
        "a sixth field");
    r(
        out,
        "envelope-field-missing",
        bind(request),
        b -> envelopeOf(b).remove("action"),
        "only four fields");
    r(
        out,
        "extension-extra-field",
        bind(request),
        b -> ((ObjectNode) envelopeOf(b).get("extension")).put("version", "1.0.0"),
        "extension has a third field");
    r(
        out,
        "digest-not-string",
        bind(request),
        b -> envelopeOf(b).put("request_digest", 1),
        "request_digest is a number");
    r(
        out,
        "action-not-string",
        bind(request),
        b -> envelopeOf(b).putArray("action").add(ACTION),
        "action is an array");
    r(
        out,
        "scope-not-object",
        bind(request),
        b -> envelopeOf(b).putArray("scope"),
        "scope is an array");
    r(
        out,
        "schema-version",
        bind(request),
        b -> envelopeOf(b).put("schema_version", "loopx_extension_execution_envelope_v1"),
        "another schema version");
    r(
        out,
        "action-differs",
        bind(request),
        b -> envelopeOf(b).put("action", "files.delete"),
        "another action");
    r(
        out,
        "action-case",
        bind(request),
        b -> envelopeOf(b).put("action", "Files.Write"),
        "actions compare as text (an invalid token is an action mismatch)");
    r(
        out,
        "action-before-scope",
        bind(request),
        b -> {
          envelopeOf(b).put("action", "files.delete");
          envelopeOf(b).set("scope", json("{\"path\":\"/\"}"));
        },
        "first failure wins: action is checked before scope");
    r(
        out,
        "scope-wider",
        bind(request),
        b -> ((ObjectNode) envelopeOf(b).get("scope")).put("recursive", true),
        "an extra key");
    r(
        out,
        "scope-narrower",
        bind(request),
        b -> ((ObjectNode) envelopeOf(b).get("scope")).remove("mode"),
        "a missing key");
    r(
        out,
        "scope-value",
        bind(request),
        b -> ((ObjectNode) envelopeOf(b).get("scope")).put("max_bytes", 4097),
        "another value");
    r(
        out,
        "scope-no-canonical-form",
        bind(request),
        b ->
            ((ObjectNode) envelopeOf(b).get("scope"))
                .put("max_bytes", new java.math.BigDecimal("1e400")),
        "a scope without a canonical form never matches");
    r(
        out,
        "extension-id",
        bind(request),
        b -> ((ObjectNode) envelopeOf(b).get("extension")).put("id", "demo-reader"),
        "another extension");
    r(
        out,
        "extension-revision",
        bind(request),
        b -> ((ObjectNode) envelopeOf(b).get("extension")).put("revision", "fedcba9876543210"),
        "another revision");
    r(
        out,
        "digest-uppercase",
        bind(request),
        b ->
            envelopeOf(b)
                .put(
                    "request_digest",
                    envelopeOf(b)
                        .get("request_digest")
                        .stringValue()
                        .toUpperCase(java.util.Locale.ROOT)
                        .replace("SHA256:", "sha256:")),
        "the digest is compared as text: hex digits are lowercase");
    r(
        out,
        "digest-without-prefix",
        bind(request),
        b ->
            envelopeOf(b)
                .put(
                    "request_digest",
                    envelopeOf(b)
                        .get("request_digest")
                        .stringValue()
                        .substring("sha256:".length())),
        "the text form is sha256: followed by 64 lowercase hex digits");
    r(
        out,
        "request-key-added",
        bind(request),
        b -> b.put("path", "/etc/passwd"),
        "a key added to the request after binding");
    r(
        out,
        "request-value-changed",
        bind(request),
        b -> b.put("text", "goodbye"),
        "a value changed after binding");
    r(
        out,
        "request-number-changed",
        bind(json("{\"n\":1}")),
        b -> b.put("n", new java.math.BigDecimal("1.0000000000000002")),
        "a number whose double differs");
    r(
        out,
        "request-no-canonical-form",
        bind(json("{\"n\":1}")),
        b -> b.put("n", new java.math.BigDecimal("1e400")),
        "a request without a canonical form has no digest");
    r(
        out,
        "nested-envelope-changed",
        bind(json("{\"q\":{\"execution_envelope\":\"a\"}}")),
        b -> ((ObjectNode) b.get("q")).put("execution_envelope", "b"),
        "a nested execution_envelope key is part of the digest");
  }

  private void r(
      ArrayNode out, String name, ObjectNode bound, Consumer<ObjectNode> mutate, String reason) {
    mutate.accept(bound);
    String text = compact(bound);
    try {
      verify(text);
      throw new IllegalStateException(name + " was accepted");
    } catch (LoopxException e) {
      row(out, name, text, reason, e.getMessage());
    }
  }

  // ---------------------------------------------------------------------------------------------

  private void row(ArrayNode out, String name, String boundText, String note, String message) {
    ObjectNode row = out.addObject();
    row.put("name", name);
    row.put(message == null ? "note" : "reason", note);
    row.put("bound", boundText);
    if (message == null) {
      ObjectNode bare = verify(boundText);
      row.put("bare_canonical", CanonicalJson.toText(bare));
      row.put("request_digest", ExecutionEnvelope.requestDigest(bare).value());
    } else {
      row.put("message", message);
    }
  }

  private static ObjectNode verify(String boundText) {
    return EnvelopeVerifier.verify(
        StrictJson.parseObject(boundText.getBytes(UTF_8)),
        new EnvelopeVerifier.Expectation(
            ActionToken.of(ACTION),
            json(SCOPE),
            io.loopx.api.ExtensionId.of(EXTENSION_ID),
            io.loopx.api.Revision.of(REVISION)));
  }

  static ObjectNode envelopeFor(ObjectNode request) {
    return new ExecutionEnvelope(
            ActionToken.of(ACTION),
            json(SCOPE),
            io.loopx.api.ExtensionId.of(EXTENSION_ID),
            io.loopx.api.Revision.of(REVISION),
            ExecutionEnvelope.requestDigest(request))
        .toJson();
  }

  private static ObjectNode bind(ObjectNode request) {
    ObjectNode bound = request.deepCopy();
    bound.set(ExecutionEnvelope.REQUEST_KEY, envelopeFor(request));
    return bound;
  }

  private static ObjectNode envelopeOf(ObjectNode bound) {
    return (ObjectNode) bound.get(ExecutionEnvelope.REQUEST_KEY);
  }

  static ObjectNode json(String text) {
    return StrictJson.parseObject(text.getBytes(UTF_8));
  }

  private static String compact(ObjectNode node) {
    return new String(StrictJson.toCompactBytes(node), UTF_8);
  }

  private static String prettyText(ObjectNode node) {
    return JsonMapper.builder()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .build()
        .writeValueAsString(node);
  }
}
