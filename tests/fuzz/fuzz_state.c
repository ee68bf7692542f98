/* fuzz_state.c: the state manager on arbitrary states, patches and branches. */
#include "edgegraph.h"
#include <stdint.h>
#include <stddef.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static eg_sm *sm;
    eg_error e;
    static const char reducers[] = "{\"scratch.l\":\"concat\",\"scratch.n\":\"sum\",\"scratch.s\":\"avg\",\"artifacts.m\":\"merge\",\"scratch.msg\":\"messages\"}";
    if (!sm) eg_sm_new(reducers, sizeof reducers - 1, &sm, &e);
    const char *p = (const char *)data;
    const char *nul = memchr(p, 0, size);
    size_t a = nul ? (size_t)(nul - p) : size;
    const char *rest = nul ? nul + 1 : p + size;
    size_t b = (size_t)(p + size - rest);
    size_t len;
    const char *out;
    eg_sm_update(sm, p, a, "scratch", rest, b, &out, &len, &e);
    eg_sm_update(sm, p, a, "artifacts", rest, b, &out, &len, &e);
    eg_sm_merge(sm, p, a, rest, b, &out, &len, &e);
    eg_sm_visit(sm, p, a, "node", 4, &out, &len, &e);
    eg_sm_initialize(sm, p, a, &out, &len, &e);
    return 0;
}
