/* test_record.c: a thread's record as the core prints it (eg_run_record):
 * the patch ops next() handed out since the last record, a delta's fields
 * from "status" on, the sealed head, and a failed allocation that leaves the
 * kept ops for the next try. (Its checksum is format 2's, which the JS tests
 * check: records.js reads every record the core seals.) */
#include "check.h"
#include "edgegraph.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char chain[] = "{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\"}";

static const char *record(eg_run *r, int flags, double parent) {
    const char *t = NULL;
    return eg_run_record(r, flags, 7, parent, 1000, 2, &t, NULL, NULL) == EG_OK ? t : NULL;
}

static bool starts(const char *s, const char *prefix) { return s && strncmp(s, prefix, strlen(prefix)) == 0; }

static eg_run *recorded_run(eg_graph **g) {
    eg_error e;
    eg_graph_new(chain, strlen(chain), g, &e);
    eg_run *r = NULL;
    eg_run_new(*g, "{\"data\":{\"k\":1}}", 16, "{\"runId\":\"r1\"}", 14, &r, &e);
    eg_run_record_patches(r);
    return r;
}

static void step(eg_run *r, const char *result) {
    const char *t;
    if (result) CHECK(eg_run_submit(r, 0, result, strlen(result), NULL) == EG_OK);
    CHECK(eg_run_next(r, &t, NULL, NULL) == EG_OK);
}

TEST(record_holds_the_ops_since_the_last_record) {
    eg_graph *g;
    eg_run *r = recorded_run(&g);
    step(r, NULL);
    const char *full = record(r, 0, -1);
    CHECK(starts(full, "\"m\":{\"format\":\"edgegraph-checkpoint\""));
    CHECK(full && strstr(full, "\"runId\":\"r1\",\"status\":\"RUNNING\""));
    CHECK(full && strstr(full, ",\"x\":[[") && strstr(full, "\"stepCount\""));
    /* Taken: the next record has no ops until next() hands out more. */
    CHECK_STR(strstr(record(r, EG_RECORD_DELTA, -1), ",\"x\":"), ",\"x\":[]}");
    step(r, "{\"data\":{\"a\":1}}");
    const char *delta = record(r, EG_RECORD_DELTA, -1);
    CHECK(starts(delta, "\"m\":{\"status\":\"RUNNING\""));
    CHECK(delta && strstr(delta, "[\"data\",\"a\"]") && strstr(delta, "\"checksum\":\""));
    /* A snapshot holds the state, never the ops. */
    step(r, "{\"data\":{\"b\":2}}");
    const char *snap = record(r, EG_RECORD_SNAPSHOT | EG_RECORD_DELTA, -1);
    CHECK(starts(snap, "\"m\":{\"format\":") && snap && strstr(snap, ",\"s\":{") && !strstr(snap, "\"x\":"));
    CHECK(snap && strstr(snap, "\"a\":1") && strstr(snap, "\"b\":2"));
    eg_run_free(r);
    eg_graph_free(g);
}

TEST(record_sealed_has_its_checksum_and_head) {
    eg_graph *g;
    eg_run *r = recorded_run(&g);
    step(r, NULL);
    const char *s = record(r, EG_RECORD_SEALED, -1);
    CHECK(s && strspn(s, "0123456789abcdef") == 16);
    CHECK(starts(s ? s + 16 : NULL, "{\"v\":2,\"p\":null,\"t\":1000,\"d\":2,\"m\":{\"format\":"));
    step(r, "{}");
    s = record(r, EG_RECORD_SEALED | EG_RECORD_DELTA, 41);
    CHECK(starts(s ? s + 16 : NULL, "{\"v\":2,\"p\":41,\"t\":1000,\"d\":2,\"m\":{\"status\":"));
    /* The same record sealed under another seed (thread or id) has another checksum. */
    char first[17] = { 0 };
    memcpy(first, s, 16);
    const char *t = NULL;
    CHECK(eg_run_record(r, EG_RECORD_SEALED | EG_RECORD_DELTA, 8, 41, 1000, 2, &t, NULL, NULL) == EG_OK);
    CHECK(t && strncmp(t, first, 16) != 0);
    CHECK(eg_run_record(NULL, 0, 0, 0, 0, 0, &t, NULL, NULL) == EG_E_DISPOSED);
    eg_run_free(r);
    eg_graph_free(g);
}

static long fail_at = -1;   /* the allocation to fail, counting from 0; -1: none */
static void *t_malloc(size_t n) { return fail_at >= 0 && fail_at-- == 0 ? NULL : malloc(n); }
static void *t_realloc(void *p, size_t n) { return fail_at >= 0 && fail_at-- == 0 ? NULL : realloc(p, n); }

static int count(const char *s, const char *what) {
    int n = 0;
    for (const char *at = s; at && (at = strstr(at, what)); at += strlen(what)) n++;
    return n;
}

static char *big_write(const char *key, size_t n) {
    char *json = malloc(n + 64);
    int at = snprintf(json, n + 64, "{\"data\":{\"%s\":\"", key);
    memset(json + at, 'x', n);
    strcpy(json + at + n, "\"}}");
    return json;
}

TEST(record_out_of_memory_keeps_the_ops_for_the_next_try) {
    eg_graph *g;
    eg_run *r = recorded_run(&g);
    eg_allocator a = { t_malloc, t_realloc, free };
    eg_set_allocator(&a);
    /* next() that cannot keep its ops for the record fails whole, and its retry hands them out once. */
    const char *t;
    fail_at = 0;
    CHECK(eg_run_next(r, &t, NULL, NULL) == EG_E_NOMEM);
    fail_at = -1;
    CHECK(eg_run_next(r, &t, NULL, NULL) == EG_OK);
    CHECK(count(record(r, 0, -1), "[\"stepCount\"]") == 1);
    /* A record that cannot grow its text fails, and the next one still holds the ops. */
    char *one = big_write("one", 5000), *two = big_write("two", 5000);
    step(r, one);
    (void)record(r, EG_RECORD_DELTA, -1);
    step(r, two);
    fail_at = 0;
    CHECK(eg_run_record(r, EG_RECORD_SNAPSHOT, 0, -1, 0, 0, &t, NULL, NULL) == EG_E_NOMEM);
    fail_at = -1;
    const char *delta = record(r, EG_RECORD_DELTA, -1);
    CHECK(count(delta, "[\"data\",\"two\"]") == 1 && count(delta, "[\"data\",\"one\"]") == 0);
    eg_set_allocator(NULL);
    free(one);
    free(two);
    eg_run_free(r);
    eg_graph_free(g);
}
