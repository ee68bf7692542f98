/* test_alloc.c: fail the Nth allocation, for every N, across the shared
 * fixtures. Each run must either succeed as expected or fail cleanly with
 * OUT_OF_MEMORY: no crash, no leak (LeakSanitizer checks at exit), no other
 * error code standing in for "out of memory". */
#include "check.h"
#include "replay.h"
#include "edgegraph.h"

#include <stdlib.h>
#include <string.h>

extern void (*replay_arm_hook)(bool on);
int fixture_names(char out[][128], int cap);

static bool armed = false;
static long countdown = -1;   /* fail when it reaches 0; -1: never */
static long seen = 0;         /* armed allocations so far */

static void arm(bool on) { armed = on; }

static bool should_fail(void) {
    if (!armed) return false;
    seen++;
    if (countdown < 0) return false;
    return --countdown == 0;
}

static void *t_malloc(size_t n) { return should_fail() ? NULL : malloc(n); }
static void *t_realloc(void *p, size_t n) { return should_fail() ? NULL : realloc(p, n); }

static bool has_oom_stop(const replay *r) {
    for (const cJSON *t = r->trace ? r->trace->child : NULL; t; t = t->next)
        if (strcmp(t->valuestring, "ERROR:OUT_OF_MEMORY") == 0) return true;
    return false;
}

static void sweep(const char *name, bool restore) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", "tests/fixtures", name);
    cJSON *f = replay_load(path);
    if (!f) { CHECK(f != NULL); return; }
    eg_allocator a = { t_malloc, t_realloc, free };
    eg_set_allocator(&a);
    replay_arm_hook = arm;
    /* Count the allocations of a clean run, then fail each one in turn. */
    replay r;
    countdown = -1; seen = 0;
    bool ok = replay_run(f, restore, &r);
    CHECK(ok && replay_matches(&r));
    replay_free(&r);
    long total = seen;
    for (long n = 1; n <= total; n++) {
        countdown = n; seen = 0;
        ok = replay_run(f, restore, &r);
        bool clean = ok ? (has_oom_stop(&r) || replay_matches(&r)) : r.api_error == EG_E_NOMEM;
        if (!clean) {
            fprintf(stderr, "  %s: failing allocation %ld of %ld gave api_error %d (%s)\n", name, n, total, r.api_error,
                    r.api_error ? eg_code_name(r.api_error) : "no error, wrong result");
            CHECK(clean);
            replay_free(&r);
            break;
        }
        replay_free(&r);
    }
    replay_arm_hook = NULL;
    eg_set_allocator(NULL);
    cJSON_Delete(f);
}

TEST(alloc_failure_sweep_every_fixture) {
    char list[64][128];
    int n = fixture_names(list, 64);
    for (int i = 0; i < n; i++) sweep(list[i], false);
}

TEST(alloc_failure_sweep_with_checkpoints) {
    sweep("08-pause-resume.json", true);
    sweep("09-max-steps.json", true);
    sweep("14-fan-out-join.json", true);
}

/* The state manager under the same sweep: each call either succeeds or
 * fails with OUT_OF_MEMORY, and never leaks. Returns the first error code. */
static int state_scenario(void) {
    eg_error e;
    const char *reducers = "{\"scratch.results\":\"concat\",\"scratch.total\":\"sum\",\"scratch.score\":\"avg\",\"artifacts.meta\":\"merge\"}";
    arm(true);
    eg_state_manager *sm = eg_sm_new(reducers, strlen(reducers), &e);
    arm(false);
    if (!sm) return e.code;
    int rc = EG_OK;
    const char *base = "{\"input\":{\"q\":1},\"scratch\":{\"results\":[\"x\"],\"total\":5,\"score\":2},\"artifacts\":{\"meta\":{\"a\":0}}}";
    const char *branches = "[{\"input\":{\"q\":1},\"currentNodeId\":\"b1\",\"scratch\":{\"results\":[\"x\",\"r1\"],\"total\":6,\"score\":3,\"score__count\":2}},"
                           "{\"input\":{\"q\":1},\"scratch\":{\"results\":[\"x\",\"r2\"],\"total\":5},\"artifacts\":{\"meta\":{\"a\":1,\"b\":[1,2]}}}]";
    const char *patch = "{\"results\":[\"y\"],\"total\":1,\"score\":4}";
    arm(true);
    if (!eg_sm_initialize(sm, "{\"q\":1}", 7, NULL, &e)) rc = e.code;
    else if (!eg_sm_update(sm, base, strlen(base), "scratch", patch, strlen(patch), NULL, &e)) rc = e.code;
    else if (!eg_sm_visit(sm, base, strlen(base), "node", 4, NULL, &e)) rc = e.code;
    else if (!eg_sm_merge(sm, base, strlen(base), branches, strlen(branches), NULL, &e)) rc = e.code;
    arm(false);
    eg_sm_free(sm);
    return rc;
}

/* Fail each allocation of `scenario` in turn: every outcome is success or
 * OUT_OF_MEMORY (LeakSanitizer checks nothing leaks). */
static void sweep_scenario(const char *name, int (*scenario)(void)) {
    eg_allocator a = { t_malloc, t_realloc, free };
    eg_set_allocator(&a);
    countdown = -1; seen = 0;
    CHECK(scenario() == EG_OK);
    long total = seen;
    CHECK(total > 20);
    for (long n = 1; n <= total; n++) {
        countdown = n; seen = 0;
        int rc = scenario();
        if (rc != EG_OK && rc != EG_E_NOMEM) {
            fprintf(stderr, "  %s: failing allocation %ld of %ld gave %s\n", name, n, total, eg_code_name(rc));
            CHECK(rc == EG_E_NOMEM);
            break;
        }
    }
    eg_set_allocator(NULL);
}

TEST(alloc_failure_sweep_state_manager) { sweep_scenario("state manager", state_scenario); }

/* The chat history under the sweep. */
static int history_scenario(void) {
    eg_error e;
    arm(true);
    eg_history *h = eg_history_new("{\"maxContextTokens\":60}", 23, &e);
    arm(false);
    if (!h) return e.code;
    const char *msgs[] = {
        "{\"role\":\"user\",\"content\":\"first question\"}",
        "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}",
        "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"result\"}",
        "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"look\"},{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\",\"detail\":\"low\"}}],\"id\":\"img\"}",
        "{\"role\":\"assistant\",\"content\":\"ok\",\"id\":\"last\"}",
    };
    const char *list = "[{\"role\":\"system\",\"content\":\"S\",\"id\":\"s\"},{\"role\":\"user\",\"content\":\"U\"}]";
    int rc = EG_OK;
    arm(true);
    if ((rc = eg_history_set_system(h, "be brief", 8, -1, &e))) goto out;
    for (size_t i = 0; i < sizeof msgs / sizeof *msgs; i++)
        if ((rc = eg_history_add(h, msgs[i], strlen(msgs[i]), -1, NULL, &e))) goto out;
    if ((rc = eg_history_edit(h, "last", 4, "\"okay\"", 6, -1, &e))) goto out;
    if (!eg_history_trim(h, NULL) || !eg_history_export(h, NULL) || !eg_history_get(h, "img", 3, NULL)) { rc = EG_E_NOMEM; goto out; }
    if ((rc = eg_history_delete_range(h, "img", 3, "last", 4, &e))) goto out;
    rc = eg_history_import(h, list, strlen(list), "[2,-1]", 6, &e);
out:
    arm(false);
    eg_history_free(h);
    return rc;
}

TEST(alloc_failure_sweep_history) { sweep_scenario("history", history_scenario); }

/* A failed resume or apply leaves the run as it was (the header's promise):
 * for every allocation of the call in turn, fail it, check the state did not
 * move, retry, and find the user's message exactly once. */
static int count_text(const char *haystack, const char *needle) {
    int n = 0;
    for (const char *p = strstr(haystack, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

static eg_run *paused_run(eg_graph *g) {
    eg_error e;
    eg_run *r = eg_run_new(g, "{}", 2, NULL, 0, &e);
    size_t len;
    if (!r || !eg_run_next(r, &len)) return r;
    const char *pause = "{\"pendingAskUser\":{\"question\":\"go?\"}}";
    eg_run_submit(r, 0, pause, strlen(pause));
    eg_run_next(r, &len);
    return r;
}

TEST(alloc_failure_in_resume_and_apply_changes_nothing) {
    const char *def = "{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\"}";
    eg_error e;
    eg_graph *g = eg_graph_new(def, strlen(def), &e);
    CHECK(g != NULL);
    if (!g) return;
    eg_allocator a = { t_malloc, t_realloc, free };
    eg_set_allocator(&a);
    const char *msg = "{\"role\":\"user\",\"content\":\"yes-once\"}";
    const char *update = "{\"data\":{\"x\":1},\"metadata\":{\"y\":2},\"logs\":[\"z\"]}";
    long failures = 0;
    for (long n = 1; n < 400; n++) {
        eg_run *r = paused_run(g);
        CHECK(r != NULL && eg_run_status(r) == EG_STATUS_PAUSED);
        if (!r) break;
        size_t len;
        const char *text = eg_run_state(r, &len);
        char *before = malloc(len + 1);
        memcpy(before, text, len);
        before[len] = '\0';
        arm(true); countdown = n; seen = 0;
        int rc = eg_run_apply(r, update, strlen(update), &e);
        if (!rc) rc = eg_run_resume(r, msg, strlen(msg));
        arm(false); countdown = -1;
        bool done = rc == EG_OK && seen < n;   /* no allocation left to fail */
        if (rc == EG_E_NOMEM) {
            failures++;
            CHECK(eg_run_status(r) == EG_STATUS_PAUSED);
            /* Apply is all or nothing; resume failing after a good apply leaves the apply. */
            const char *now = eg_run_state(r, &len);
            CHECK(count_text(now, "yes-once") == 0);
            CHECK(count_text(now, "\"x\":1") == count_text(now, "\"y\":2"));
            if (count_text(now, "\"x\":1") == 0) CHECK(strcmp(now, before) == 0);
            CHECK(eg_run_apply(r, update, strlen(update), &e) == EG_OK);
            CHECK(eg_run_resume(r, msg, strlen(msg)) == EG_OK);
        } else {
            CHECK(rc == EG_OK);
        }
        /* A resume that says OK resumed: never an OK that left the run stopped by OUT_OF_MEMORY. */
        CHECK(eg_run_status(r) == EG_STATUS_RUNNING);
        const char *out = eg_run_next(r, &len);
        CHECK(out != NULL);
        const char *state = eg_run_state(r, &len);
        CHECK(state && count_text(state, "yes-once") == 1);
        free(before);
        eg_run_free(r);
        if (done) break;
    }
    CHECK(failures > 3);
    eg_set_allocator(NULL);
    eg_graph_free(g);
}
