/* eg_alloc.c: one allocator for the core and cJSON.
 * cJSON's hooks are process-wide; we install trampolines once so that tests
 * can swap the allocator (e.g. to fail the Nth allocation) for both at once. */
#include "eg_internal.h"

#include <stdlib.h>
#include <string.h>

static eg_allocator current = { malloc, realloc, free };
static bool json_hooked = false;

void eg_set_allocator(const eg_allocator *a) {
    current.malloc_fn = (a && a->malloc_fn) ? a->malloc_fn : malloc;
    current.realloc_fn = (a && a->realloc_fn) ? a->realloc_fn : realloc;
    current.free_fn = (a && a->free_fn) ? a->free_fn : free;
    eg_init_json();
}

/* Set when an allocation fails, so callers of cJSON (which reports every
 * failure as NULL) can tell "out of memory" from "invalid input". */
static bool alloc_failed = false;

void eg_alloc_clear_failed(void) { alloc_failed = false; }
bool eg_alloc_failed(void) { return alloc_failed; }

void *eg_malloc(size_t n) {
    void *p = current.malloc_fn(n ? n : 1);
    if (!p) alloc_failed = true;
    return p;
}
void *eg_realloc(void *p, size_t n) {
    void *q = current.realloc_fn(p, n ? n : 1);
    if (!q) alloc_failed = true;
    return q;
}
void eg_free(void *p) { if (p) current.free_fn(p); }

static void *json_malloc(size_t n) { return eg_malloc(n); }
static void json_free(void *p) { eg_free(p); }

void eg_init_json(void) {
    if (json_hooked) return;
    /* realloc is left NULL on purpose: cJSON then uses malloc+copy, which keeps
     * every allocation going through the one counting path. */
    cJSON_Hooks hooks = { json_malloc, json_free };
    cJSON_InitHooks(&hooks);
    json_hooked = true;
}

char *eg_strndup(const char *s, size_t n) {
    char *d = eg_malloc(n + 1);
    if (!d) return NULL;
    if (n) memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *eg_strdup(const char *s) { return s ? eg_strndup(s, strlen(s)) : NULL; }

/* strstr for the core's short texts: musl's two-way strstr is 1.7 KB of the .wasm. */
bool eg_contains(const char *text, const char *part) {
    size_t n = strlen(part);
    for (; *text; text++)
        if (*text == *part && strncmp(text, part, n) == 0) return true;
    return n == 0;
}
