package io.loopx.runtime.internal.manifest;

import static io.loopx.runtime.internal.manifest.Manifests.FULL;
import static io.loopx.runtime.internal.manifest.Manifests.edit;
import static io.loopx.runtime.internal.manifest.Manifests.parse;
import static io.loopx.runtime.internal.manifest.Manifests.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ErrorKind;
import io.loopx.api.manifest.ManifestException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One failing input per rule of docs/contract/manifest.md (each a single edit of the valid {@link
 * Manifests#FULL}), asserting the kind and the key; then inputs with two faults, where the earlier
 * rule must win.
 */
class ManifestRulesTest {

  private static final String INVALID = "manifest_invalid";

  /** Name, TOML text, expected kind, expected key. */
  static Stream<Arguments> singleFaults() {
    List<Arguments> cases = new ArrayList<>();
    // schema_version
    add(
        cases,
        "schema_version missing",
        cut("schema_version = \"loopx_extension_manifest_v0\"\n"),
        "schema_version");
    add(cases, "schema_version other", swap("manifest_v0\"", "manifest_v1\""), "schema_version");
    add(
        cases,
        "schema_version integer",
        swap("schema_version = \"loopx_extension_manifest_v0\"", "schema_version = 0"),
        "schema_version");
    add(
        cases,
        "schema_version blank",
        swap("schema_version = \"loopx_extension_manifest_v0\"", "schema_version = \"   \""),
        "schema_version");
    // id
    add(cases, "id missing", cut("id = \"demo-ext\"\n"), "id");
    add(cases, "id uppercase", swap("id = \"demo-ext\"", "id = \"Demo-ext\""), "id");
    add(cases, "id underscore", swap("id = \"demo-ext\"", "id = \"demo_ext\""), "id");
    add(cases, "id double dash", swap("id = \"demo-ext\"", "id = \"demo--ext\""), "id");
    add(cases, "id trailing dash", swap("id = \"demo-ext\"", "id = \"demo-\""), "id");
    add(cases, "id leading digit", swap("id = \"demo-ext\"", "id = \"1demo\""), "id");
    add(cases, "id path", swap("id = \"demo-ext\"", "id = \"../demo\""), "id");
    add(cases, "id 49 chars", swap("id = \"demo-ext\"", "id = \"" + "a".repeat(49) + "\""), "id");
    add(cases, "id integer", swap("id = \"demo-ext\"", "id = 7"), "id");
    // version
    add(cases, "version missing", cut("version = \"1.2.3\"\n"), "version");
    add(cases, "version empty", swap("version = \"1.2.3\"", "version = \"\""), "version");
    add(cases, "version integer", swap("version = \"1.2.3\"", "version = 1"), "version");
    add(cases, "version float", swap("version = \"1.2.3\"", "version = 1.2"), "version");
    add(
        cases,
        "version datetime",
        swap("version = \"1.2.3\"", "version = 1979-05-27T07:32:00Z"),
        "version");
    // requires_loopx_api: grammar
    add(cases, "api missing", cut("requires_loopx_api = \">=1,<2\"\n"), "requires_loopx_api");
    add(cases, "api tilde", swap("\">=1,<2\"", "\"~1\""), "requires_loopx_api");
    add(cases, "api empty clause", swap("\">=1,<2\"", "\">=1,\""), "requires_loopx_api");
    add(cases, "api words", swap("\">=1,<2\"", "\"latest\""), "requires_loopx_api");
    add(
        cases,
        "api integer",
        swap("requires_loopx_api = \">=1,<2\"", "requires_loopx_api = 1"),
        "requires_loopx_api");
    // requires_loopx_api: compatibility
    cases.add(
        Arguments.of(
            Named.of("api >=2,<3", swap("\">=1,<2\"", "\">=2,<3\"")),
            "api_incompatible",
            "requires_loopx_api"));
    cases.add(
        Arguments.of(
            Named.of("api 2", swap("\">=1,<2\"", "\"2\"")),
            "api_incompatible",
            "requires_loopx_api"));
    cases.add(
        Arguments.of(
            Named.of("api <1", swap("\">=1,<2\"", "\"<1\"")),
            "api_incompatible",
            "requires_loopx_api"));
    // permissions
    String perms = "permissions = [\"demo.read\", \"demo.write\"]";
    add(cases, "permissions string", swap(perms, "permissions = \"demo.read\""), "permissions");
    add(
        cases,
        "permissions table",
        swap(perms, "permissions = {a = \"demo.read\"}"),
        "permissions");
    add(
        cases,
        "permission duplicate",
        swap(perms, "permissions = [\"demo.read\", \"demo.read\"]"),
        "permissions[1]");
    add(
        cases,
        "permission duplicate after trim",
        swap(perms, "permissions = [\"demo.read\", \" demo.read \"]"),
        "permissions[1]");
    add(
        cases,
        "permission empty",
        swap(perms, "permissions = [\"demo.read\", \"  \"]"),
        "permissions[1]");
    add(
        cases,
        "permission control char",
        swap(perms, "permissions = [\"demo.read\\u0007\"]"),
        "permissions[0]");
    add(
        cases,
        "permission format char",
        swap(perms, "permissions = [\"demo\\u200b.read\"]"),
        "permissions[0]");
    add(
        cases,
        "permission 129 chars",
        swap(perms, "permissions = [\"" + "p".repeat(129) + "\"]"),
        "permissions[0]");
    add(
        cases,
        "permission integer",
        swap(perms, "permissions = [\"demo.read\", 3]"),
        "permissions[1]");
    // runtime
    add(cases, "runtime not a table", topLevel("runtime = \"bin/demo\"", "[runtime]"), "runtime");
    add(
        cases,
        "runtime unknown key",
        swap("timeout_seconds = 45", "timeout_seconds = 45\nshell = true"),
        "runtime.shell");
    add(
        cases,
        "runtime python_module",
        swap("timeout_seconds = 45", "timeout_seconds = 45\npython_module = \"x.y\""),
        "runtime.python_module");
    add(
        cases,
        "protocol missing",
        swap("protocol = \"demo_provider_v0\"\nentrypoint", "entrypoint"),
        "runtime.protocol");
    add(
        cases,
        "protocol no version",
        swap(
            "protocol = \"demo_provider_v0\"\nentrypoint",
            "protocol = \"demo_provider\"\nentrypoint"),
        "runtime.protocol");
    add(
        cases,
        "protocol uppercase",
        swap("protocol = \"demo_provider_v0\"\nentrypoint", "protocol = \"Demo_v0\"\nentrypoint"),
        "runtime.protocol");
    add(
        cases,
        "launch target both",
        swap(
            "entrypoint = \"bin/demo\"",
            "entrypoint = \"bin/demo\"\njava_main = \"io.example.Main\""),
        "runtime");
    add(cases, "launch target none", cut("entrypoint = \"bin/demo\"\n"), "runtime");
    add(
        cases,
        "launch target blank",
        swap("entrypoint = \"bin/demo\"", "entrypoint = \"  \""),
        "runtime");
    add(
        cases,
        "entrypoint NUL",
        swap("entrypoint = \"bin/demo\"", "entrypoint = \"bin/\\u0000demo\""),
        "runtime.entrypoint");
    add(
        cases,
        "entrypoint array",
        swap("entrypoint = \"bin/demo\"", "entrypoint = [\"bin/demo\"]"),
        "runtime.entrypoint");
    add(
        cases,
        "java_main unqualified",
        swap("entrypoint = \"bin/demo\"", "java_main = \"Main\""),
        "runtime.java_main");
    add(
        cases,
        "java_main with spaces",
        swap("entrypoint = \"bin/demo\"", "java_main = \"io.example.Main --x\""),
        "runtime.java_main");
    add(
        cases,
        "java_main path",
        swap("entrypoint = \"bin/demo\"", "java_main = \"io/example/Main\""),
        "runtime.java_main");
    add(
        cases,
        "java_class_path with entrypoint",
        swap(
            "entrypoint = \"bin/demo\"",
            "entrypoint = \"bin/demo\"\njava_class_path = [\"lib/a.jar\"]"),
        "runtime.java_class_path");
    add(
        cases,
        "java_class_path string",
        swap(
            "entrypoint = \"bin/demo\"",
            "java_main = \"io.example.Main\"\njava_class_path = \"lib/a.jar\""),
        "runtime.java_class_path");
    add(
        cases,
        "java_class_path empty",
        swap("entrypoint = \"bin/demo\"", "java_main = \"io.example.Main\"\njava_class_path = []"),
        "runtime.java_class_path");
    add(
        cases,
        "java_class_path 65",
        swap(
            "entrypoint = \"bin/demo\"",
            "java_main = \"io.example.Main\"\njava_class_path = ["
                + "\"a.jar\", ".repeat(64)
                + "\"b.jar\"]"),
        "runtime.java_class_path");
    add(
        cases,
        "java_class_path integer element",
        swap(
            "entrypoint = \"bin/demo\"",
            "java_main = \"io.example.Main\"\njava_class_path = [\"lib/a.jar\", 1]"),
        "runtime.java_class_path[1]");
    add(
        cases,
        "java_class_path blank element",
        swap(
            "entrypoint = \"bin/demo\"",
            "java_main = \"io.example.Main\"\njava_class_path = [\"lib/a.jar\", \" \"]"),
        "runtime.java_class_path[1]");
    add(
        cases,
        "java_class_path absolute",
        swap(
            "entrypoint = \"bin/demo\"",
            "java_main = \"io.example.Main\"\njava_class_path = [\"/opt/lib/a.jar\"]"),
        "runtime.java_class_path[0]");
    add(
        cases,
        "java_class_path separator",
        swap(
            "entrypoint = \"bin/demo\"",
            "java_main = \"io.example.Main\"\njava_class_path = [\"lib/a.jar:lib/b.jar\"]"),
        "runtime.java_class_path[0]");
    add(
        cases,
        "java_class_path wildcard",
        swap(
            "entrypoint = \"bin/demo\"",
            "java_main = \"io.example.Main\"\njava_class_path = [\"lib/*\"]"),
        "runtime.java_class_path[0]");
    add(
        cases,
        "java_class_path control character",
        swap(
            "entrypoint = \"bin/demo\"",
            "java_main = \"io.example.Main\"\njava_class_path = [\"lib/a\\u0007.jar\"]"),
        "runtime.java_class_path[0]");
    add(
        cases,
        "java_class_path 1025 characters",
        swap(
            "entrypoint = \"bin/demo\"",
            "java_main = \"io.example.Main\"\njava_class_path = [\"" + "a".repeat(1025) + "\"]"),
        "runtime.java_class_path[0]");
    add(
        cases,
        "java_class_path duplicate",
        swap(
            "entrypoint = \"bin/demo\"",
            "java_main = \"io.example.Main\"\njava_class_path = [\"lib/a.jar\", \"lib/b.jar\", \"lib/a.jar\"]"),
        "runtime.java_class_path[2]");
    add(cases, "args string", swap("args = [\"--serve\"]", "args = \"--serve\""), "runtime.args");
    add(
        cases,
        "args blank element",
        swap("args = [\"--serve\"]", "args = [\"--serve\", \" \"]"),
        "runtime.args[1]");
    add(
        cases,
        "args NUL",
        swap("args = [\"--serve\"]", "args = [\"--se\\u0000rve\"]"),
        "runtime.args[0]");
    add(
        cases,
        "args integer",
        swap("args = [\"--serve\"]", "args = [\"--serve\", 8080]"),
        "runtime.args[1]");
    add(
        cases,
        "doctor_args empty element",
        swap("doctor_args = [\"--doctor\"]", "doctor_args = [\"\"]"),
        "runtime.doctor_args[0]");
    add(
        cases,
        "doctor_args boolean",
        swap("doctor_args = [\"--doctor\"]", "doctor_args = true"),
        "runtime.doctor_args");
    add(
        cases,
        "required undeclared",
        swap(
            "required_permissions = [\"demo.read\"]",
            "required_permissions = [\"demo.read\", \"demo.admin\"]"),
        "runtime.required_permissions");
    add(
        cases,
        "required duplicate",
        swap(
            "required_permissions = [\"demo.read\"]",
            "required_permissions = [\"demo.read\", \"demo.read\"]"),
        "runtime.required_permissions[1]");
    add(
        cases,
        "required invalid",
        swap("required_permissions = [\"demo.read\"]", "required_permissions = [\"\\u0001\"]"),
        "runtime.required_permissions[0]");
    add(
        cases,
        "timeout 0",
        swap("timeout_seconds = 45", "timeout_seconds = 0"),
        "runtime.timeout_seconds");
    add(
        cases,
        "timeout 121",
        swap("timeout_seconds = 45", "timeout_seconds = 121"),
        "runtime.timeout_seconds");
    add(
        cases,
        "timeout negative",
        swap("timeout_seconds = 45", "timeout_seconds = -5"),
        "runtime.timeout_seconds");
    add(
        cases,
        "timeout long",
        swap("timeout_seconds = 45", "timeout_seconds = 99999999999"),
        "runtime.timeout_seconds");
    add(
        cases,
        "timeout float",
        swap("timeout_seconds = 45", "timeout_seconds = 30.0"),
        "runtime.timeout_seconds");
    add(
        cases,
        "timeout string",
        swap("timeout_seconds = 45", "timeout_seconds = \"30\""),
        "runtime.timeout_seconds");
    add(
        cases,
        "timeout boolean",
        swap("timeout_seconds = 45", "timeout_seconds = true"),
        "runtime.timeout_seconds");
    add(
        cases,
        "timeout datetime",
        swap("timeout_seconds = 45", "timeout_seconds = 07:32:00"),
        "runtime.timeout_seconds");
    add(
        cases,
        "timeout wrapping overflow",
        swap("timeout_seconds = 45", "timeout_seconds = 18446744073709551646"),
        ManifestException.FILE_KEY);
    // runtime.worker
    String worker = "timeout_seconds = 45\n[runtime.worker]\n";
    add(
        cases,
        "worker not table",
        swap("timeout_seconds = 45", "timeout_seconds = 45\nworker = 1"),
        "runtime.worker");
    add(
        cases,
        "worker unknown key",
        swap("timeout_seconds = 45", worker + "pool = 2"),
        "runtime.worker.pool");
    add(
        cases,
        "worker args string",
        swap("timeout_seconds = 45", worker + "args = \"--w\""),
        "runtime.worker.args");
    add(
        cases,
        "worker args empty element",
        swap("timeout_seconds = 45", worker + "args = [\"--w\", \" \"]"),
        "runtime.worker.args[1]");
    add(
        cases,
        "worker args 33",
        swap("timeout_seconds = 45", worker + "args = [" + "\"a\", ".repeat(32) + "\"b\"]"),
        "runtime.worker.args");
    add(
        cases,
        "worker in flight 0",
        swap("timeout_seconds = 45", worker + "max_in_flight = 0"),
        "runtime.worker.max_in_flight");
    add(
        cases,
        "worker in flight 65",
        swap("timeout_seconds = 45", worker + "max_in_flight = 65"),
        "runtime.worker.max_in_flight");
    add(
        cases,
        "worker in flight float",
        swap("timeout_seconds = 45", worker + "max_in_flight = 1.0"),
        "runtime.worker.max_in_flight");
    add(
        cases,
        "worker processes 17",
        swap("timeout_seconds = 45", worker + "max_processes = 17"),
        "runtime.worker.max_processes");
    add(
        cases,
        "worker processes string",
        swap("timeout_seconds = 45", worker + "max_processes = \"2\""),
        "runtime.worker.max_processes");
    add(
        cases,
        "worker idle 0",
        swap("timeout_seconds = 45", worker + "idle_seconds = 0"),
        "runtime.worker.idle_seconds");
    add(
        cases,
        "worker idle 3601",
        swap("timeout_seconds = 45", worker + "idle_seconds = 3601"),
        "runtime.worker.idle_seconds");
    add(
        cases,
        "worker requests 1000001",
        swap("timeout_seconds = 45", worker + "max_requests = 1000001"),
        "runtime.worker.max_requests");
    add(
        cases,
        "worker requests boolean",
        swap("timeout_seconds = 45", worker + "max_requests = true"),
        "runtime.worker.max_requests");
    // runtime.memory_mb
    for (String[] memory :
        new String[][] {
          {"memory 0", "0"},
          {"memory 15", "15"},
          {"memory 65537", "65537"},
          {"memory negative", "-256"},
          {"memory long", "99999999999"},
          {"memory float", "256.0"},
          {"memory string", "\"256\""},
          {"memory boolean", "true"},
          {"memory array", "[256]"},
        }) {
      add(
          cases,
          memory[0],
          swap("timeout_seconds = 45", "timeout_seconds = 45\nmemory_mb = " + memory[1]),
          "runtime.memory_mb");
    }
    // runtime.access
    for (String[] access :
        new String[][] {
          {"access string", "\"network\"", "runtime.access"},
          {"access integer element", "[1]", "runtime.access[0]"},
          {"access empty element", "[\"network\", \" \"]", "runtime.access[1]"},
          {"access unknown word", "[\"internet\"]", "runtime.access[0]"},
          {"access upper case", "[\"Network\"]", "runtime.access[0]"},
          {"access root upper case", "[\"read:Data\"]", "runtime.access[0]"},
          {"access root empty", "[\"write:\"]", "runtime.access[0]"},
          {"access root path", "[\"read:/srv/data\"]", "runtime.access[0]"},
          {"access root 33 chars", "[\"read:" + "r".repeat(33) + "\"]", "runtime.access[0]"},
          {"access duplicate", "[\"network\", \" network\"]", "runtime.access[1]"},
          {"access read and write", "[\"write:data\", \"read:data\"]", "runtime.access[1]"},
          {
            "access 17 entries",
            IntStream.range(0, 17)
                .mapToObj(i -> "\"read:r" + i + "\"")
                .collect(Collectors.joining(", ", "[", "]")),
            "runtime.access"
          },
        }) {
      add(
          cases,
          access[0],
          swap("timeout_seconds = 45", "timeout_seconds = 45\naccess = " + access[1]),
          access[2]);
    }
    // presentation_surfaces
    add(
        cases,
        "surfaces not array",
        topLevel("presentation_surfaces = 1", "[[presentation_surfaces]]"),
        "presentation_surfaces");
    add(
        cases,
        "surface unknown key",
        swap("visibility = \"public-safe\"", "visibility = \"public-safe\"\nhref = \"x\""),
        "presentation_surfaces[0].href");
    add(cases, "surface id missing", cut("id = \"demo-board\"\n"), "presentation_surfaces[0].id");
    add(
        cases,
        "surface id not kebab",
        swap("id = \"demo-board\"", "id = \"Demo Board\""),
        "presentation_surfaces[0].id");
    add(
        cases,
        "surface id duplicate",
        edit(FULL, "\n[[provides]]", SECOND_SURFACE + "\n[[provides]]"),
        "presentation_surfaces[1].id");
    add(
        cases,
        "surface kind",
        swap("kind = \"dashboard\"", "kind = \"Dash-board\""),
        "presentation_surfaces[0].kind");
    add(
        cases,
        "surface title missing",
        cut("title = \"Demo board\"\n"),
        "presentation_surfaces[0].title");
    add(
        cases,
        "surface title 81",
        swap("title = \"Demo board\"", "title = \"" + "t".repeat(81) + "\""),
        "presentation_surfaces[0].title");
    add(
        cases,
        "surface title newline",
        swap("title = \"Demo board\"", "title = \"Demo\\nboard\""),
        "presentation_surfaces[0].title");
    add(
        cases,
        "surface title carriage return",
        swap("title = \"Demo board\"", "title = \"Demo\\rboard\""),
        "presentation_surfaces[0].title");
    add(
        cases,
        "surface title http",
        swap("title = \"Demo board\"", "title = \"see http://x.test\""),
        "presentation_surfaces[0].title");
    add(
        cases,
        "surface title https",
        swap("title = \"Demo board\"", "title = \"HTTPS://x.test\""),
        "presentation_surfaces[0].title");
    add(
        cases,
        "surface title www",
        swap("title = \"Demo board\"", "title = \"go to www.example\""),
        "presentation_surfaces[0].title");
    add(
        cases,
        "surface title tag",
        swap("title = \"Demo board\"", "title = \"Demo <b>board</b>\""),
        "presentation_surfaces[0].title");
    add(
        cases,
        "surface title absolute path",
        swap("title = \"Demo board\"", "title = \"see /etc/passwd\""),
        "presentation_surfaces[0].title");
    add(
        cases,
        "surface title home path",
        swap("title = \"Demo board\"", "title = \"see ~/notes\""),
        "presentation_surfaces[0].title");
    add(
        cases,
        "surface title drive backslash",
        swap("title = \"Demo board\"", "title = 'see C:\\Users'"),
        "presentation_surfaces[0].title");
    add(
        cases,
        "surface title drive slash",
        swap("title = \"Demo board\"", "title = \"see d:/data\""),
        "presentation_surfaces[0].title");
    add(
        cases,
        "surface title quoted path",
        swap("title = \"Demo board\"", "title = \"see (/tmp/x)\""),
        "presentation_surfaces[0].title");
    add(
        cases,
        "surface view_schema",
        swap("view_schema = \"demo_view_v0\"", "view_schema = \"demo-view\""),
        "presentation_surfaces[0].view_schema");
    add(
        cases,
        "surface validator no method",
        swap("\"io.example.DemoView#validate\"", "\"io.example.DemoView\""),
        "presentation_surfaces[0].view_validator");
    add(
        cases,
        "surface validator no package",
        swap("\"io.example.DemoView#validate\"", "\"DemoView#validate\""),
        "presentation_surfaces[0].view_validator");
    add(
        cases,
        "surface validator two methods",
        swap("\"io.example.DemoView#validate\"", "\"io.example.DemoView#a#b\""),
        "presentation_surfaces[0].view_validator");
    add(
        cases,
        "surface visibility public",
        swap("visibility = \"public-safe\"", "visibility = \"public\""),
        "presentation_surfaces[0].visibility");
    add(
        cases,
        "surface visibility missing",
        cut("visibility = \"public-safe\"\n"),
        "presentation_surfaces[0].visibility");
    add(
        cases,
        "empty_state_title 121",
        swap(
            "empty_state_title = \"Nothing yet\"",
            "empty_state_title = \"" + "e".repeat(121) + "\""),
        "presentation_surfaces[0].empty_state_title");
    add(
        cases,
        "empty_state_title url",
        swap(
            "empty_state_title = \"Nothing yet\"", "empty_state_title = \"Nothing at www.x.test\""),
        "presentation_surfaces[0].empty_state_title");
    add(
        cases,
        "empty_state_detail 241",
        swap(
            "empty_state_detail = \"Run the demo first.\"",
            "empty_state_detail = \"" + "d".repeat(241) + "\""),
        "presentation_surfaces[0].empty_state_detail");
    add(
        cases,
        "empty_state_detail tag",
        swap(
            "empty_state_detail = \"Run the demo first.\"",
            "empty_state_detail = \"<script>x</script>\""),
        "presentation_surfaces[0].empty_state_detail");
    add(
        cases,
        "empty_state_detail integer",
        swap("empty_state_detail = \"Run the demo first.\"", "empty_state_detail = 3"),
        "presentation_surfaces[0].empty_state_detail");
    // provides
    add(
        cases,
        "provides not array",
        topLevel("provides = \"demo-cap\"", "[[provides]]"),
        "provides");
    add(
        cases,
        "provides id invalid",
        swap("id = \"demo-cap\"", "id = \"demo cap\""),
        "provides[0].id");
    add(cases, "provides id missing", cut("id = \"demo-cap\"\n"), "provides[0].id");
    add(
        cases,
        "provides id duplicate",
        edit(FULL, "\n[[implements]]", SECOND_PROVIDES + "\n[[implements]]"),
        "provides[1].id");
    add(
        cases,
        "provides kind",
        swap("kind = \"projection_sink\"", "kind = \"projection-sink\""),
        "provides[0].kind");
    add(cases, "provides title missing", cut("title = \"Demo capability\"\n"), "provides[0].title");
    add(
        cases,
        "provides status blank",
        swap("status = \"active\"", "status = \" \""),
        "provides[0].status");
    add(
        cases,
        "provides user_value missing",
        cut("user_value = \"value\"\n"),
        "provides[0].user_value");
    add(
        cases,
        "provides next_real_step integer",
        swap("next_real_step = \"ship it\"", "next_real_step = 1"),
        "provides[0].next_real_step");
    add(
        cases,
        "provides visibility",
        swap("visibility = \"public\"", "visibility = \"private\""),
        "provides[0].visibility");
    add(
        cases,
        "public without anchor",
        cut("real_world_anchor = \"a real thing\"\n"),
        "provides[0].real_world_anchor");
    add(
        cases,
        "public without entry_command",
        cut("entry_command = \"loopx demo run\"\n"),
        "provides[0].entry_command");
    add(cases, "metadata float", swap("tags = [\"a\", \"b\"]", "score = 1.5"), "provides[0].score");
    add(
        cases,
        "metadata datetime",
        swap("tags = [\"a\", \"b\"]", "since = 1979-05-27"),
        "provides[0].since");
    add(
        cases,
        "metadata float in array",
        swap("tags = [\"a\", \"b\"]", "tags = [\"a\", 1.5]"),
        "provides[0].tags[1]");
    add(
        cases,
        "metadata datetime in table",
        swap("tags = [\"a\", \"b\"]", "info = {when = 1979-05-27T00:00:00}"),
        "provides[0].info.when");
    add(
        cases,
        "metadata beyond 2^53",
        swap("tags = [\"a\", \"b\"]", "big = 9007199254740992"),
        "provides[0].big");
    add(cases, "metadata nan", swap("tags = [\"a\", \"b\"]", "x = nan"), "provides[0].x");
    // implements
    add(
        cases,
        "implements not array",
        topLevel("implements = {capability_id = \"semantic-preference\"}", "[[implements]]"),
        "implements");
    add(
        cases,
        "implements unknown key",
        swap(
            "capability_id = \"semantic-preference\"",
            "capability_id = \"semantic-preference\"\nversion = \"1\""),
        "implements[0].version");
    add(
        cases,
        "implements capability missing",
        cut("capability_id = \"semantic-preference\"\n"),
        "implements[0].capability_id");
    add(
        cases,
        "implements capability invalid",
        swap("capability_id = \"semantic-preference\"", "capability_id = \"semantic_preference\""),
        "implements[0].capability_id");
    add(
        cases,
        "implements protocol mismatch",
        edit(
            FULL,
            "capability_id = \"semantic-preference\"\nprotocol = \"demo_provider_v0\"",
            "capability_id = \"semantic-preference\"\nprotocol = \"other_provider_v0\""),
        "implements[0].protocol");
    add(
        cases,
        "implements protocol missing",
        edit(
            FULL,
            "capability_id = \"semantic-preference\"\nprotocol = \"demo_provider_v0\"",
            "capability_id = \"semantic-preference\""),
        "implements[0].protocol");
    add(
        cases,
        "implements duplicate",
        FULL
            + "\n[[implements]]\ncapability_id = \"semantic-preference\"\nprotocol = \"demo_provider_v0\"\n",
        "implements[1].capability_id");
    // needs something
    add(
        cases,
        "declares nothing",
        "schema_version = \"loopx_extension_manifest_v0\"\nid = \"x\"\nversion = \"1\"\nrequires_loopx_api = \"1\"\n",
        ManifestException.FILE_KEY);
    // file level
    add(cases, "not TOML", "schema_version = ", ManifestException.FILE_KEY);
    add(
        cases,
        "duplicate key",
        FULL.replace("version = \"1.2.3\"", "version = \"1.2.3\"\nversion = \"1.2.4\""),
        ManifestException.FILE_KEY);
    add(cases, "duplicate table", FULL + "\n[runtime]\nargs = []\n", ManifestException.FILE_KEY);
    add(
        cases,
        "nesting too deep",
        FULL + "\nx = " + "[".repeat(40) + "]".repeat(40) + "\n",
        ManifestException.FILE_KEY);
    add(
        cases,
        "dotted key too deep",
        FULL + "\n" + "a.".repeat(40) + "b = 1\n",
        ManifestException.FILE_KEY);
    return cases.stream();
  }

  private static final String SECOND_SURFACE =
      """
      [[presentation_surfaces]]
      id = "demo-board"
      kind = "dashboard"
      title = "Another board"
      view_schema = "demo_view_v0"
      view_validator = "io.example.DemoView#validate"
      visibility = "owner-only"
      """;

  private static final String SECOND_PROVIDES =
      """
      [[provides]]
      id = "demo-cap"
      kind = "projection_sink"
      title = "Twin"
      status = "active"
      visibility = "internal"
      user_value = "value"
      next_real_step = "ship it"
      """;

  private static void add(List<Arguments> cases, String name, String toml, String key) {
    cases.add(Arguments.of(Named.of(name, toml), INVALID, key));
  }

  private static String swap(String from, String to) {
    return edit(FULL, from, to);
  }

  /** Adds a top-level line and renames the table {@code header} to an ignored unknown table. */
  private static String topLevel(String line, String header) {
    String perms = "permissions = [\"demo.read\", \"demo.write\"]\n";
    String renamed =
        edit(FULL, "\n" + header + "\n", "\n[[ignored_" + header.replaceAll("\\W", "") + "]]\n");
    return edit(renamed, perms, perms + line + "\n");
  }

  private static String cut(String text) {
    return edit(FULL, text, "");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("singleFaults")
  void everyRuleRejectsWithItsKindAndKey(String toml, String kind, String key) {
    ManifestException e = rejection(toml);
    assertThat(e.kind().wireName()).as(e.getMessage()).isEqualTo(kind);
    assertThat(e.key()).as(e.getMessage()).isEqualTo(key);
  }

  /** Two faults in one manifest: the one checked earlier in the documented order wins. */
  static Stream<Arguments> doubleFaults() {
    String noRuntimeNoSurfaces =
        cutAll(FULL, runtimeSection(), surfaceSection(), providesSection());
    return Stream.of(
        Arguments.of(
            Named.of(
                "schema_version before id",
                edit(swap("manifest_v0\"", "manifest_v9\""), "id = \"demo-ext\"", "id = \"X\"")),
            "schema_version"),
        Arguments.of(
            Named.of(
                "id before version",
                edit(
                    swap("id = \"demo-ext\"", "id = \"X\""), "version = \"1.2.3\"", "version = 1")),
            "id"),
        Arguments.of(
            Named.of(
                "version before api",
                edit(swap("version = \"1.2.3\"", "version = \"\""), "\">=1,<2\"", "\">=2\"")),
            "version"),
        Arguments.of(
            Named.of(
                "api compatibility before permissions",
                edit(swap("\">=1,<2\"", "\">=2\""), "\"demo.write\"", "\"demo.read\"")),
            "requires_loopx_api"),
        Arguments.of(
            Named.of(
                "permissions before runtime",
                edit(
                    swap("\"demo.write\"]", "\"demo.read\"]"),
                    "timeout_seconds = 45",
                    "timeout_seconds = 0")),
            "permissions[1]"),
        Arguments.of(
            Named.of(
                "runtime before surfaces",
                edit(
                    swap("timeout_seconds = 45", "timeout_seconds = 0"),
                    "kind = \"dashboard\"",
                    "kind = \"X\"")),
            "runtime.timeout_seconds"),
        Arguments.of(
            Named.of(
                "surfaces before provides",
                edit(
                    swap("kind = \"dashboard\"", "kind = \"X\""),
                    "kind = \"projection_sink\"",
                    "kind = \"X\"")),
            "presentation_surfaces[0].kind"),
        Arguments.of(
            Named.of(
                "provides before implements",
                edit(
                    swap("kind = \"projection_sink\"", "kind = \"X\""),
                    "capability_id = \"semantic-preference\"",
                    "capability_id = \"X\"")),
            "provides[0].kind"),
        Arguments.of(
            Named.of(
                "surfaces need a runtime, checked before implements",
                cutAll(FULL, runtimeSection())),
            "presentation_surfaces"),
        Arguments.of(
            Named.of("implements needs a runtime, before declares-nothing", noRuntimeNoSurfaces),
            "implements"),
        Arguments.of(
            Named.of("api grammar before api compatibility", swap("\">=1,<2\"", "\">=2,,<3\"")),
            "requires_loopx_api"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("doubleFaults")
  void theEarlierRuleWins(String toml, String key) {
    ManifestException e = rejection(toml);
    assertThat(e.key()).as(e.getMessage()).isEqualTo(key);
    assertThat(e.kind())
        .isEqualTo(
            e.getMessage().contains("requires LoopX extension API")
                ? ErrorKind.API_INCOMPATIBLE
                : ErrorKind.MANIFEST_INVALID);
  }

  @Test
  void apiIncompatibleMessageNamesTheRange() {
    ManifestException e = rejection(swap("\">=1,<2\"", "\">=2,<3\""));
    assertThat(e.kind()).isEqualTo(ErrorKind.API_INCOMPATIBLE);
    assertThat(e.getMessage())
        .isEqualTo(
            Manifests.SOURCE
                + ": requires_loopx_api: requires LoopX extension API >=2,<3, but this runtime"
                + " provides 1");
  }

  @Test
  void undeclaredRequiredPermissionsAreListed() {
    ManifestException e =
        rejection(
            swap(
                "required_permissions = [\"demo.read\"]",
                "required_permissions = [\"demo.admin\", \"demo.read\", \"demo.root\"]"));
    assertThat(e.detail())
        .isEqualTo("runtime requires undeclared permissions [demo.admin, demo.root]");
  }

  @Test
  void theFullFixtureIsValid() {
    assertThat(parse(FULL).manifest().id().value()).isEqualTo("demo-ext");
  }

  static String runtimeSection() {
    return section(FULL, "[runtime]");
  }

  static String surfaceSection() {
    return section(FULL, "[[presentation_surfaces]]");
  }

  static String providesSection() {
    return section(FULL, "[[provides]]");
  }

  /** Returns the text from {@code header} up to the next blank line. */
  private static String section(String toml, String header) {
    int start = toml.indexOf(header + "\n");
    assertThat(start).isNotNegative();
    int end = toml.indexOf("\n\n", start);
    return toml.substring(start, end < 0 ? toml.length() : end + 1);
  }

  private static String cutAll(String toml, String... parts) {
    String result = toml;
    for (String part : parts) {
      result = edit(result, part, "");
    }
    return result;
  }
}
