/* test_echo.c: eg_run_next_flat's echo ops. A push of what a task's result
 * held as it was refers to it ("e", the task, where) instead of printing it
 * again; everything else (a replacement by id, a removal, a result restored
 * from a checkpoint, eg_run_next, a thread's record) still holds the values. */
#include "check.h"
#include "edgegraph.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char messages_graph[] =
    "{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\","
    "\"state\":{\"reducers\":{\"messages\":\"messages\",\"logs\":\"concat\"},\"defaults\":{\"messages\":[],\"logs\":[]}}}";

static eg_run *started(eg_graph **g, bool record) {
    CHECK(eg_graph_new(messages_graph, strlen(messages_graph), g, NULL) == EG_OK);
    eg_run *r = NULL;
    CHECK(eg_run_new(*g, "{}", 2, NULL, 0, &r, NULL) == EG_OK);
    if (record) eg_run_record_patches(r);
    const char *t;
    CHECK(eg_run_next_flat(r, &t, NULL, NULL) == EG_OK);
    return r;
}

/* Submit `result` to task 0 and read the step flat. */
static const char *flat_step(eg_run *r, const char *result) {
    const char *t = NULL;
    CHECK(eg_run_submit(r, 0, result, strlen(result), NULL) == EG_OK);
    CHECK(eg_run_next_flat(r, &t, NULL, NULL) == EG_OK);
    return t;
}

static bool has(const char *s, const char *what) { return s && strstr(s, what) != NULL; }

TEST(echo_refers_to_pushed_results_and_prints_the_rest) {
    eg_graph *g;
    eg_run *r = started(&g, false);
    const char *t = flat_step(r, "{\"messages\":[{\"id\":\"m1\",\"content\":\"hello\"},{\"content\":\"two\"}],\"logs\":[\"x\",\"y\"],\"other\":\"kept\"}");
    /* Each message by its place in the list, concat's list whole, a last-value key printed. */
    CHECK(has(t, "\"e\",1,\"messages\",0,0,\"e\",1,\"messages\",0,1,\"e\",1,\"logs\",0,-2"));
    CHECK(!has(t, "hello") && !has(t, "\"x\"") && has(t, "\"kept\""));
    /* A replacement by id, a removal and one message without a list. */
    t = flat_step(r, "{\"messages\":[{\"id\":\"m1\",\"content\":\"again\"},{\"type\":\"remove\",\"id\":\"m1\"},{\"content\":\"three\"}],\"logs\":\"z\"}");
    CHECK(has(t, "\"s\",2,\"messages\",0,{\"id\":\"m1\",\"content\":\"again\"}") && has(t, "\"d\",2,\"messages\",0"));
    CHECK(has(t, "\"e\",1,\"messages\",0,2") && has(t, "\"e\",1,\"logs\",0,-1") && !has(t, "three"));
    const char *state;
    size_t len;
    CHECK(eg_run_state(r, &state, &len, NULL) == EG_OK);
    CHECK(has(state, "\"messages\":[{\"content\":\"two\"},{\"content\":\"three\"}]") && has(state, "\"logs\":[\"x\",\"y\",\"z\"]"));
    eg_run_free(r);
    eg_graph_free(g);
}

TEST(echo_prints_what_a_record_or_eg_run_next_or_a_restored_task_needs) {
    eg_graph *g;
    /* A thread's record holds the values; the flat step still refers to them. */
    eg_run *r = started(&g, true);
    const char *t = flat_step(r, "{\"messages\":{\"content\":\"recorded\"}}");
    CHECK(has(t, "\"e\",1,\"messages\",0,-1") && !has(t, "recorded"));
    const char *rec = NULL;
    CHECK(eg_run_record(r, EG_RECORD_DELTA, 0, -1, 0, 0, &rec, NULL, NULL) == EG_OK);
    CHECK(has(rec, "[\"push\",[\"messages\"],[{\"content\":\"recorded\"}]]"));
    /* eg_run_next prints the push. */
    CHECK(eg_run_submit(r, 0, "{\"messages\":{\"content\":\"next\"}}", 31, NULL) == EG_OK);
    CHECK(eg_run_next(r, &t, NULL, NULL) == EG_OK);
    CHECK(has(t, "[\"push\",[\"messages\"],[{\"content\":\"next\"}]]"));
    eg_run_free(r);
    eg_graph_free(g);
    /* A result restored from a checkpoint is not the host's to refer to: printed. */
    r = started(&g, false);
    CHECK(eg_run_submit(r, 0, "{\"messages\":{\"content\":\"restored\"}}", 35, NULL) == EG_OK);
    const char *cp;
    size_t len;
    CHECK(eg_run_checkpoint(r, &cp, &len, NULL) == EG_OK);
    char *copy = malloc(len + 1);
    memcpy(copy, cp, len + 1);
    eg_run *back = NULL;
    CHECK(eg_run_restore(g, copy, len, NULL, 0, &back, NULL) == EG_OK);
    free(copy);
    CHECK(eg_run_next_flat(back, &t, NULL, NULL) == EG_OK);
    CHECK(has(t, "\"p\",1,\"messages\",[{\"content\":\"restored\"}]") && !has(t, "\"e\""));
    eg_run_free(back);
    eg_run_free(r);
    eg_graph_free(g);
}

static long fail_at = -1;   /* the allocation to fail, counting from 0; -1: none */
static void *t_malloc(size_t n) { return fail_at >= 0 && fail_at-- == 0 ? NULL : malloc(n); }
static void *t_realloc(void *p, size_t n) { return fail_at >= 0 && fail_at-- == 0 ? NULL : realloc(p, n); }

/* A flat step that could not be handed out is read flat again, whole; eg_run_next refuses it. */
TEST(echo_step_kept_after_out_of_memory_is_read_flat_again) {
    eg_allocator a = { t_malloc, t_realloc, free };
    int kept = 0;
    /* A long last-value write: the step's text outgrows the output buffer. */
    char result[4200];
    strcpy(result, "{\"messages\":{\"content\":\"m\"},\"k\":\"");
    size_t at = strlen(result);
    memset(result + at, 'x', 4000);
    strcpy(result + at + 4000, "\"}");
    for (long n = 0; n < 200; n++) {
        eg_graph *g;
        eg_run *r = started(&g, false);
        CHECK(eg_run_submit(r, 0, result, strlen(result), NULL) == EG_OK);
        const char *t;
        eg_set_allocator(&a);
        fail_at = n;
        eg_code rc = eg_run_next_flat(r, &t, NULL, NULL);
        bool failed = fail_at < 0;   /* allocation n was made, and failed */
        fail_at = -1;
        eg_set_allocator(NULL);
        if (rc == EG_E_NOMEM && eg_run_status(r) == EG_STATUS_RUNNING) {
            eg_error e;
            CHECK(eg_run_next(r, &t, NULL, &e) == EG_E_BAD_STATE);
            CHECK(eg_run_next_flat(r, &t, NULL, NULL) == EG_OK);
            CHECK(has(t, "\"e\",1,\"messages\",0,-1") && has(t, "\"k\",\"xxx"));
            kept++;
        }
        eg_run_free(r);
        eg_graph_free(g);
        if (!failed) break;   /* the step needs fewer allocations than n: every one was tried */
    }
    CHECK(kept > 0);
}
