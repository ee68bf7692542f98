/* fuzz_state.c: the state manager on arbitrary states, patches and branches. */
#include "edgegraph.h"
#include <stdint.h>
#include <stddef.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static eg_state_manager *sm;
    eg_error e;
    static const char reducers[] = "{\"scratch.l\":\"concat\",\"scratch.n\":\"sum\",\"scratch.s\":\"avg\",\"artifacts.m\":\"merge\",\"scratch.msg\":\"messages\"}";
    if (!sm) sm = eg_sm_new(reducers, sizeof reducers - 1, &e);
    const char *p = (const char *)data;
    const char *nul = memchr(p, 0, size);
    size_t a = nul ? (size_t)(nul - p) : size;
    const char *rest = nul ? nul + 1 : p + size;
    size_t b = (size_t)(p + size - rest);
    size_t len;
    eg_sm_update(sm, p, a, "scratch", rest, b, &len, &e);
    eg_sm_update(sm, p, a, "artifacts", rest, b, &len, &e);
    eg_sm_merge(sm, p, a, rest, b, &len, &e);
    eg_sm_visit(sm, p, a, "node", 4, &len, &e);
    eg_sm_initialize(sm, p, a, &len, &e);
    return 0;
}
