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
    eg_sm *sm;
    eg_code rc = eg_sm_new(reducers, strlen(reducers), &sm, &e);
    arm(false);
    if (rc) return rc;
    const char *base = "{\"input\":{\"q\":1},\"scratch\":{\"results\":[\"x\"],\"total\":5,\"score\":2},\"artifacts\":{\"meta\":{\"a\":0}}}";
    const char *branches = "[{\"input\":{\"q\":1},\"currentNodeId\":\"b1\",\"scratch\":{\"results\":[\"x\",\"r1\"],\"total\":6,\"score\":3,\"score__count\":2}},"
                           "{\"input\":{\"q\":1},\"scratch\":{\"results\":[\"x\",\"r2\"],\"total\":5},\"artifacts\":{\"meta\":{\"a\":1,\"b\":[1,2]}}}]";
    const char *patch = "{\"results\":[\"y\"],\"total\":1,\"score\":4}";
    const char *out;
    arm(true);
    if (!(rc = eg_sm_initialize(sm, "{\"q\":1}", 7, &out, NULL, &e))
        && !(rc = eg_sm_update(sm, base, strlen(base), "scratch", patch, strlen(patch), &out, NULL, &e))
        && !(rc = eg_sm_visit(sm, base, strlen(base), "node", 4, &out, NULL, &e)))
        rc = eg_sm_merge(sm, base, strlen(base), branches, strlen(branches), &out, NULL, &e);
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
    eg_history *h;
    eg_code rc = eg_history_new("{\"maxContextTokens\":60}", 23, &h, &e);
    arm(false);
    if (rc) return rc;
    const char *msgs[] = {
        "{\"role\":\"user\",\"content\":\"first question\"}",
        "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}",
        "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"result\"}",
        "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"look\"},{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\",\"detail\":\"low\"}}],\"id\":\"img\"}",
        "{\"role\":\"assistant\",\"content\":\"ok\",\"id\":\"last\"}",
    };
    const char *list = "[{\"role\":\"system\",\"content\":\"S\",\"id\":\"s\"},{\"role\":\"user\",\"content\":\"U\"}]";
    const char *out;
    arm(true);
    if ((rc = eg_history_set_system(h, "be brief", 8, -1, &e))) goto out;
    for (size_t i = 0; i < sizeof msgs / sizeof *msgs; i++)
        if ((rc = eg_history_add(h, msgs[i], strlen(msgs[i]), -1, NULL, &e))) goto out;
    if ((rc = eg_history_edit(h, "last", 4, "\"okay\"", 6, -1, &e))) goto out;
    if ((rc = eg_history_trim(h, &out, NULL, &e)) || (rc = eg_history_export(h, &out, NULL, &e))
        || (rc = eg_history_get(h, "img", 3, &out, NULL, &e))) goto out;
    if ((rc = eg_history_delete_range(h, "img", 3, "last", 4, &e))) goto out;
    rc = eg_history_import(h, list, strlen(list), "[2,-1]", 6, &e);
out:
    arm(false);
    eg_history_free(h);
    return rc;
}

TEST(alloc_failure_sweep_history) { sweep_scenario("history", history_scenario); }

/* A redeploy under the sweep: a checkpoint of one graph restored into an
 * edited one (a node renamed, one added), its state replaced, checkpointed
 * again; and a restore that names the nodes it misses. */
static int redeploy_scenario(void) {
    const char *old_def = "{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\"}";
    const char *new_def = "{\"version\":2,\"renamedNodes\":{\"a\":\"ask\"},\"nodes\":{\"ask\":{},\"b\":{},\"c\":{}},"
                          "\"edges\":{\"ask\":\"c\",\"c\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"ask\"}";
    const char *bare_def = "{\"nodes\":{\"x\":{}},\"edges\":{\"x\":\"__end__\"},\"entryPoint\":\"x\"}";
    eg_graph *old = NULL, *edited = NULL, *bare = NULL;
    eg_run *r = NULL, *back = NULL, *none = NULL;
    const char *out;
    size_t len;
    char *cp = NULL;
    arm(true);
    eg_code rc = eg_graph_new(old_def, strlen(old_def), &old, NULL);
    if (!rc) rc = eg_graph_new(new_def, strlen(new_def), &edited, NULL);
    if (!rc) rc = eg_graph_new(bare_def, strlen(bare_def), &bare, NULL);
    if (!rc) rc = eg_run_new(old, "{\"data\":{\"k\":1}}", 16, NULL, 0, &r, NULL);
    if (!rc) rc = eg_run_next(r, &out, NULL, NULL);
    if (!rc) rc = eg_run_submit(r, 0, "{\"shouldPause\":true}", 20, NULL);
    if (!rc) rc = eg_run_next(r, &out, NULL, NULL);
    if (!rc && eg_run_status(r) == EG_STATUS_ERROR) rc = EG_E_NOMEM;  /* the run recorded running out */
    if (!rc) rc = eg_run_checkpoint(r, &out, &len, NULL);
    if (!rc && !(cp = malloc(len))) rc = EG_E_NOMEM;
    if (!rc) {
        memcpy(cp, out, len);
        eg_code missing = eg_run_restore(bare, cp, len, NULL, 0, &none, NULL);
        if (missing != EG_E_CHECKPOINT_GRAPH) rc = missing == EG_E_NOMEM ? missing : EG_E_INVALID_INPUT;
    }
    if (!rc) rc = eg_run_restore(edited, cp, len, NULL, 0, &back, NULL);
    if (!rc) rc = eg_run_set_state(back, "{\"data\":{\"n\":2}}", 16, NULL);
    if (!rc) rc = eg_run_checkpoint(back, &out, &len, NULL);
    arm(false);
    free(cp);
    eg_run_free(none);
    eg_run_free(back);
    eg_run_free(r);
    eg_graph_free(bare);
    eg_graph_free(edited);
    eg_graph_free(old);
    return rc;
}

TEST(alloc_failure_sweep_redeploy) { sweep_scenario("redeploy", redeploy_scenario); }

/* A failed resume or apply leaves the run as it was (the header's promise):
 * for every allocation of the call in turn, fail it, check the state did not
 * move, retry, and find the user's message exactly once. */
static int count_text(const char *haystack, const char *needle) {
    int n = 0;
    for (const char *p = strstr(haystack, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* The run's state as text, borrowed (NULL when it could not be printed). */
static const char *state_of(eg_run *r) {
    const char *text = NULL;
    eg_run_state(r, &text, NULL, NULL);
    return text;
}

static eg_run *paused_run(eg_graph *g) {
    eg_run *r = NULL;
    const char *out;
    if (eg_run_new(g, "{}", 2, NULL, 0, &r, NULL) || eg_run_next(r, &out, NULL, NULL)) return r;
    const char *pause = "{\"pendingAskUser\":{\"question\":\"go?\"}}";
    eg_run_submit(r, 0, pause, strlen(pause), NULL);
    eg_run_next(r, &out, NULL, NULL);
    return r;
}

TEST(alloc_failure_in_resume_and_apply_changes_nothing) {
    const char *def = "{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\"}";
    eg_error e;
    eg_graph *g = NULL;
    CHECK(eg_graph_new(def, strlen(def), &g, &e) == EG_OK);
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
        const char *text = state_of(r);
        char *before = malloc(strlen(text) + 1);
        strcpy(before, text);
        arm(true); countdown = n; seen = 0;
        eg_code rc = eg_run_apply(r, update, strlen(update), &e);
        if (!rc) rc = eg_run_resume(r, msg, strlen(msg), &e);
        arm(false); countdown = -1;
        bool done = rc == EG_OK && seen < n;   /* no allocation left to fail */
        if (rc == EG_E_NOMEM) {
            failures++;
            CHECK(eg_run_status(r) == EG_STATUS_PAUSED);
            CHECK(e.code == EG_E_NOMEM && strcmp(e.message, "out of memory") == 0);
            /* Apply is all or nothing; resume failing after a good apply leaves the apply. */
            const char *now = state_of(r);
            CHECK(count_text(now, "yes-once") == 0);
            CHECK(count_text(now, "\"x\":1") == count_text(now, "\"y\":2"));
            if (count_text(now, "\"x\":1") == 0) CHECK(strcmp(now, before) == 0);
            CHECK(eg_run_apply(r, update, strlen(update), &e) == EG_OK);
            CHECK(eg_run_resume(r, msg, strlen(msg), &e) == EG_OK && e.code == EG_OK);
        } else {
            CHECK(rc == EG_OK);
        }
        /* A resume that says OK resumed: never an OK that left the run stopped by OUT_OF_MEMORY. */
        CHECK(eg_run_status(r) == EG_STATUS_RUNNING);
        const char *out;
        CHECK(eg_run_next(r, &out, NULL, NULL) == EG_OK);
        const char *state = state_of(r);
        CHECK(state && count_text(state, "yes-once") == 1);
        free(before);
        eg_run_free(r);
        if (done) break;
    }
    CHECK(failures > 3);
    eg_set_allocator(NULL);
    eg_graph_free(g);
}

/* Interrupts, answers, a restore between, a join and a resume goto under the
 * sweep: each call succeeds or says OUT_OF_MEMORY (the run's own error too). */
static eg_code run_rc(eg_run *r, eg_code rc) {
    if (!rc && eg_run_status(r) == EG_STATUS_ERROR) return eg_run_error(r)->code;
    return rc;
}

static int interrupt_scenario(void) {
    const char *def = "{\"nodes\":{\"s\":{},\"a\":{},\"b\":{},\"c\":{},\"j\":{\"join\":[\"a\",\"c\"]}},"
        "\"edges\":{\"s\":[\"a\",\"b\"],\"a\":\"j\",\"b\":\"c\",\"c\":\"j\",\"j\":\"__end__\"},\"entryPoint\":\"s\"}";
    const char *ask = "{\"interrupts\":[{\"id\":\"a:2.0:0\",\"value\":{\"q\":1}}],\"keep\":[1]}";
    const char *answer = "{\"resume\":{\"a:2.0:0\":\"yes\"}}";
    eg_error e;
    eg_graph *g = NULL;
    eg_run *r = NULL, *back = NULL;
    const char *out;
    size_t len;
    arm(true);
    eg_code rc = eg_graph_new(def, strlen(def), &g, &e);
    if (!rc) rc = eg_run_new(g, "{}", 2, NULL, 0, &r, &e);
    if (!rc) rc = run_rc(r, eg_run_next(r, &out, NULL, &e));
    if (!rc) rc = eg_run_submit(r, 0, "{}", 2, &e);
    if (!rc) rc = run_rc(r, eg_run_next(r, &out, NULL, &e));
    if (!rc) rc = eg_run_interrupt_task(r, 0, ask, strlen(ask), &e);
    if (!rc) rc = eg_run_submit(r, 1, "{}", 2, &e);
    if (!rc) rc = run_rc(r, eg_run_next(r, &out, NULL, &e));
    if (!rc) rc = eg_run_pending_interrupts(r, &out, NULL, &e);
    if (!rc) rc = eg_run_checkpoint(r, &out, &len, &e);
    if (!rc) rc = eg_run_restore(g, out, len, NULL, 0, &back, &e);
    if (!rc) rc = eg_run_answer(back, answer, strlen(answer), &e);
    if (!rc) rc = eg_run_resume(back, NULL, 0, &e);
    if (!rc) rc = run_rc(back, eg_run_next(back, &out, NULL, &e));
    if (!rc) rc = eg_run_submit(back, 0, "{}", 2, &e);
    if (!rc) rc = run_rc(back, eg_run_next(back, &out, NULL, &e));     /* c */
    if (!rc) rc = eg_run_submit(back, 0, "{}", 2, &e);
    if (!rc) rc = run_rc(back, eg_run_next(back, &out, NULL, &e));     /* the join j */
    if (!rc && !strstr(out, "\"node\":\"j\"")) rc = EG_E_BAD_TASK;
    if (!rc) rc = eg_run_submit(back, 0, "{\"shouldPause\":true}", 20, &e);
    if (!rc) rc = run_rc(back, eg_run_next(back, &out, NULL, &e));
    if (!rc) rc = eg_run_goto(back, "[\"c\",{\"node\":\"a\",\"arg\":2}]", 26, &e);
    if (!rc) rc = eg_run_checkpoint(back, &out, &len, &e);
    arm(false);
    if (rc && rc != EG_E_NOMEM) fprintf(stderr, "  interrupts scenario: %s %s\n", eg_code_name(rc), e.message);
    eg_run_free(r);
    eg_run_free(back);
    eg_graph_free(g);
    return rc;
}

TEST(alloc_failure_sweep_interrupts_joins_goto) { sweep_scenario("interrupts", interrupt_scenario); }

/* Breakpoints (run options) and updateState's route_from under the sweep. */
static int breakpoint_scenario(void) {
    const char *def = "{\"nodes\":{\"a\":{},\"b\":{},\"c\":{}},\"edges\":{\"a\":\"b\",\"b\":\"c\",\"c\":\"__end__\"},\"entryPoint\":\"a\"}";
    const char *opts = "{\"interruptBefore\":[\"b\"],\"interruptAfter\":[\"b\",\"c\"]}";
    eg_error e;
    eg_graph *g = NULL;
    eg_run *r = NULL;
    const char *out;
    arm(true);
    eg_code rc = eg_graph_new(def, strlen(def), &g, &e);
    if (!rc) rc = eg_run_new(g, "{}", 2, opts, strlen(opts), &r, &e);
    if (!rc) rc = run_rc(r, eg_run_next(r, &out, NULL, &e));
    if (!rc) rc = eg_run_submit(r, 0, "{}", 2, &e);
    if (!rc) rc = run_rc(r, eg_run_next(r, &out, NULL, &e));          /* paused before b */
    if (!rc && eg_run_status(r) != EG_STATUS_PAUSED) rc = EG_E_BAD_STATE;
    if (!rc) rc = eg_run_resume(r, NULL, 0, &e);
    if (!rc) rc = run_rc(r, eg_run_next(r, &out, NULL, &e));
    if (!rc) rc = eg_run_submit(r, 0, "{}", 2, &e);
    if (!rc) rc = run_rc(r, eg_run_next(r, &out, NULL, &e));          /* paused after b */
    if (!rc && eg_run_status(r) != EG_STATUS_PAUSED) rc = EG_E_BAD_STATE;
    if (!rc) rc = eg_run_apply(r, "{\"x\":1}", 7, &e);
    if (!rc) rc = eg_run_route_from(r, "a", 1, &e);
    if (!rc) rc = run_rc(r, eg_run_next(r, &out, NULL, &e));
    if (!rc) rc = eg_run_route_from(r, "__end__", 7, &e);              /* updateState as END */
    if (!rc) rc = run_rc(r, eg_run_next(r, &out, NULL, &e));
    arm(false);
    eg_run_free(r);
    eg_graph_free(g);
    return rc;
}

TEST(alloc_failure_sweep_breakpoints_and_update_state) { sweep_scenario("breakpoints", breakpoint_scenario); }
