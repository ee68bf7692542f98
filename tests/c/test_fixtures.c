/* test_fixtures.c: every shared fixture, run straight through and with a
 * checkpoint/restore at every step boundary: both must match the expectation. */
#include "check.h"
#include "replay.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#ifndef FIXTURES_DIR
#define FIXTURES_DIR "tests/fixtures"
#endif

static int names(char out[][128], int cap) {
    DIR *d = opendir(FIXTURES_DIR);
    int n = 0;
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d)) && n < cap;) {
        size_t len = strlen(e->d_name);
        if (len > 5 && len < 128 && strcmp(e->d_name + len - 5, ".json") == 0) strcpy(out[n++], e->d_name);
    }
    closedir(d);
    qsort(out, (size_t)n, sizeof out[0], (int (*)(const void *, const void *))strcmp);
    return n;
}

int fixture_names(char out[][128], int cap);
int fixture_names(char out[][128], int cap) { return names(out, cap); }

static void run_all(bool restore) {
    char list[64][128];
    int n = names(list, 64);
    CHECK(n >= 12);
    for (int i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, list[i]);
        cJSON *f = replay_load(path);
        CHECK(f != NULL);
        if (!f) continue;
        replay r;
        bool ran = replay_run(f, restore, &r);
        if (!ran) fprintf(stderr, "  %s: an API call failed with code %d\n", list[i], r.api_error);
        CHECK(ran);
        if (ran && !replay_matches(&r)) {
            fprintf(stderr, "  fixture %s (%s) does not match\n", list[i], restore ? "restored each step" : "straight");
            test_failed(__FILE__, __LINE__, "fixture matches");
        }
        replay_free(&r);
        cJSON_Delete(f);
    }
}

TEST(fixtures_replay_straight) { run_all(false); }
TEST(fixtures_replay_with_restore_at_every_step) { run_all(true); }
/* eg_run_next_flat says what eg_run_next says: read back into its objects, every fixture matches,
 * and a mirror patched from its ops (echoes resolved from the results sent) is the run's state. */
TEST(fixtures_replay_through_next_flat) {
    replay_flat = true;
    replay_echoes = 0;
    run_all(false);
    CHECK(replay_echoes > 0);
    int straight = replay_echoes;
    run_all(true);
    /* Restored at every step, no result was handed to the run that applies it: nothing refers to one. */
    CHECK(replay_echoes == straight);
    replay_flat = false;
}
