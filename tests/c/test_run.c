/* test_run.c: run API behaviour that fixtures cannot express: misuse,
 * checkpoints (tampered, truncated, other graph, other version), bare-state
 * resume, interrupts, and reducers on edge values. */
#include "check.h"
#include "edgegraph.h"
#include "cJSON.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static char *dup_text(const char *s) { size_t n = strlen(s) + 1; char *d = malloc(n); memcpy(d, s, n); return d; }

static const char chain[] = "{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\"}";

static eg_graph *graph(const char *json) {
    eg_error e;
    eg_graph *g = NULL;
    if (eg_graph_new(json, strlen(json), &g, &e)) fprintf(stderr, "  graph: %s\n", e.message);
    return g;
}

/* The constructors as expressions: the run, or NULL with *e filled. */
static eg_run *run_new(const eg_graph *g, const char *input, size_t len, const char *opts, size_t olen, eg_error *e) {
    eg_run *r = NULL;
    eg_run_new(g, input, len, opts, olen, &r, e);
    return r;
}
static eg_run *run_restore(const eg_graph *g, const char *cp, size_t len, const char *opts, size_t olen, eg_error *e) {
    eg_run *r = NULL;
    eg_run_restore(g, cp, len, opts, olen, &r, e);
    return r;
}
static eg_run *run_from_state(const eg_graph *g, const char *state, size_t len, const char *opts, size_t olen, eg_error *e) {
    eg_run *r = NULL;
    eg_run_from_state(g, state, len, opts, olen, &r, e);
    return r;
}

/* The run's text outputs as expressions: borrowed text, or NULL. */
static const char *text_of_state(eg_run *r, size_t *len) {
    const char *t = NULL;
    return eg_run_state(r, &t, len, NULL) == EG_OK ? t : NULL;
}
static const char *text_of_checkpoint(eg_run *r, size_t *len) {
    const char *t = NULL;
    return eg_run_checkpoint(r, &t, len, NULL) == EG_OK ? t : NULL;
}
static const char *text_of_checkpoint_meta(eg_run *r, size_t *len) {
    const char *t = NULL;
    return eg_run_checkpoint_meta(r, &t, len, NULL) == EG_OK ? t : NULL;
}

static eg_run *start(const eg_graph *g, const char *input) {
    eg_error e;
    eg_run *r = run_new(g, input, strlen(input), NULL, 0, &e);
    if (!r) fprintf(stderr, "  run: %s\n", e.message);
    return r;
}

static cJSON *next(eg_run *r) {
    size_t len;
    const char *t = NULL;
    return eg_run_next(r, &t, &len, NULL) == EG_OK ? cJSON_ParseWithLength(t, len) : NULL;
}

static const char *str(const cJSON *o, const char *k) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int submit(eg_run *r, unsigned i, const char *json) { return eg_run_submit(r, i, json, strlen(json), NULL); }

TEST(run_api_misuse_leaves_run_usable) {
    eg_graph *g = graph(chain);
    eg_run *r = start(g, "{}");
    cJSON *o = next(r);
    CHECK_STR(str(o, "status"), "RUNNING");
    cJSON_Delete(o);
    CHECK(submit(r, 7, "{}") == EG_E_BAD_TASK);
    CHECK(submit(r, 0, "{}") == EG_OK);
    CHECK(submit(r, 0, "{}") == EG_E_BAD_TASK); /* already done */
    o = next(r);
    CHECK_STR(str(o, "status"), "RUNNING");
    CHECK_STR(str(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "tasks"), 0), "node"), "b");
    cJSON_Delete(o);
    eg_run_free(r);
    eg_graph_free(g);
    eg_run_free(NULL);
    eg_graph_free(NULL);
}

TEST(run_rejects_bad_input_and_options) {
    eg_graph *g = graph(chain);
    eg_error e;
    CHECK(eg_run_new(g, "[1]", 3, NULL, 0, &(eg_run *){NULL}, &e) == EG_E_INVALID_INPUT);
    CHECK(eg_run_new(g, "{", 1, NULL, 0, &(eg_run *){NULL}, &e) == EG_E_INVALID_INPUT);
    CHECK(eg_run_new(g, "{\"stepCount\":3}", 15, NULL, 0, &(eg_run *){NULL}, &e) == EG_E_INVALID_INPUT && strstr(e.message, "stepCount"));
    CHECK(eg_run_new(g, "{}", 2, "{\"maxSteps\":-1}", 15, &(eg_run *){NULL}, &e) == EG_E_INVALID_OPTIONS && strstr(e.message, "maxSteps"));
    /* The text need not be NUL-terminated: exactly len bytes are read. */
    char buf[2] = { '{', '}' };
    eg_run *r = run_new(g, buf, 2, NULL, 0, &e);
    CHECK(r != NULL);
    eg_run_free(r);
    eg_graph_free(g);
}

/* Run the chain to a pause after 'a' and hand out its checkpoint (copied). */
static char *paused_checkpoint(const eg_graph *g) {
    eg_run *r = start(g, "{\"data\":{\"k\":1}}");
    cJSON_Delete(next(r));
    submit(r, 0, "{\"shouldPause\":true,\"data\":{\"a\":true}}");
    cJSON *o = next(r);
    CHECK_STR(str(o, "status"), "PAUSED");
    cJSON_Delete(o);
    size_t len;
    const char *cp = text_of_checkpoint(r, &len);
    char *copy = cp ? dup_text(cp) : NULL;
    eg_run_free(r);
    return copy;
}

TEST(checkpoint_restores_and_resumes) {
    eg_graph *g = graph(chain);
    char *cp = paused_checkpoint(g);
    eg_error e;
    eg_run *r = run_restore(g, cp, strlen(cp), NULL, 0, &e);
    CHECK(r != NULL);
    CHECK(eg_run_status(r) == EG_STATUS_PAUSED);
    CHECK(eg_run_resume(r, "{\"role\":\"user\",\"content\":\"go\"}", strlen("{\"role\":\"user\",\"content\":\"go\"}"), NULL) == EG_OK);
    cJSON *o = next(r);
    CHECK_STR(str(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "tasks"), 0), "node"), "b");
    cJSON_Delete(o);
    submit(r, 0, "{}");
    o = next(r);
    CHECK_STR(str(o, "status"), "FINISHED");
    cJSON_Delete(o);
    size_t len;
    cJSON *state = cJSON_Parse(text_of_state(r, &len));
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(state, "messages")) == 1);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(state, "data"), "a")));
    CHECK(cJSON_GetObjectItem(state, "shouldPause") == NULL);
    cJSON_Delete(state);
    eg_run_free(r);
    free(cp);
    eg_graph_free(g);
}

TEST(checkpoint_survives_reserialization) {
    /* Another JSON library may reorder keys and respell numbers: still valid. */
    eg_graph *g = graph(chain);
    char *cp = paused_checkpoint(g);
    cJSON *j = cJSON_Parse(cp);
    cJSON *state = cJSON_DetachItemFromObject(j, "state");
    cJSON_AddItemToObject(j, "state", state); /* now last: key order changed */
    char *pretty = cJSON_Print(j);            /* whitespace changed */
    eg_error e;
    eg_run *r = run_restore(g, pretty, strlen(pretty), NULL, 0, &e);
    CHECK(r != NULL);
    eg_run_free(r);
    free(pretty);
    cJSON_Delete(j);
    free(cp);
    eg_graph_free(g);
}

TEST(checkpoint_edited_truncated_foreign_or_future_is_an_error) {
    eg_graph *g = graph(chain);
    char *cp = paused_checkpoint(g);
    eg_error e;
    size_t n = strlen(cp);
    for (size_t cut = 1; cut < n; cut += n / 17 + 1) {
        CHECK(eg_run_restore(g, cp, cut, NULL, 0, &(eg_run *){NULL}, &e) != EG_OK);
        CHECK(e.code == EG_E_CHECKPOINT);
    }
    char *edited = dup_text(cp);
    char *k = strstr(edited, "\"k\":1");
    CHECK(k != NULL);
    if (k) k[4] = '2';
    CHECK(eg_run_restore(g, edited, n, NULL, 0, &(eg_run *){NULL}, &e) == EG_E_CHECKPOINT && strstr(e.message, "checksum"));
    free(edited);
    /* A graph without the node the run paused on. */
    eg_graph *other = graph("{\"nodes\":{\"x\":{},\"b\":{},\"c\":{}},\"edges\":{\"x\":\"b\",\"b\":\"c\",\"c\":\"__end__\"},\"entryPoint\":\"x\"}");
    CHECK(eg_run_restore(other, cp, n, NULL, 0, &(eg_run *){NULL}, &e) == EG_E_CHECKPOINT_GRAPH);
    eg_graph_free(other);
    /* Another maxSteps is the same graph: its checkpoints restore. */
    eg_graph *tuned = graph("{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\",\"maxSteps\":9}");
    eg_run *same = run_restore(tuned, cp, n, NULL, 0, &e);
    CHECK(same != NULL);
    eg_run_free(same);
    eg_graph_free(tuned);
    cJSON *j = cJSON_Parse(cp);
    cJSON_ReplaceItemInObject(j, "version", cJSON_CreateNumber(EG_CHECKPOINT_VERSION + 1));
    char *future = cJSON_PrintUnformatted(j);
    CHECK(eg_run_restore(g, future, strlen(future), NULL, 0, &(eg_run *){NULL}, &e) == EG_E_CHECKPOINT_VERSION);
    free(future);
    cJSON_Delete(j);
    CHECK(eg_run_restore(g, "{\"hello\":1}", 11, NULL, 0, &(eg_run *){NULL}, &e) == EG_E_CHECKPOINT);
    free(cp);
    eg_graph_free(g);
}

TEST(bare_state_resume_routes_from_current_node) {
    eg_graph *g = graph(chain);
    const char *saved = "{\"messages\":[],\"data\":{},\"metadata\":{},\"logs\":[],\"status\":\"PAUSED\",\"currentNode\":\"a\",\"nextNode\":null,\"stepCount\":1}";
    eg_error e;
    eg_run *r = run_from_state(g, saved, strlen(saved), NULL, 0, &e);
    CHECK(r && eg_run_status(r) == EG_STATUS_PAUSED);
    CHECK(eg_run_resume(r, "{\"role\":\"user\",\"content\":\"x\"}", strlen("{\"role\":\"user\",\"content\":\"x\"}"), NULL) == EG_OK);
    cJSON *o = next(r);
    CHECK_STR(str(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "tasks"), 0), "node"), "b");
    cJSON_Delete(o);
    eg_run_free(r);
    const char *finished = "{\"status\":\"FINISHED\"}";
    r = run_from_state(g, finished, strlen(finished), NULL, 0, &e);
    CHECK(r && eg_run_resume(r, NULL, 0, NULL) == EG_E_NOT_RESUMABLE);
    eg_run_free(r);
    const char *bad = "{\"status\":\"PAUSED\",\"nextNode\":\"zz\"}";
    CHECK(eg_run_from_state(g, bad, strlen(bad), NULL, 0, &(eg_run *){NULL}, &e) == EG_E_INVALID_INPUT && strstr(e.message, "zz"));
    eg_graph_free(g);
}

/* A run of s -> (x, y) at its step of x and y, stopped by an interrupt once the
 * tasks of `done` (a bit each: 1 x, 2 y) handed their results in. */
static eg_run *stopped_in_parallel_step(eg_graph *g, int done) {
    eg_run *r = start(g, "{}");
    cJSON_Delete(next(r));
    submit(r, 0, "{}");
    cJSON_Delete(next(r));                 /* tasks x and y */
    if (done & 1) submit(r, 0, "{\"data\":{\"x\":1}}");
    if (done & 2) submit(r, 1, "{\"data\":{\"y\":1}}");
    eg_run_interrupt(r);
    cJSON *o = next(r);
    CHECK_STR(str(o, "status"), "INTERRUPTED");
    cJSON_Delete(o);
    return r;
}

static const char *parallel = "{\"nodes\":{\"s\":{},\"x\":{},\"y\":{}},\"edges\":{\"s\":[\"x\",\"y\"],\"x\":\"__end__\",\"y\":\"__end__\"},\"entryPoint\":\"s\"}";

TEST(interrupt_keeps_unfinished_tasks_for_resume) {
    eg_graph *g = graph(parallel);
    eg_run *r = stopped_in_parallel_step(g, 2);   /* y finished, x did not */
    cJSON *o;
    CHECK(eg_run_resume(r, NULL, 0, NULL) == EG_OK);
    o = next(r);
    cJSON *tasks = cJSON_GetObjectItem(o, "tasks");
    CHECK(cJSON_GetArraySize(tasks) == 1);   /* only x runs again */
    CHECK_STR(str(cJSON_GetArrayItem(tasks, 0), "node"), "x");
    cJSON_Delete(o);
    submit(r, 0, "{\"data\":{\"x\":1}}");
    o = next(r);
    CHECK_STR(str(o, "status"), "FINISHED");
    cJSON_Delete(o);
    eg_run_free(r);
    eg_graph_free(g);
}

TEST(interrupt_after_every_task_finished_commits_the_step_first) {
    eg_graph *g = graph(parallel);
    eg_run *r = stopped_in_parallel_step(g, 3);   /* both finished, then the stop */
    cJSON *o;
    /* Their writes are in the state: the resume runs neither again, and finishes. */
    const char *state;
    size_t len;
    eg_error e;
    CHECK(eg_run_state(r, &state, &len, &e) == EG_OK && strstr(state, "\"x\":1") && strstr(state, "\"y\":1"));
    CHECK(eg_run_resume(r, NULL, 0, NULL) == EG_OK);
    o = next(r);
    CHECK_STR(str(o, "status"), "FINISHED");
    cJSON_Delete(o);
    eg_run_free(r);
    eg_graph_free(g);
}

TEST(failed_node_retried_by_resume) {
    eg_graph *g = graph(chain);
    eg_run *r = start(g, "{}");
    cJSON_Delete(next(r));
    CHECK(eg_run_fail(r, 0, "{\"message\":\"flaky\"}", strlen("{\"message\":\"flaky\"}"), NULL) == EG_OK);
    cJSON *o = next(r);
    CHECK_STR(str(o, "status"), "ERROR");
    CHECK_STR(str(cJSON_GetObjectItem(o, "error"), "node"), "a");
    cJSON_Delete(o);
    CHECK(submit(r, 0, "{}") == EG_E_BAD_STATE); /* sticky */
    CHECK(eg_run_resume(r, NULL, 0, NULL) == EG_OK);
    o = next(r);
    CHECK_STR(str(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "tasks"), 0), "node"), "a");
    cJSON_Delete(o);
    eg_run_free(r);
    eg_graph_free(g);
}

/* A task cancelled by a sibling's failure ("code": "ABORTED") goes to no error
 * edge: the step's failure is the sibling's, and the resume runs both again. */
TEST(cancelled_task_goes_to_no_error_edge) {
    eg_graph *g = graph("{\"nodes\":{\"s\":{},\"a\":{\"onError\":\"h\"},\"b\":{},\"h\":{}},\"edges\":{\"s\":[\"a\",\"b\"],\"a\":\"__end__\",\"b\":\"__end__\",\"h\":\"__end__\"},\"entryPoint\":\"s\"}");
    eg_run *r = start(g, "{}");
    cJSON_Delete(next(r));
    CHECK(submit(r, 0, "{}") == EG_OK);
    cJSON_Delete(next(r));   /* a and b run */
    const char *down = "{\"message\":\"b down\"}", *cancelled = "{\"message\":\"b failed\",\"code\":\"ABORTED\"}";
    CHECK(eg_run_fail(r, 1, down, strlen(down), NULL) == EG_OK);
    CHECK(eg_run_fail(r, 0, cancelled, strlen(cancelled), NULL) == EG_OK);
    cJSON *o = next(r);
    CHECK_STR(str(o, "status"), "ERROR");
    CHECK_STR(str(cJSON_GetObjectItem(o, "error"), "node"), "b");
    cJSON_Delete(o);
    CHECK(eg_run_resume(r, NULL, 0, NULL) == EG_OK);
    o = next(r);
    cJSON *tasks = cJSON_GetObjectItem(o, "tasks");
    CHECK(cJSON_GetArraySize(tasks) == 2);
    CHECK_STR(str(cJSON_GetArrayItem(tasks, 0), "node"), "a");
    CHECK_STR(str(cJSON_GetArrayItem(tasks, 1), "node"), "b");
    cJSON_Delete(o);
    eg_run_free(r);
    eg_graph_free(g);
}

/* What a node threw is shown whole (up to EG_MESSAGE_MAX), not cut like a
 * name; past the buffer it is cut at a UTF-8 boundary with "...". */
TEST(failed_node_message_is_kept_whole) {
    eg_graph *g = graph(chain);
    eg_run *r = start(g, "{}");
    cJSON_Delete(next(r));
    static char text[3000];
    for (size_t i = 0; i < sizeof text - 1; i++) text[i] = (char)('a' + i % 26);
    text[sizeof text - 1] = '\0';
    cJSON *err = cJSON_CreateObject();
    cJSON_AddStringToObject(err, "message", text);
    char *json = cJSON_PrintUnformatted(err);
    CHECK(eg_run_fail(r, 0, json, strlen(json), NULL) == EG_OK);
    cJSON_Delete(next(r));
    CHECK(strstr(eg_run_error(r)->message, text) != NULL);
    /* Restored from its checkpoint, the run still has the whole message. */
    size_t cp_len;
    const char *cp = text_of_checkpoint(r, &cp_len);
    eg_error re;
    eg_run *restored = cp ? run_restore(g, cp, cp_len, NULL, 0, &re) : NULL;
    CHECK(restored != NULL);
    if (restored) CHECK(strstr(eg_run_error(restored)->message, text) != NULL);
    eg_run_free(restored);
    free(json);
    cJSON_Delete(err);
    eg_run_free(r);

    /* 3000 two-byte characters (6000 bytes): cut to the buffer on a character boundary. */
    r = start(g, "{}");
    cJSON_Delete(next(r));
    static char wide[6001];
    for (size_t i = 0; i < 6000; i += 2) { wide[i] = (char)0xC3; wide[i + 1] = (char)0xA9; } /* é */
    err = cJSON_CreateObject();
    cJSON_AddStringToObject(err, "message", wide);
    json = cJSON_PrintUnformatted(err);
    CHECK(eg_run_fail(r, 0, json, strlen(json), NULL) == EG_OK);
    cJSON_Delete(next(r));
    const char *m = eg_run_error(r)->message;
    size_t n = strlen(m);
    CHECK(n > 4000 && n < EG_MESSAGE_MAX);
    CHECK(strcmp(m + n - 3, "...") == 0);
    CHECK((unsigned char)m[n - 4] == 0xA9); /* the last kept character is whole */
    free(json);
    cJSON_Delete(err);
    eg_run_free(r);
    eg_graph_free(g);
}

/* One node writes `result` into a state with these reducers; returns the
 * final state (or NULL) and the error code. */
static cJSON *reduce(const char *reducers, const char *input, const char *result, int *code) {
    char def[1024];
    snprintf(def, sizeof def, "{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\",\"state\":{\"reducers\":%s}}", reducers);
    eg_graph *g = graph(def);
    eg_run *r = start(g, input);
    cJSON_Delete(next(r));
    submit(r, 0, result);
    cJSON *o = next(r);
    *code = cJSON_GetObjectItem(o, "error") ? EG_E_REDUCER : EG_OK;
    cJSON *err = cJSON_GetObjectItem(o, "error");
    if (err && strcmp(str(err, "code"), "READONLY_PATH") == 0) *code = EG_E_READONLY;
    cJSON_Delete(o);
    size_t len;
    cJSON *state = cJSON_Parse(text_of_state(r, &len));
    eg_run_free(r);
    eg_graph_free(g);
    return state;
}

static bool state_is(cJSON *state, const char *key, const char *json) {
    cJSON *want = cJSON_Parse(json);
    bool same = cJSON_Compare(cJSON_GetObjectItem(state, key), want, true);
    if (!same) {
        char *got = cJSON_PrintUnformatted(cJSON_GetObjectItem(state, key));
        fprintf(stderr, "  %s: want %s got %s\n", key, json, got ? got : "(missing)");
        free(got);
    }
    cJSON_Delete(want);
    return same;
}

#define REDUCES(reducers, input, result, key, want) do { int c_; cJSON *s_ = reduce(reducers, input, result, &c_); \
    CHECK(c_ == EG_OK); CHECK(state_is(s_, key, want)); cJSON_Delete(s_); } while (0)
#define REJECTS(reducers, input, result, code) do { int c_; cJSON *s_ = reduce(reducers, input, result, &c_); \
    CHECK(c_ == (code)); cJSON_Delete(s_); } while (0)

TEST(reducers_combine_values) {
    REDUCES("{\"r\":\"concat\"}", "{\"r\":[\"x\"]}", "{\"r\":[\"y\",\"z\"]}", "r", "[\"x\",\"y\",\"z\"]");
    REDUCES("{\"r\":\"concat\"}", "{}", "{\"r\":\"one\"}", "r", "[\"one\"]");
    REDUCES("{\"r\":\"concat\"}", "{\"r\":null}", "{\"r\":[1]}", "r", "[1]");
    REDUCES("{\"r\":\"appendUnique\"}", "{\"r\":[1,2]}", "{\"r\":[2,3,3]}", "r", "[1,2,3]");
    REDUCES("{\"o\":\"merge\"}", "{\"o\":{\"a\":1,\"b\":{\"c\":1}}}", "{\"o\":{\"b\":{\"d\":2}}}", "o", "{\"a\":1,\"b\":{\"d\":2}}");
    REDUCES("{\"o\":\"deepMerge\"}", "{\"o\":{\"a\":1,\"b\":{\"c\":1}}}", "{\"o\":{\"b\":{\"d\":2}}}", "o", "{\"a\":1,\"b\":{\"c\":1,\"d\":2}}");
    REDUCES("{\"n\":\"sum\"}", "{\"n\":2}", "{\"n\":3}", "n", "5");
    REDUCES("{\"n\":\"sum\"}", "{}", "{\"n\":3}", "n", "3");
    REDUCES("{\"n\":\"max\"}", "{\"n\":2}", "{\"n\":-3}", "n", "2");
    REDUCES("{\"n\":\"min\"}", "{\"n\":2}", "{\"n\":-3}", "n", "-3");
    REDUCES("{\"f\":\"first\"}", "{\"f\":\"old\"}", "{\"f\":\"new\"}", "f", "\"old\"");
    REDUCES("{\"f\":\"last\"}", "{\"f\":\"old\"}", "{\"f\":\"new\"}", "f", "\"new\"");
    REDUCES("{\"s\":\"longest\"}", "{\"s\":\"abcd\"}", "{\"s\":\"xyz\"}", "s", "\"abcd\"");
    REDUCES("{\"s\":\"longest\"}", "{\"s\":\"ab\"}", "{\"s\":\"\xf0\x9f\x98\x80\xf0\x9f\x98\x80\"}", "s", "\"\xf0\x9f\x98\x80\xf0\x9f\x98\x80\"");
    REDUCES("{\"p.q\":\"sum\"}", "{\"p\":{\"q\":1,\"z\":0}}", "{\"p\":{\"q\":2,\"w\":5}}", "p", "{\"q\":3,\"z\":0,\"w\":5}");
}

TEST(reducer_messages_append_replace_remove) {
    REDUCES("{\"m\":\"messages\"}", "{\"m\":[{\"id\":\"1\",\"content\":\"a\"},{\"id\":\"2\",\"content\":\"b\"}]}",
            "{\"m\":[{\"id\":\"2\",\"content\":\"B\"},{\"id\":\"3\",\"content\":\"c\"},{\"type\":\"remove\",\"id\":\"1\"},{\"type\":\"remove\",\"id\":\"nope\"}]}",
            "m", "[{\"id\":\"2\",\"content\":\"B\"},{\"id\":\"3\",\"content\":\"c\"}]");
}

TEST(reducers_reject_wrong_types) {
    REJECTS("{\"r\":\"concat\"}", "{\"r\":5}", "{\"r\":[1]}", EG_E_REDUCER);
    REJECTS("{\"o\":\"merge\"}", "{}", "{\"o\":[1]}", EG_E_REDUCER);
    REJECTS("{\"n\":\"sum\"}", "{\"n\":1}", "{\"n\":\"2\"}", EG_E_REDUCER);
    REJECTS("{\"n\":\"sum\"}", "{\"n\":\"1\"}", "{\"n\":2}", EG_E_REDUCER);
    REJECTS("{\"s\":\"longest\"}", "{\"s\":\"a\"}", "{\"s\":[1]}", EG_E_REDUCER);
    REJECTS("{\"m\":\"messages\"}", "{}", "{\"m\":[1]}", EG_E_REDUCER);
    REJECTS("{\"input\":\"readonly\"}", "{\"input\":{\"q\":1}}", "{\"input\":{\"q\":2}}", EG_E_READONLY);
}

TEST(patch_describes_every_change) {
    /* A mirror that applies the patch must equal the core's state. */
    eg_graph *g = graph("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\",\"state\":{\"reducers\":{\"m\":\"messages\",\"l\":\"concat\",\"o\":\"merge\"}}}");
    eg_run *r = start(g, "{\"m\":[{\"id\":\"1\"}],\"o\":{\"a\":1}}");
    cJSON *o = next(r);
    int ops = cJSON_GetArraySize(cJSON_GetObjectItem(o, "patch"));
    CHECK(ops == 2); /* stepCount and status at start */
    cJSON_Delete(o);
    submit(r, 0, "{\"m\":[{\"id\":\"1\",\"x\":2},{\"id\":\"2\"}],\"l\":[1],\"o\":{\"b\":2}}");
    o = next(r);
    char *text = cJSON_PrintUnformatted(cJSON_GetObjectItem(o, "patch"));
    CHECK(strstr(text, "[\"set\",[\"m\",0],{\"id\":\"1\",\"x\":2}]") != NULL);
    CHECK(strstr(text, "[\"push\",[\"m\"],[{\"id\":\"2\"}]]") != NULL);
    CHECK(strstr(text, "[\"set\",[\"l\"],[1]]") != NULL);
    CHECK(strstr(text, "[\"set\",[\"o\",\"b\"],2]") != NULL);
    free(text);
    cJSON_Delete(o);
    eg_run_free(r);
    eg_graph_free(g);
}

TEST(checkpoint_meta_plus_state_restores) {
    /* A store keeps the meta and the state apart; put together they restore. */
    eg_graph *g = graph(chain);
    eg_run *r = start(g, "{\"data\":{\"k\":1}}");
    cJSON_Delete(next(r));
    submit(r, 0, "{\"shouldPause\":true}");
    cJSON_Delete(next(r));
    size_t len;
    cJSON *meta = cJSON_Parse(text_of_checkpoint_meta(r, &len));
    cJSON *state = cJSON_Parse(text_of_state(r, &len));
    CHECK(meta && !cJSON_GetObjectItem(meta, "state") && cJSON_GetObjectItem(meta, "checksum"));
    cJSON_AddItemToObject(meta, "state", state);
    char *whole = cJSON_PrintUnformatted(meta);
    eg_error e;
    eg_run *back = run_restore(g, whole, strlen(whole), NULL, 0, &e);
    CHECK(back != NULL);
    eg_run_free(back);
    /* A wrong state (a lost patch) fails the checksum. */
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(meta, "state"), "stepCount", cJSON_CreateNumber(5));
    free(whole);
    whole = cJSON_PrintUnformatted(meta);
    CHECK(eg_run_restore(g, whole, strlen(whole), NULL, 0, &(eg_run *){NULL}, &e) == EG_E_CHECKPOINT);
    free(whole);
    cJSON_Delete(meta);
    eg_run_free(r);
    eg_graph_free(g);
}

TEST(duplicate_keys_keep_the_last_as_javascript_does) {
    /* The core routes on what a JS mirror would see: data.route = "b". */
    eg_graph *g = graph("{\"nodes\":{\"a\":{},\"b\":{},\"c\":{}},\"edges\":{\"a\":{\"path\":\"data.route\",\"cases\":{\"b\":\"b\",\"c\":\"c\"}},\"b\":\"__end__\",\"c\":\"__end__\"},\"entryPoint\":\"a\"}");
    eg_run *r = start(g, "{}");
    cJSON_Delete(next(r));
    submit(r, 0, "{\"data\":{\"route\":\"c\",\"route\":\"b\"}}");
    cJSON *o = next(r);
    CHECK_STR(str(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "tasks"), 0), "node"), "b");
    cJSON_Delete(o);
    size_t len;
    CHECK(strstr(text_of_state(r, &len), "\"route\":\"b\"") != NULL);
    CHECK(strstr(text_of_state(r, &len), "\"route\":\"c\"") == NULL);
    eg_run_free(r);
    /* Many keys (the hashed path), all duplicated. */
    char big[8192] = "{";
    for (int i = 0; i < 40; i++) { char kv[64]; snprintf(kv, sizeof kv, "%s\"k%d\":%d,\"k%d\":%d", i ? "," : "", i, i, i, i + 1000); strcat(big, kv); }
    strcat(big, "}");
    r = start(g, big);
    const char *st = text_of_state(r, &len);
    CHECK(strstr(st, "\"k7\":1007") != NULL && strstr(st, "\"k7\":7,") == NULL);
    eg_run_free(r);
    eg_graph_free(g);
}

TEST(limits_on_results_and_inputs) {
    eg_graph *g = graph(chain);
    eg_error e;
    const char *opts = "{\"maxResultBytes\":64,\"maxInputBytes\":100}";
    eg_run *r = run_new(g, "{}", 2, opts, strlen(opts), &e);
    cJSON_Delete(next(r));
    char big[200];
    snprintf(big, sizeof big, "{\"data\":{\"x\":\"%090d\"}}", 0);
    CHECK(submit(r, 0, big) == EG_OK);
    cJSON *o = next(r);
    CHECK_STR(str(o, "status"), "ERROR");
    CHECK_STR(str(cJSON_GetObjectItem(o, "error"), "code"), "LIMIT_EXCEEDED");
    CHECK(strstr(str(cJSON_GetObjectItem(o, "error"), "message"), "maxResultBytes (64)") != NULL);
    cJSON_Delete(o);
    eg_run_free(r);
    char input[160];
    snprintf(input, sizeof input, "{\"x\":\"%0120d\"}", 0);
    CHECK(eg_run_new(g, input, strlen(input), opts, strlen(opts), &(eg_run *){NULL}, &e) == EG_E_LIMIT && strstr(e.message, "maxInputBytes"));
    CHECK(eg_run_new(g, "{}", 2, "{\"maxResultBytes\":-1}", 21, &(eg_run *){NULL}, &e) == EG_E_INVALID_OPTIONS);
    eg_graph_free(g);
}

static const char self_loop[] = "{\"nodes\":{\"a\":{}},\"edges\":{\"a\":{\"path\":\"data.n\",\"cases\":{\"30\":\"__end__\"},\"default\":\"a\"}},\"entryPoint\":\"a\"}";

/* Drive `r` with node results made by `result(step, buf)` until it stops. */
static cJSON *drive_loop(eg_run *r, void (*result)(int, char *, size_t)) {
    for (int step = 1;; step++) {
        cJSON *o = next(r);
        const cJSON *tasks = cJSON_GetObjectItem(o, "tasks");
        if (!cJSON_GetArraySize(tasks)) return o;
        cJSON_Delete(o);
        char buf[1024];
        result(step, buf, sizeof buf);
        if (submit(r, 0, buf) != EG_OK) return NULL;
    }
}
static void overwrite(int step, char *buf, size_t n) { snprintf(buf, n, "{\"data\":{\"n\":%d,\"pad\":\"%0100d\"}}", step, step); }
static void grow(int step, char *buf, size_t n) { snprintf(buf, n, "{\"data\":{\"n\":%d,\"pad%d\":\"%0100d\"}}", step, step, step); }
static void two_messages(int step, char *buf, size_t n) {
    snprintf(buf, n, "{\"data\":{\"n\":%d},\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"assistant\",\"content\":\"a\"}]}", step);
}

TEST(limits_on_the_whole_state) {
    eg_graph *g = graph(self_loop);
    eg_error e;
    const char *opts = "{\"maxStateBytes\":1000,\"maxMessages\":3}";
    /* 30 results of ~120 bytes each overwrite one key: the running bound passes
     * 1000, the measured state does not, and the run finishes. */
    eg_run *r = run_new(g, "{}", 2, opts, strlen(opts), &e);
    cJSON *o = drive_loop(r, overwrite);
    CHECK_STR(str(o, "status"), "FINISHED");
    cJSON_Delete(o);
    eg_run_free(r);
    /* Each result adds a key: the state passes 1000 bytes and the run stops there, state kept. */
    r = run_new(g, "{}", 2, opts, strlen(opts), &e);
    o = drive_loop(r, grow);
    CHECK_STR(str(o, "status"), "ERROR");
    const cJSON *err = cJSON_GetObjectItem(o, "error");
    CHECK_STR(str(err, "code"), "LIMIT_EXCEEDED");
    CHECK_STR(str(err, "node"), "a");
    CHECK(strstr(str(err, "message"), "more than maxStateBytes (1000)") != NULL);
    cJSON_Delete(o);
    size_t len;
    cJSON *st = cJSON_ParseWithLength(text_of_state(r, &len), len);
    CHECK(len > 1000 && cJSON_GetObjectItem(cJSON_GetObjectItem(st, "data"), "pad7") != NULL);
    cJSON_Delete(st);
    eg_run_free(r);
    /* Two messages a step: the second step makes four, past maxMessages 3. */
    r = run_new(g, "{}", 2, opts, strlen(opts), &e);
    o = drive_loop(r, two_messages);
    err = cJSON_GetObjectItem(o, "error");
    CHECK_STR(str(err, "code"), "LIMIT_EXCEEDED");
    CHECK(strstr(str(err, "message"), "after node 'a' the state holds 4 messages, more than maxMessages (3)") != NULL);
    cJSON_Delete(o);
    eg_run_free(r);
    CHECK(eg_run_new(g, "{}", 2, "{\"maxMessages\":0}", 17, &(eg_run *){NULL}, &e) == EG_E_INVALID_OPTIONS && strstr(e.message, "maxMessages"));
    CHECK(eg_run_new(g, "{}", 2, "{\"maxStateBytes\":\"big\"}", 23, &(eg_run *){NULL}, &e) == EG_E_INVALID_OPTIONS);
    eg_graph_free(g);
}

TEST(hostile_json_is_an_error_not_a_crash) {
    eg_graph *g = graph(chain);
    eg_error e;
    /* 100,000 levels of nesting: cJSON stops at 1000; a clean error. */
    size_t depth = 100000;
    char *deep = malloc(depth * 2 + 16);
    size_t n = 0;
    n += (size_t)sprintf(deep, "{\"a\":");
    for (size_t i = 0; i < depth; i++) deep[n++] = '[';
    for (size_t i = 0; i < depth; i++) deep[n++] = ']';
    deep[n++] = '}';
    CHECK(eg_run_new(g, deep, n, NULL, 0, &(eg_run *){NULL}, &e) == EG_E_INVALID_INPUT);
    CHECK(eg_run_restore(g, deep, n, NULL, 0, &(eg_run *){NULL}, &e) == EG_E_CHECKPOINT);
    CHECK(eg_graph_new(deep, n, &(eg_graph *){NULL}, &e) == EG_E_JSON);
    eg_run *r = start(g, "{}");
    cJSON_Delete(next(r));
    CHECK(eg_run_submit(r, 0, deep, n, NULL) == EG_OK);
    cJSON *o = next(r);
    CHECK_STR(str(cJSON_GetObjectItem(o, "error"), "code"), "INVALID_RESULT");
    cJSON_Delete(o);
    eg_run_free(r);
    free(deep);
    /* Out-of-range numbers, invalid UTF-8, NUL bytes inside the length. */
    r = start(g, "{\"big\":1e400,\"neg\":-1e400,\"bytes\":\"\xff\xfe\xc3\"}");
    size_t len;
    const char *st = text_of_state(r, &len);
    CHECK(strstr(st, "\"big\":null") && strstr(st, "\"neg\":null"));
    eg_run_free(r);
    CHECK(eg_run_new(g, "{}\0{}", 5, NULL, 0, &(eg_run *){NULL}, &e) == EG_E_INVALID_INPUT);
    eg_graph_free(g);
}

/* One error channel: every fallible call returns its code and puts the same
 * code, with a message, in *err; a NULL object is DISPOSED, never a crash;
 * success leaves *err clean. */
TEST(every_run_call_reports_its_code_and_message) {
    eg_error e;
    const char *json = "x";
    size_t len = 0;
    eg_run *out = NULL;
    CHECK(eg_run_new(NULL, "{}", 2, NULL, 0, &out, &e) == EG_E_DISPOSED && strstr(e.message, "graph is NULL") && !out);
    CHECK(eg_run_resume(NULL, NULL, 0, &e) == EG_E_DISPOSED && strstr(e.message, "run is NULL"));
    CHECK(eg_run_apply(NULL, "{}", 2, &e) == EG_E_DISPOSED);
    CHECK(eg_run_next(NULL, &json, &len, &e) == EG_E_DISPOSED && strcmp(json, "x") == 0);
    CHECK(eg_run_submit(NULL, 0, "{}", 2, &e) == EG_E_DISPOSED);
    CHECK(eg_run_fail(NULL, 0, "{}", 2, &e) == EG_E_DISPOSED);
    CHECK(eg_run_state(NULL, &json, &len, &e) == EG_E_DISPOSED);
    CHECK(eg_run_checkpoint(NULL, &json, &len, &e) == EG_E_DISPOSED);
    CHECK(eg_run_checkpoint_meta(NULL, &json, &len, &e) == EG_E_DISPOSED && strstr(e.message, "run is NULL"));
    CHECK(eg_run_status(NULL) == EG_STATUS_ERROR && eg_run_error(NULL)->code == EG_OK);

    eg_graph *g = graph(chain);
    eg_run *r = start(g, "{}");
    CHECK(eg_run_next(r, &json, &len, &e) == EG_OK && e.code == EG_OK && e.message[0] == '\0' && strlen(json) == len);
    CHECK(eg_run_submit(r, 5, "{}", 2, &e) == EG_E_BAD_TASK && e.code == EG_E_BAD_TASK && strstr(e.message, "submit(5)"));
    CHECK(eg_run_fail(r, 9, "{}", 2, &e) == EG_E_BAD_TASK && strstr(e.message, "fail(9)"));
    CHECK(eg_run_resume(r, "[1]", 3, &e) == EG_E_INVALID_INPUT && strstr(e.message, "the user input"));
    CHECK(eg_run_apply(r, "{}", 2, &e) == EG_E_BAD_STATE && strstr(e.message, "not running"));
    CHECK(eg_run_submit(r, 0, "{}", 2, &e) == EG_OK && e.code == EG_OK);
    CHECK(eg_run_next(r, &json, &len, &e) == EG_OK);
    CHECK(eg_run_submit(r, 0, "{}", 2, &e) == EG_OK);
    CHECK(eg_run_next(r, &json, &len, &e) == EG_OK && eg_run_status(r) == EG_STATUS_FINISHED);
    CHECK(eg_run_submit(r, 0, "{}", 2, &e) == EG_E_BAD_STATE && strstr(e.message, "FINISHED"));
    CHECK(eg_run_resume(r, NULL, 0, &e) == EG_E_NOT_RESUMABLE && strstr(e.message, "finished"));
    /* err may be NULL: the code alone still says what happened. */
    CHECK(eg_run_resume(r, NULL, 0, NULL) == EG_E_NOT_RESUMABLE);
    eg_run_free(r);
    eg_graph_free(g);
}
