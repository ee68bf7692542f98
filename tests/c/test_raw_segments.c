/* test_raw_segments.c: a long string may stand in a node's result as a raw
 * segment (0xFF, its length in four bytes, least significant first, its
 * bytes as they are): read as the JSON string it stands for, bounds checked,
 * refused where JSON has no value, and counted by maxResultBytes as that
 * string's JSON text (the result printed, when a bound passes the limit) and
 * by the state's bound as no less. */
#include "check.h"
#include "edgegraph.h"
#include "eg_internal.h"
#include "eg_json_read.h"

#include <stdlib.h>
#include <string.h>

/* text + a segment of s[0..n) + rest, into out; its length. */
static size_t with_segment(char *out, const char *text, const char *s, size_t n, const char *rest) {
    size_t len = strlen(text);
    memcpy(out, text, len);
    const unsigned char head[5] = { 0xFF, (unsigned char)n, (unsigned char)(n >> 8), (unsigned char)(n >> 16), (unsigned char)(n >> 24) };
    memcpy(out + len, head, 5);
    memcpy(out + len + 5, s, n);
    len += 5 + n;
    memcpy(out + len, rest, strlen(rest));
    return len + strlen(rest);
}

TEST(raw_segment_reads_as_its_string) {
    char text[256];
    /* Bytes JSON would escape, a 0xFF among them, a character of four bytes: all kept as they are. */
    static const char s[] = "say \"hi\"\\\n\t\x01\xFF \xF0\x9F\x98\x80";
    size_t len = with_segment(text, "{\"a\":[1,", s, sizeof s - 1, "],\"b\":true}"), json_len = 0;
    cJSON *tree = eg_json_read(text, len, NULL, NULL, &json_len);
    CHECK(tree);
    const cJSON *a = cJSON_GetArrayItem(eg_get(tree, "a"), 1);
    CHECK(cJSON_IsString(a) && strcmp(a->valuestring, s) == 0);
    CHECK(cJSON_IsTrue(eg_get(tree, "b")));
    /* Its length as JSON, bounded without a pass over the bytes: the head as 2 quotes, each byte as 6 (an escape's most). */
    CHECK(json_len == len - 5 + 2 + 5 * (sizeof s - 1));   /* (len holds the bytes once) */
    CHECK(json_len >= strlen("{\"a\":[1,\"say \\\"hi\\\"\\\\\\n\\t\\u0001\xFF \xF0\x9F\x98\x80\"],\"b\":true}"));
    cJSON_Delete(tree);

    len = with_segment(text, "", "", 0, "");   /* empty, and the whole text */
    tree = eg_json_read(text, len, NULL, NULL, &json_len);
    CHECK(cJSON_IsString(tree) && tree->valuestring[0] == '\0' && json_len == 2);
    cJSON_Delete(tree);

    len = with_segment(text, "[", "a\0b", 3, "]");   /* a NUL ends the string, as \u0000 does */
    tree = eg_json_read(text, len, NULL, NULL, &json_len);
    CHECK(tree && strcmp(cJSON_GetArrayItem(tree, 0)->valuestring, "a") == 0 && json_len >= strlen("[\"a\\u0000b\"]"));
    cJSON_Delete(tree);
}

TEST(raw_segment_out_of_place_or_out_of_bounds_is_refused) {
    char text[64];
    size_t json_len = 0, len = with_segment(text, "{\"a\":", "xy", 2, "}");
    CHECK(eg_json_read(text, len, NULL, NULL, NULL) == NULL);            /* the plain reader: not JSON */
    for (size_t cut = 0; cut < len; cut++)                                 /* cut anywhere: never read past the end */
        cJSON_Delete(eg_json_read(text, cut, NULL, NULL, &json_len));
    CHECK(eg_json_read(text, len - 2, NULL, NULL, &json_len) == NULL);    /* the length runs past the end */
    text[6] = 3;                                                            /* a length one more than the bytes before '}' */
    CHECK(eg_json_read(text, len, NULL, NULL, &json_len) == NULL);
    text[9] = (char)0x80;                                                   /* a length of 2^31 + 3 */
    CHECK(eg_json_read(text, len, NULL, NULL, &json_len) == NULL);
    len = with_segment(text, "{", "k", 1, ":1}");                          /* where a key stands */
    CHECK(eg_json_read(text, len, NULL, NULL, &json_len) == NULL);
    CHECK(eg_json_read("[\xFF\x01\x00\x00", 5, NULL, NULL, &json_len) == NULL);   /* a head cut short */
}

static const char one_node[] = "{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\"}";

/* Run node a with options `opts`, submitting text[0..len); the status, and the error's message in *message. */
static const char *submit_once(const char *opts, const char *text, size_t len, char *message) {
    eg_error e;
    eg_graph *g = NULL;
    eg_run *r = NULL;
    static char status[16];
    eg_graph_new(one_node, sizeof one_node - 1, &g, &e);
    eg_run_new(g, "{}", 2, opts, strlen(opts), &r, &e);
    const char *out;
    size_t n;
    CHECK(eg_run_next(r, &out, &n, &e) == EG_OK);
    CHECK(eg_run_submit(r, 0, text, len, &e) == EG_OK);
    CHECK(eg_run_next(r, &out, &n, &e) == EG_OK);
    cJSON *o = cJSON_ParseWithLength(out, n);
    const cJSON *msg = eg_get(eg_get(o, "error"), "message");
    snprintf(status, sizeof status, "%s", cJSON_GetStringValue(eg_get(o, "status")));
    snprintf(message, 256, "%s", cJSON_IsString(msg) ? msg->valuestring : "");
    cJSON_Delete(o);
    eg_run_free(r);
    eg_graph_free(g);
    return status;
}

TEST(max_result_bytes_counts_a_segment_as_its_json_text) {
    char text[128], opts[64], message[256];
    /* {"data":{"t":"q\"q\nq\u0002"}} as JSON: 31 bytes; with a segment, 23. */
    size_t len = with_segment(text, "{\"data\":{\"t\":", "q\"q\nq\x02", 6, "}}");
    size_t json_len = strlen("{\"data\":{\"t\":\"q\\\"q\\nq\\u0002\"}}");
    snprintf(opts, sizeof opts, "{\"maxResultBytes\":%zu}", json_len);
    CHECK_STR(submit_once(opts, text, len, message), "FINISHED");
    snprintf(opts, sizeof opts, "{\"maxResultBytes\":%zu}", json_len - 1);
    CHECK_STR(submit_once(opts, text, len, message), "ERROR");
    char want[128];
    snprintf(want, sizeof want, "node 'a' returned %zu bytes, more than maxResultBytes (%zu)", json_len, json_len - 1);
    CHECK_STR(message, want);
}

TEST(max_state_bytes_bound_counts_segments_as_json) {
    /* A state whose JSON passes maxStateBytes only through the escapes of its raw string is refused. */
    char text[600], s[200], opts[64], message[256];
    memset(s, '"', sizeof s);   /* 200 bytes raw, 400 as JSON */
    size_t len = with_segment(text, "{\"data\":{\"t\":", s, sizeof s, "}}");
    snprintf(opts, sizeof opts, "{\"maxStateBytes\":%d}", 300);
    CHECK_STR(submit_once(opts, text, len, message), "ERROR");
    CHECK(strstr(message, "more than maxStateBytes (300)") != NULL);
}
