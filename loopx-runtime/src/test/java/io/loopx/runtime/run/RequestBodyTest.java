package io.loopx.runtime.run;

import static io.loopx.runtime.run.RunFixture.assertFails;
import static io.loopx.runtime.run.RunFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.internal.run.RequestBody;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

/** The input rules of docs/contract/run.md, checked before any activation state is read. */
class RequestBodyTest {
  static final String TOO_LARGE = "request exceeds the 1000000-byte limit";
  static final String UNREADABLE = "request must be a readable JSON object";
  static final String NOT_OBJECT = "request must be a JSON object";
  static final String RESERVED = "request contains reserved field `execution_envelope`";

  @TempDir Path tmp;

  /** An object of exactly {@code size} bytes: {@code {"a":"xxx…"}} padded with trailing spaces. */
  static byte[] objectOfSize(int size) {
    byte[] bytes = new byte[size];
    Arrays.fill(bytes, (byte) ' ');
    byte[] head = utf8("{\"a\":\"");
    System.arraycopy(head, 0, bytes, 0, head.length);
    int close = size - 4;
    Arrays.fill(bytes, head.length, close, (byte) 'x');
    bytes[close] = '"';
    bytes[close + 1] = '}';
    return bytes;
  }

  /** A stream that never ends and counts what was read from it. */
  static final class EndlessStream extends InputStream {
    long read;

    @Override
    public int read() {
      read++;
      return ' ';
    }

    @Override
    public int read(byte[] b, int off, int len) {
      Arrays.fill(b, off, off + len, (byte) ' ');
      read += len;
      return len;
    }
  }

  @Test
  void exactlyTheLimitIsAcceptedAndOneByteMoreIsRejected() {
    byte[] atLimit = objectOfSize(RequestBody.MAX_BYTES);
    byte[] overLimit = objectOfSize(RequestBody.MAX_BYTES + 1);

    assertThat(RequestBody.parse(atLimit).body().get("a").asString())
        .hasSize(RequestBody.MAX_BYTES - 10);
    assertThat(RequestBody.read(new ByteArrayInputStream(atLimit)).providerInput())
        .hasSize(RequestBody.MAX_BYTES - 2);
    assertFails(() -> RequestBody.parse(overLimit), ErrorKind.REQUEST_INVALID, TOO_LARGE);
    assertFails(
        () -> RequestBody.read(new ByteArrayInputStream(overLimit)),
        ErrorKind.REQUEST_INVALID,
        TOO_LARGE);
  }

  @Test
  void anEndlessStreamIsRejectedAfterTheLimitPlusOneByte() {
    EndlessStream endless = new EndlessStream();

    assertFails(() -> RequestBody.read(endless), ErrorKind.REQUEST_INVALID, TOO_LARGE);
    assertThat(endless.read).isEqualTo(RequestBody.MAX_BYTES + 1L);
  }

  @Test
  void aFailingStreamIsUnreadable() {
    InputStream broken =
        new InputStream() {
          @Override
          public int read() throws IOException {
            throw new IOException("disk on fire");
          }
        };

    assertFails(() -> RequestBody.read(broken), ErrorKind.REQUEST_INVALID, UNREADABLE);
    assertFails(() -> RequestBody.read(broken), ErrorKind.REQUEST_INVALID, "disk on fire");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "  \n",
        "{",
        "{\"a\":1} {}",
        "{\"a\":1}x",
        "{\"a\":1,\"a\":2}",
        "{\"a\":{\"b\":1,\"b\":1}}",
        "{\"a\":9007199254740993}",
        "{\"a\":\"\\ud800\"}",
        "{'a':1}",
        "{\"a\":NaN}",
        "// c\n{}"
      })
  void textThatIsNotOneStrictJsonValueIsUnreadable(String text) {
    assertFails(() -> RequestBody.parse(utf8(text)), ErrorKind.REQUEST_INVALID, UNREADABLE);
  }

  @Test
  void invalidUtf8AndOtherEncodingsAreUnreadable() {
    byte[] latin1 = {'{', '"', 'a', '"', ':', '"', (byte) 0xE9, '"', '}'};
    byte[] utf16 = "{}".getBytes(java.nio.charset.StandardCharsets.UTF_16);
    byte[] overlong = {'{', '"', (byte) 0xC0, (byte) 0xAF, '"', ':', '1', '}'};

    for (byte[] bytes : new byte[][] {latin1, utf16, overlong}) {
      assertFails(() -> RequestBody.parse(bytes), ErrorKind.REQUEST_INVALID, UNREADABLE);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"[]", "[{}]", "\"text\"", "1", "null", "true"})
  void aValueThatIsNotAnObjectIsRejected(String text) {
    assertFails(() -> RequestBody.parse(utf8(text)), ErrorKind.REQUEST_INVALID, NOT_OBJECT);
  }

  @Test
  void aTopLevelExecutionEnvelopeIsReserved() {
    assertFails(
        () -> RequestBody.parse(utf8("{\"a\":1,\"execution_envelope\":null}")),
        ErrorKind.REQUEST_INVALID,
        RESERVED);
    // Only the top level is reserved.
    assertThat(RequestBody.parse(utf8("{\"a\":{\"execution_envelope\":{}}}")).body().has("a"))
        .isTrue();
  }

  @Test
  void theProviderInputIsCompactUtf8InKeyOrder() {
    RequestBody request =
        RequestBody.parse(utf8(" {\"z\": 1, \"a\": [true, null, 0.10], \"é\": \"日本 🎉\"} "));

    assertThat(request.providerInput())
        .isEqualTo(utf8("{\"z\":1,\"a\":[true,null,0.10],\"é\":\"日本 🎉\"}"));
    assertThat(request.schemaVersion()).isEmpty();
  }

  @Test
  void theSchemaVersionIsTakenOnlyWhenItIsAString() {
    assertThat(RequestBody.parse(utf8("{\"schema_version\":\"x_v1\"}")).schemaVersion())
        .contains("x_v1");
    assertThat(RequestBody.parse(utf8("{\"schema_version\":1}")).schemaVersion()).isEmpty();
    assertThat(RequestBody.parse(utf8("{\"s\":{\"schema_version\":\"x\"}}")).schemaVersion())
        .isEmpty();
  }

  @Test
  void theRequestIsImmutable() {
    RequestBody request = RequestBody.parse(utf8("{\"a\":1}"));
    ObjectNode body = request.body();
    body.put("a", 2);
    byte[] input = request.providerInput();
    input[0] = 'x';

    assertThat(request.body().get("a").asInt()).isEqualTo(1);
    assertThat(request.providerInput()).isEqualTo(utf8("{\"a\":1}"));
    assertThat(request).isEqualTo(RequestBody.parse(utf8("{ \"a\" : 1 }")));
  }

  /** A bad request is reported before the activation state is read: a corrupt state is not. */
  @Test
  void theInputIsCheckedBeforeAnyStateIsRead() throws IOException {
    Path stateFile = tmp.resolve("root/extensions/state.json");
    Files.createDirectories(stateFile.getParent());
    Files.writeString(stateFile, "this is not JSON");
    Loopx loopx = RunFixture.loopx(stateFile, RunFixture.HOST_ENV);
    ExtensionId id = ExtensionId.of("demo-run");

    for (Mode mode : Mode.values()) {
      assertFails(
          () -> loopx.run(RunRequest.of(id, utf8("[1]")), mode),
          ErrorKind.REQUEST_INVALID,
          NOT_OBJECT);
      assertFails(
          () -> loopx.run(RunRequest.of(id, new EndlessStream()), mode),
          ErrorKind.REQUEST_INVALID,
          TOO_LARGE);
      assertFails(
          () ->
              loopx.run(
                  RunRequest.of(id, new ByteArrayInputStream(new byte[] {(byte) 0xFF})), mode),
          ErrorKind.REQUEST_INVALID,
          UNREADABLE);
      assertFails(
          () -> loopx.run(RunRequest.of(id, utf8("{\"execution_envelope\":{}}")), mode),
          ErrorKind.REQUEST_INVALID,
          RESERVED);
      // A valid request reaches the state, which is corrupt.
      assertFails(
          () -> loopx.run(RunRequest.of(id, utf8("{}")), mode),
          ErrorKind.STATE_UNREADABLE,
          "extension runtime state is unreadable");
    }
  }
}
