/* eg_slab.c: the .wasm's malloc. Blocks of up to 1 KB, header included
 * (nearly every block the core asks for: cJSON nodes, keys, short strings),
 * come from 64 KB slabs, each of one size class: a slab hands out its free
 * blocks, then ones never used, in address order. Larger blocks come from
 * emmalloc. Why: dlmalloc was ~2.5 KB gzip of the .wasm more than emmalloc,
 * and emmalloc alone slowed down with 100k live small blocks (it searches
 * its free lists), where a slab is a pop and a push.
 *
 * A slab whose blocks are all free leaves its class: a few wait for the next
 * class that needs one (fresh space, carved in address order, as a whole
 * tree freed and read again wants it), the rest go back to emmalloc for
 * any block. So a peak of small blocks does not stay theirs.
 *
 * Every block has an 8-byte header before it: its class, or LARGE. Natively
 * the same code runs over the C library's malloc, so the C tests drive it. */
#include "eg_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SLAB 65536u
#ifdef __EMSCRIPTEN__
void *emmalloc_memalign(size_t alignment, size_t n);
void *emmalloc_realloc_try(void *p, size_t n);
void emmalloc_free(void *p);
#define BIG_MALLOC(n) emmalloc_memalign(8, (n))
#define BIG_FREE emmalloc_free
#define SLAB_MALLOC() emmalloc_memalign(SLAB, SLAB)
#else
#define BIG_MALLOC malloc
#define BIG_FREE free
#define SLAB_MALLOC() aligned_alloc(SLAB, SLAB)
#endif

/* A block's header: its class, or LARGE and its size (a .wasm block is under 4 GB). */
#define HEADER 8u
#define SMALL_MAX 1024u
#define CLASSES 20u
#define LARGE 0xffffffffu
#define SPARE_SLABS 8u

/* A slab's own header, at its start (slabs are SLAB-aligned: a block finds its slab by its address). */
typedef struct slab {
    struct slab *prev, *next;   /* in its class's list of slabs with room, or among the spare ones */
    char *free;                 /* its free blocks, linked through their payloads */
    char *fresh;                /* its blocks never handed out start here */
    uint32_t live;              /* blocks handed out (their class is in each block's header) */
    bool listed;                /* on its class's list */
} slab;

static slab *with_room[CLASSES];
static slab *spare;
static unsigned spares;

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

static slab *slab_of(const void *block) { return (slab *)((uintptr_t)block & ~(uintptr_t)(SLAB - 1)); }
static char *slab_end(slab *s) { return (char *)s + SLAB; }

static void unlink_slab(slab *s, slab **head) {
    if (s->prev) s->prev->next = s->next; else *head = s->next;
    if (s->next) s->next->prev = s->prev;
}

static void push_slab(slab *s, slab **head) {
    s->prev = NULL;
    s->next = *head;
    if (*head) (*head)->prev = s;
    *head = s;
}

/* A slab for class c, with every block unused: a spare one, or a new one. */
static slab *open_slab(unsigned c) {
    slab *s = spare;
    if (s) { unlink_slab(s, &spare); spares--; }
    else if (!(s = SLAB_MALLOC())) return NULL;
    s->free = NULL;
    /* The first block's header sits right after the slab's; payloads stay 8-aligned. */
    s->fresh = (char *)s + ((sizeof *s + 7u) & ~(size_t)7u);
    s->live = 0;
    s->listed = true;
    push_slab(s, &with_room[c]);
    return s;
}

void *eg_slab_malloc(size_t n) {
    if (n > SIZE_MAX - 2 * HEADER) return NULL;
    if (n + HEADER > SMALL_MAX) {
        if (n > UINT32_MAX) return NULL;
        char *b = BIG_MALLOC(n + HEADER);
        if (!b) return NULL;
        ((uint32_t *)(void *)b)[0] = LARGE;
        ((uint32_t *)(void *)b)[1] = (uint32_t)n;
        return b + HEADER;
    }
    unsigned c = class_of(n + HEADER);
    size_t size = class_size(c);
    slab *s = with_room[c];
    if (!s && !(s = open_slab(c))) return NULL;
    char *b = s->free;
    if (b) s->free = *(char **)(void *)(b + HEADER);   /* the next free block, kept in the payload */
    else { b = s->fresh; s->fresh += size; }
    s->live++;
    if (!s->free && s->fresh + size > slab_end(s)) {   /* full: off its class's list until a block comes back */
        unlink_slab(s, &with_room[c]);
        s->listed = false;
    }
    *(uint32_t *)(void *)b = c;
    return b + HEADER;
}

void eg_slab_free(void *p) {
    if (!p) return;
    char *b = (char *)p - HEADER;
    uint32_t c = *(uint32_t *)(void *)b;
    if (c == LARGE) { BIG_FREE(b); return; }
    slab *s = slab_of(b);
    /* Loads and stores, not memcpy: with bulk memory that is a memory.copy, a call in V8. */
    *(char **)p = s->free;
    s->free = b;
    if (!s->listed) { push_slab(s, &with_room[c]); s->listed = true; }
    if (--s->live == 0) {
        unlink_slab(s, &with_room[c]);
        s->listed = false;
        if (spares < SPARE_SLABS) { push_slab(s, &spare); spares++; }
        else BIG_FREE(s);
    }
}

void *eg_slab_realloc(void *p, size_t n) {
    if (!p) return eg_slab_malloc(n);
    uint32_t *h = (uint32_t *)(void *)((char *)p - HEADER);
    size_t room = h[0] == LARGE ? h[1] : class_size(h[0]) - HEADER;
    if (n <= room) return p;
#ifdef __EMSCRIPTEN__
    /* A large block grows in place where emmalloc can; never through
     * emmalloc_realloc, which frees a moved block with free(): this file's. */
    if (h[0] == LARGE && n <= UINT32_MAX && emmalloc_realloc_try(h, n + HEADER)) {
        h[1] = (uint32_t)n;
        return p;
    }
#endif
    void *q = eg_slab_malloc(n);
    if (!q) return NULL;
    memcpy(q, p, room);
    eg_slab_free(p);
    return q;
}

#ifdef __EMSCRIPTEN__
/* These take the place of emmalloc's own (weak) malloc, free, realloc and
 * calloc; nothing in the .wasm calls its memalign family directly (checked:
 * the linked .wasm has no such function), which would bypass the headers. */
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
