/* eg_slab.c: the .wasm's malloc. Blocks of up to 1 KB, header included
 * (nearly every block the core asks for: cJSON nodes, keys, short strings),
 * come from 20 size classes, each a free list, carved from 64 KB slabs; larger
 * blocks from emmalloc. Why: dlmalloc was ~2.5 KB gzip of the .wasm more than
 * emmalloc, and emmalloc alone slowed down with 100k live small blocks (it
 * searches its free lists), where a size class is a pop and a push.
 *
 * A small block is never given back to emmalloc: its class keeps it for the
 * next block of its size. A peak of small blocks stays theirs, where dlmalloc
 * could hand the space to a large block later (the .wasm's memory never
 * shrinks either way).
 *
 * Every block has an 8-byte header before it: its class, or LARGE. Natively
 * the same code runs over the C library's malloc, so the C tests drive it. */
#include "eg_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __EMSCRIPTEN__
void *emmalloc_malloc(size_t n);
void *emmalloc_realloc(void *p, size_t n);
void emmalloc_free(void *p);
#define BIG_MALLOC emmalloc_malloc
#define BIG_REALLOC emmalloc_realloc
#define BIG_FREE emmalloc_free
#else
#define BIG_MALLOC malloc
#define BIG_REALLOC realloc
#define BIG_FREE free
#endif

#define HEADER 8u
#define SMALL_MAX 1024u
#define CLASSES 20u
#define SLAB 65536u
#define LARGE 0xffffffffu

static char *free_list[CLASSES];
static char *cursor, *limit;   /* the current slab's unused part */

/* The class of a block of `total` bytes (header included, at most SMALL_MAX):
 * 16-byte steps up to 128, then four classes per doubling (160, 192, 224, 256, 320, ...). */
static unsigned class_of(size_t total) {
    if (total <= 128) return (unsigned)((total - 1) >> 4);
    unsigned shift = 31u - (unsigned)__builtin_clz((unsigned)(total - 1));
    return 8u + (shift - 7u) * 4u + (unsigned)((total - 1 - (1u << shift)) >> (shift - 2u));
}

static size_t class_size(unsigned c) {
    if (c < 8) return (c + 1u) * 16u;
    unsigned shift = 7u + (c - 8u) / 4u;
    return (1u << shift) + ((c - 8u) % 4u + 1u) * (1u << (shift - 2u));
}

static uint32_t *header(void *p) { return (uint32_t *)(void *)((char *)p - HEADER); }

void *eg_slab_malloc(size_t n) {
    if (n > SIZE_MAX - 2 * HEADER) return NULL;
    if (n + HEADER > SMALL_MAX) {
        char *b = BIG_MALLOC(n + HEADER);
        if (!b) return NULL;
        *(uint32_t *)(void *)b = LARGE;
        return b + HEADER;
    }
    unsigned c = class_of(n + HEADER);
    char *b = free_list[c];
    if (b) {
        free_list[c] = *(char **)(void *)(b + HEADER);   /* the next free block, kept in the payload */
    } else {
        size_t size = class_size(c);
        if ((size_t)(limit - cursor) < size) {
            /* The old slab's tail (under 1 KB) is left unused. */
            char *slab = BIG_MALLOC(SLAB);
            if (!slab) return NULL;
            cursor = slab;
            limit = slab + SLAB;
        }
        b = cursor;
        cursor += size;
    }
    *(uint32_t *)(void *)b = c;
    return b + HEADER;
}

void eg_slab_free(void *p) {
    if (!p) return;
    uint32_t c = *header(p);
    char *b = (char *)p - HEADER;
    if (c == LARGE) { BIG_FREE(b); return; }
    /* Loads and stores, not memcpy: with bulk memory that is a memory.copy, a call in V8. */
    *(char **)p = free_list[c];
    free_list[c] = b;
}

void *eg_slab_realloc(void *p, size_t n) {
    if (!p) return eg_slab_malloc(n);
    uint32_t c = *header(p);
    if (c == LARGE) {
        /* A large block stays large, whatever its new size. */
        if (n > SIZE_MAX - 2 * HEADER) return NULL;
        char *b = BIG_REALLOC((char *)p - HEADER, n + HEADER);
        return b ? b + HEADER : NULL;
    }
    size_t room = class_size(c) - HEADER;
    if (n <= room) return p;
    void *q = eg_slab_malloc(n);
    if (!q) return NULL;
    memcpy(q, p, room);
    eg_slab_free(p);
    return q;
}

#ifdef __EMSCRIPTEN__
/* These take the place of emmalloc's own (weak) malloc, free, realloc and
 * calloc; nothing in the .wasm calls its memalign family (checked: the
 * linked .wasm has no such function), which would bypass the headers. */
void *malloc(size_t n) { return eg_slab_malloc(n); }
void free(void *p) { eg_slab_free(p); }
void *realloc(void *p, size_t n) { return eg_slab_realloc(p, n); }
void *calloc(size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) return NULL;
    void *p = eg_slab_malloc(count * size);
    if (p) memset(p, 0, count * size);
    return p;
}
#endif
