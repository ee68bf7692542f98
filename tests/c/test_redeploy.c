/* test_redeploy.c: checkpoints written under one definition, restored into an
 * edited one (a node added, an edge changed, a node renamed or removed, a
 * version bumped), and the checksum that a step keeps up to date. */
#include "check.h"
#include "edgegraph.h"
#include "cJSON.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char chain[] = "{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\"}";

static eg_graph *graph(const char *json) {
    eg_graph *g = NULL;
    eg_error e;
    CHECK(eg_graph_new(json, strlen(json), &g, &e) == EG_OK);
    return g;
}

static eg_run *restore(const eg_graph *g, const char *cp, eg_error *e) {
    eg_run *r = NULL;
    if (eg_run_restore(g, cp, strlen(cp), NULL, 0, &r, e) != EG_OK) return NULL;
    return r;
}

/* The run's next step as JSON (owned by the caller). */
static cJSON *step(eg_run *r) {
    const char *json;
    size_t len;
    return eg_run_next(r, &json, &len, NULL) == EG_OK ? cJSON_ParseWithLength(json, len) : NULL;
}

/* The node of the step's first task, copied into a static buffer ("" for none). */
static const char *next_node(eg_run *r) {
    static char name[64];
    cJSON *o = step(r);
    const cJSON *node = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "tasks"), 0), "node");
    snprintf(name, sizeof name, "%s", cJSON_IsString(node) ? node->valuestring : "");
    cJSON_Delete(o);
    return name;
}

static int submit(eg_run *r, unsigned i, const char *json) { return eg_run_submit(r, i, json, strlen(json), NULL); }

static char *copy_checkpoint(eg_run *r) {
    const char *json;
    size_t len;
    if (eg_run_checkpoint(r, &json, &len, NULL) != EG_OK) return NULL;
    char *out = malloc(len + 1);
    memcpy(out, json, len);
    out[len] = '\0';
    return out;
}

/* The chain (a -> b) paused after 'a', as a stored checkpoint. */
static char *paused_at_a(void) {
    eg_graph *g = graph(chain);
    eg_run *r = NULL;
    CHECK(eg_run_new(g, "{\"data\":{\"k\":1}}", 16, NULL, 0, &r, NULL) == EG_OK);
    CHECK_STR(next_node(r), "a");
    submit(r, 0, "{\"shouldPause\":true,\"data\":{\"a\":true}}");
    cJSON_Delete(step(r));
    char *cp = copy_checkpoint(r);
    eg_run_free(r);
    eg_graph_free(g);
    return cp;
}

TEST(redeploy_added_node_runs_after_restore) {
    char *cp = paused_at_a();
    eg_graph *g = graph("{\"nodes\":{\"a\":{},\"b\":{},\"d\":{}},\"edges\":{\"a\":\"b\",\"b\":\"d\",\"d\":\"__end__\"},\"entryPoint\":\"a\"}");
    eg_error e;
    eg_run *r = restore(g, cp, &e);
    CHECK(r != NULL);
    CHECK(eg_run_resume(r, NULL, 0, NULL) == EG_OK);
    CHECK_STR(next_node(r), "b");
    submit(r, 0, "{}");
    CHECK_STR(next_node(r), "d");
    eg_run_free(r);
    eg_graph_free(g);
    free(cp);
}

TEST(redeploy_changed_edge_routes_by_the_new_edge) {
    char *cp = paused_at_a();
    eg_graph *g = graph("{\"nodes\":{\"a\":{},\"b\":{},\"c\":{}},\"edges\":{\"a\":\"c\",\"c\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\"}");
    eg_error e;
    eg_run *r = restore(g, cp, &e);
    CHECK(r != NULL);
    CHECK(eg_run_resume(r, NULL, 0, NULL) == EG_OK);
    CHECK_STR(next_node(r), "c");
    eg_run_free(r);
    eg_graph_free(g);
    free(cp);
}

TEST(redeploy_renamed_node_continues_under_its_new_name) {
    char *cp = paused_at_a();
    cJSON *old = cJSON_Parse(cp);
    CHECK(cJSON_GetObjectItem(old, "graphVersion") && cJSON_GetObjectItem(old, "graphVersion")->valuedouble == 0);
    cJSON_Delete(old);
    eg_graph *g = graph("{\"version\":2,\"renamedNodes\":{\"a\":\"ask\"},\"nodes\":{\"ask\":{},\"b\":{}},\"edges\":{\"ask\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"ask\"}");
    eg_error e;
    eg_run *r = restore(g, cp, &e);
    CHECK(r != NULL);
    /* The run's own checkpoint now names the new node and the new version. */
    char *now = copy_checkpoint(r);
    CHECK(now && strstr(now, "\"node\":\"ask\"") && strstr(now, "\"graphVersion\":2"));
    free(now);
    CHECK(eg_run_resume(r, NULL, 0, NULL) == EG_OK);
    CHECK_STR(next_node(r), "b");
    eg_run_free(r);
    eg_graph_free(g);
    free(cp);
}

TEST(redeploy_without_the_paused_node_names_it) {
    char *cp = paused_at_a();
    eg_graph *g = graph("{\"nodes\":{\"x\":{},\"b\":{}},\"edges\":{\"x\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"x\"}");
    eg_error e;
    CHECK(restore(g, cp, &e) == NULL);
    CHECK(e.code == EG_E_CHECKPOINT_GRAPH && strstr(e.message, "'a'") && strstr(e.message, "renamedNodes"));
    eg_graph_free(g);
    free(cp);
}

TEST(redeploy_names_every_missing_node) {
    /* A run between steps of a fan-out: 'b' and 'c' are both pending. */
    eg_graph *g = graph("{\"nodes\":{\"s\":{},\"b\":{},\"c\":{}},\"edges\":{\"s\":[\"b\",\"c\"],\"b\":\"__end__\",\"c\":\"__end__\"},\"entryPoint\":\"s\"}");
    eg_run *r = NULL;
    CHECK(eg_run_new(g, "{}", 2, NULL, 0, &r, NULL) == EG_OK);
    CHECK_STR(next_node(r), "s");
    submit(r, 0, "{}");
    CHECK_STR(next_node(r), "b");
    char *cp = copy_checkpoint(r);
    eg_run_free(r);
    eg_graph *edited = graph("{\"nodes\":{\"s\":{},\"d\":{}},\"edges\":{\"s\":\"d\",\"d\":\"__end__\"},\"entryPoint\":\"s\"}");
    eg_error e;
    CHECK(restore(edited, cp, &e) == NULL);
    CHECK(e.code == EG_E_CHECKPOINT_GRAPH && strstr(e.message, "'b', 'c'"));
    eg_graph_free(edited);
    eg_graph_free(g);
    free(cp);
}

TEST(redeploy_router_answer_pending_under_a_now_static_edge) {
    /* Paused waiting for the host's router; the edge is static now: C routes. */
    eg_graph *g = graph("{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":{\"router\":\"pick\",\"targets\":[\"b\"]},\"b\":\"__end__\"},\"entryPoint\":\"a\"}");
    eg_run *r = NULL;
    CHECK(eg_run_new(g, "{}", 2, NULL, 0, &r, NULL) == EG_OK);
    CHECK_STR(next_node(r), "a");
    submit(r, 0, "{}");
    cJSON *o = step(r);
    CHECK_STR(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "tasks"), 0), "kind")->valuestring, "route");
    cJSON_Delete(o);
    char *cp = copy_checkpoint(r);
    eg_run_free(r);
    eg_graph *edited = graph(chain);
    eg_error e;
    r = restore(edited, cp, &e);
    CHECK(r != NULL);
    CHECK_STR(next_node(r), "b");
    eg_run_free(r);
    eg_graph_free(edited);
    eg_graph_free(g);
    free(cp);
}

TEST(redeploy_definition_fields_are_checked) {
    static const char *const bad[] = {
        "{\"version\":-1,\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\"}",
        "{\"version\":1.5,\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\"}",
        "{\"renamedNodes\":[],\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\"}",
        "{\"renamedNodes\":{\"old\":\"gone\"},\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\"}",
        "{\"renamedNodes\":{\"a\":\"a\"},\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        eg_graph *g = NULL;
        eg_error e;
        CHECK(eg_graph_new(bad[i], strlen(bad[i]), &g, &e) != EG_OK && g == NULL);
    }
    /* version and renamedNodes are not the graph's shape: the hash stays. */
    eg_graph *plain = graph(chain);
    eg_graph *versioned = graph("{\"version\":7,\"renamedNodes\":{\"old\":\"a\"},\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\"}");
    CHECK_STR(eg_graph_hash(plain), eg_graph_hash(versioned));
    eg_graph_free(plain);
    eg_graph_free(versioned);
}

/* Written by the previous release (format 1: a hash of the whole value). */
static const char format1[] =
    "{\"format\":\"edgegraph-checkpoint\",\"version\":1,\"graph\":\"102123c7c7dad689\",\"runId\":\"mwtnew2y-1-feg8t70y\",\"status\":\"PAUSED\","
    "\"phase\":\"routes\",\"superstep\":1,\"stepsThisCall\":1,\"interrupt\":false,\"tasks\":[{\"node\":\"a\",\"kind\":\"route\",\"state\":\"unresolved\"}],"
    "\"state\":{\"data\":{\"k\":1,\"a\":true},\"messages\":[],\"metadata\":{},\"logs\":[],\"stepCount\":1,\"status\":\"PAUSED\",\"shouldPause\":true,"
    "\"currentNode\":\"a\",\"nextNode\":null},\"checksum\":\"4988142891e5373a\"}";

/* `golden` with the character at `offset` after the first `find` set to `c`: the restore must refuse it. */
static void check_text_edit_is_caught(const eg_graph *g, const char *golden, const char *find, size_t offset, char c) {
    size_t n = strlen(golden) + 1;
    char *edited = malloc(n);
    memcpy(edited, golden, n);
    strstr(edited, find)[offset] = c;
    eg_error e;
    CHECK(restore(g, edited, &e) == NULL && e.code == EG_E_CHECKPOINT && strstr(e.message, "checksum"));
    free(edited);
}

TEST(redeploy_format_1_checkpoint_still_restores_and_is_checked) {
    eg_graph *g = graph(chain);
    eg_error e;
    eg_run *r = restore(g, format1, &e);
    CHECK(r != NULL);
    CHECK(r && eg_run_resume(r, NULL, 0, NULL) == EG_OK);
    CHECK_STR(next_node(r), "b");
    eg_run_free(r);
    check_text_edit_is_caught(g, format1, "\"k\":1", 4, '2');
    eg_graph_free(g);
}

/* Edit the checkpoint's state at `path` (a.b.c) with `value`: the restore must refuse it. */
static void check_edit_is_caught(const eg_graph *g, const char *cp, const char *const *path, size_t n, cJSON *value) {
    cJSON *j = cJSON_Parse(cp);
    cJSON *at = cJSON_GetObjectItem(j, "state");
    for (size_t i = 0; i + 1 < n; i++) at = cJSON_IsArray(at) ? cJSON_GetArrayItem(at, atoi(path[i])) : cJSON_GetObjectItem(at, path[i]);
    if (!value) cJSON_DeleteItemFromArray(at, cJSON_GetArraySize(at) - 1);
    else if (cJSON_IsArray(at)) cJSON_ReplaceItemInArray(at, atoi(path[n - 1]), value);
    else cJSON_ReplaceItemInObject(at, path[n - 1], value);
    char *text = cJSON_PrintUnformatted(j);
    eg_error e;
    CHECK(restore(g, text, &e) == NULL && e.code == EG_E_CHECKPOINT && strstr(e.message, "checksum"));
    free(text);
    cJSON_Delete(j);
}

/* Written by the release before format 3 (its state sum hashes strings with FNV-1a). */
static const char format2[] =
    "{\"format\":\"edgegraph-checkpoint\",\"version\":2,\"graph\":\"102123c7c7dad689\",\"graphVersion\":0,\"status\":\"PAUSED\","
    "\"phase\":\"routes\",\"superstep\":1,\"stepsThisCall\":1,\"interrupt\":false,\"tasks\":[{\"node\":\"a\",\"kind\":\"route\",\"state\":\"unresolved\"}],"
    "\"checksum\":\"d8881cdea77250d0\",\"state\":{\"data\":{\"k\":1,\"note\":\"a string of twenty-five\",\"a\":true},\"messages\":[],\"metadata\":{},"
    "\"logs\":[],\"stepCount\":1,\"status\":\"PAUSED\",\"shouldPause\":true,\"currentNode\":\"a\",\"nextNode\":null}}";

TEST(redeploy_format_2_checkpoint_restores_is_checked_and_goes_on_in_format_3) {
    eg_graph *g = graph(chain);
    eg_error e;
    eg_run *r = restore(g, format2, &e);
    CHECK(r != NULL);
    /* Its next checkpoint is format 3, summed afresh: it restores too. */
    char *now = r ? copy_checkpoint(r) : NULL;
    CHECK(now && strstr(now, "\"version\":3,") && strstr(now, "twenty-five"));
    eg_run *again = now ? restore(g, now, &e) : NULL;
    CHECK(again != NULL);
    CHECK(again && eg_run_resume(again, NULL, 0, NULL) == EG_OK);
    CHECK_STR(next_node(again), "b");
    eg_run_free(again);
    eg_run_free(r);
    free(now);
    check_text_edit_is_caught(g, format2, "twenty-five", 0, 'T');
    eg_graph_free(g);
}

TEST(checksum_format_3_catches_a_change_at_every_byte_of_a_long_string) {
    /* 8-byte words and a tail: a change in either, or a string cut short, is caught. */
    eg_graph *g = graph(chain);
    eg_run *r = NULL;
    const char *input = "{\"data\":{\"text\":\"0123456789abcdefghijklmnopqrstu\"}}";   /* 31 bytes */
    CHECK(eg_run_new(g, input, strlen(input), NULL, 0, &r, NULL) == EG_OK);
    CHECK_STR(next_node(r), "a");
    submit(r, 0, "{\"shouldPause\":true}");
    cJSON_Delete(step(r));
    char *cp = copy_checkpoint(r);
    CHECK(cp && strstr(cp, "\"version\":3,"));
    eg_error e;
    eg_run *back = restore(g, cp, &e);
    CHECK(back != NULL);
    eg_run_free(back);
    char text[32];
    for (size_t i = 0; i < 31; i++) {
        memcpy(text, "0123456789abcdefghijklmnopqrstu", 32);
        text[i] = '#';
        check_edit_is_caught(g, cp, (const char *[]){ "data", "text" }, 2, cJSON_CreateString(text));
    }
    check_edit_is_caught(g, cp, (const char *[]){ "data", "text" }, 2, cJSON_CreateString("0123456789abcdefghijklmnopqrst"));
    free(cp);
    eg_run_free(r);
    eg_graph_free(g);
}

TEST(checksum_kept_step_by_step_catches_edits) {
    /* Writes of every kind the sum follows: merge, concat, messages (append, replace, remove), last-write. */
    eg_graph *g = graph("{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\","
                        "\"state\":{\"reducers\":{\"messages\":\"messages\",\"data\":\"merge\",\"logs\":\"concat\"}}}");
    eg_run *r = NULL;
    const char *input = "{\"messages\":[{\"id\":\"m1\",\"content\":\"hi\"},{\"id\":\"m2\",\"content\":\"yo\"}],\"data\":{\"big\":[1,2,3]}}";
    CHECK(eg_run_new(g, input, strlen(input), NULL, 0, &r, NULL) == EG_OK);
    CHECK_STR(next_node(r), "a");
    submit(r, 0, "{\"data\":{\"n\":1,\"deep\":{\"x\":[true]}},\"logs\":[\"one\"],\"messages\":[{\"id\":\"m3\",\"content\":\"new\"},{\"id\":\"m1\",\"content\":\"edited\"}]}");
    CHECK_STR(next_node(r), "b");
    submit(r, 0, "{\"data\":{\"n\":2},\"logs\":[\"two\"],\"messages\":[{\"id\":\"m2\",\"type\":\"remove\"}],\"shouldPause\":true}");
    cJSON_Delete(step(r));
    char *cp = copy_checkpoint(r);
    eg_error e;
    eg_run *back = restore(g, cp, &e);
    CHECK(back != NULL);
    eg_run_free(back);
    check_edit_is_caught(g, cp, (const char *[]){ "data", "n" }, 2, cJSON_CreateNumber(3));
    check_edit_is_caught(g, cp, (const char *[]){ "data", "deep", "x", "0" }, 4, cJSON_CreateFalse());
    check_edit_is_caught(g, cp, (const char *[]){ "messages", "0", "content" }, 3, cJSON_CreateString("hi"));
    check_edit_is_caught(g, cp, (const char *[]){ "logs", "x" }, 2, NULL);         /* the last log cut off */
    check_edit_is_caught(g, cp, (const char *[]){ "data", "big", "x" }, 3, NULL);  /* a truncated list */
    free(cp);
    eg_run_free(r);
    eg_graph_free(g);
}

TEST(set_state_replaces_a_restored_runs_state) {
    char *cp = paused_at_a();
    eg_graph *g = graph(chain);
    eg_error e;
    eg_run *r = restore(g, cp, &e);
    CHECK(r != NULL);
    CHECK(eg_run_set_state(r, "[1]", 3, &e) == EG_E_INVALID_INPUT);
    CHECK(eg_run_set_state(NULL, "{}", 2, &e) == EG_E_DISPOSED);
    const char *migrated = "{\"data\":{\"count\":1},\"status\":\"PAUSED\",\"currentNode\":\"a\"}";
    CHECK(eg_run_set_state(r, migrated, strlen(migrated), &e) == EG_OK);
    /* Its next checkpoint carries (and checks) the new state. */
    char *now = copy_checkpoint(r);
    CHECK(now && strstr(now, "\"count\":1") && !strstr(now, "\"k\":1"));
    eg_run *again = restore(g, now, &e);
    CHECK(again != NULL);
    eg_run_free(again);
    free(now);
    eg_run_free(r);
    eg_graph_free(g);
    free(cp);
}

/* The state's text (a snapshot) escapes what JSON needs at every position,
 * around the 8-byte fast path of eg_buf_string, and keeps UTF-8 as it is. */
TEST(state_text_escapes_every_position) {
    static const char specials[] = { '"', '\\', '\n', 0x01, 0x1f, 0x7f };
    eg_graph *g = graph(chain);
    for (size_t k = 0; k < sizeof specials; k++) {
        for (int at = 0; at < 24; at++) {
            char text[32];
            memset(text, 'a', 25);
            memcpy(text + 20, "\xc3\xa9", 2);  /* é, bytes above 0x80 */
            text[at] = specials[k];
            text[25] = '\0';
            cJSON *input = cJSON_CreateObject();
            cJSON_AddStringToObject(input, "s", text);
            char *json = cJSON_PrintUnformatted(input);
            eg_run *r = NULL;
            CHECK(eg_run_new(g, json, strlen(json), NULL, 0, &r, NULL) == EG_OK);
            const char *out;
            size_t len;
            CHECK(eg_run_state(r, &out, &len, NULL) == EG_OK);
            cJSON *back = cJSON_ParseWithLength(out, len);
            CHECK(back && cJSON_IsString(cJSON_GetObjectItem(back, "s")) && strcmp(cJSON_GetObjectItem(back, "s")->valuestring, text) == 0);
            cJSON_Delete(back);
            eg_run_free(r);
            free(json);
            cJSON_Delete(input);
        }
    }
    eg_graph_free(g);
}
