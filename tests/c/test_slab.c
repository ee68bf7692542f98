/* test_slab.c: the .wasm's malloc (eg_slab.c), here over the C library's:
 * every size gets a block of its own that holds it, aligned, never
 * overlapping another; a freed small block is reused by its class; realloc
 * keeps the contents; the fixtures replay the same with the core on it. */
#include "check.h"
#include "replay.h"
#include "eg_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int fixture_names(char out[][128], int cap);

static void fill(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(seed * 31u + i * 7u);
}

static bool intact(const unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++) if (p[i] != (unsigned char)(seed * 31u + i * 7u)) return false;
    return true;
}

TEST(slab_every_size_holds_its_bytes_apart) {
    enum { N = 2100 };
    static unsigned char *blocks[N];
    for (size_t n = 0; n < N; n++) {
        blocks[n] = eg_slab_malloc(n);
        CHECK(blocks[n] != NULL);
        CHECK(((uintptr_t)blocks[n] & 7u) == 0);
        fill(blocks[n], n, (unsigned)n);
    }
    /* Filled one after another: a block that overlapped another would have lost bytes. */
    for (size_t n = 0; n < N; n++) CHECK(intact(blocks[n], n, (unsigned)n));
    for (size_t n = 0; n < N; n++) eg_slab_free(blocks[n]);
}

TEST(slab_reuses_a_freed_block_of_its_class) {
    for (size_t n = 1; n <= 1016; n += 13) {
        void *p = eg_slab_malloc(n);
        eg_slab_free(p);
        void *q = eg_slab_malloc(n);
        CHECK(q == p);
        eg_slab_free(q);
    }
    eg_slab_free(NULL);
}

TEST(slab_realloc_keeps_contents) {
    /* Small: growing within the class stays in place; past it, the bytes move along. */
    unsigned char *p = eg_slab_malloc(20);
    fill(p, 20, 1);
    CHECK(eg_slab_realloc(p, 24) == p);
    unsigned char *q = eg_slab_realloc(p, 3000);   /* small to large */
    CHECK(q && intact(q, 20, 1));
    fill(q, 3000, 2);
    unsigned char *r = eg_slab_realloc(q, 200000);
    CHECK(r && intact(r, 3000, 2));
    unsigned char *s = eg_slab_realloc(r, 10);      /* a large block shrinks in place or moves, whole */
    CHECK(s && intact(s, 10, 2));
    eg_slab_free(s);
    unsigned char *t = eg_slab_realloc(NULL, 100);
    CHECK(t != NULL);
    eg_slab_free(t);
    CHECK(eg_slab_malloc(SIZE_MAX - 4) == NULL);
}

TEST(slab_random_operations_keep_every_block) {
    enum { LIVE = 512, OPS = 200000 };
    static unsigned char *p[LIVE];
    static size_t len[LIVE];
    static unsigned seed[LIVE];
    uint32_t x = 12345;
    for (int op = 0; op < OPS; op++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        unsigned i = x % LIVE;
        /* Mostly small blocks, as the core's; now and then a large one. */
        size_t n = (x >> 9) % 16 == 0 ? (x >> 13) % 20000 : (x >> 13) % 300;
        if (p[i]) {
            CHECK(intact(p[i], len[i], seed[i]));
            if ((x >> 20) & 1) {
                unsigned char *q = eg_slab_realloc(p[i], n);
                CHECK(q != NULL);
                CHECK(intact(q, len[i] < n ? len[i] : n, seed[i]));
                p[i] = q;
            } else {
                eg_slab_free(p[i]);
                p[i] = eg_slab_malloc(n);
            }
        } else {
            p[i] = eg_slab_malloc(n);
        }
        CHECK(p[i] != NULL);
        len[i] = n;
        seed[i] = (unsigned)op;
        fill(p[i], n, seed[i]);
    }
    for (unsigned i = 0; i < LIVE; i++) {
        CHECK(intact(p[i], len[i], seed[i]));
        eg_slab_free(p[i]);
        p[i] = NULL;
    }
}

TEST(slab_runs_the_core) {
    eg_allocator a = { eg_slab_malloc, eg_slab_realloc, eg_slab_free };
    char list[64][128];
    int n = fixture_names(list, 64);
    CHECK(n > 10);
    for (int i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", "tests/fixtures", list[i]);
        cJSON *f = replay_load(path);
        CHECK(f != NULL);
        if (!f) continue;
        eg_set_allocator(&a);
        for (int restore = 0; restore < 2; restore++) {
            replay r;
            bool ok = replay_run(f, restore, &r);
            if (!ok || !replay_matches(&r)) fprintf(stderr, "  %s (restore %d) differs on eg_slab\n", list[i], restore);
            CHECK(ok && replay_matches(&r));
            replay_free(&r);
        }
        eg_set_allocator(NULL);
        cJSON_Delete(f);
    }
}
