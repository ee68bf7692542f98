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
