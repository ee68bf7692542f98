/* fuzz_graph.c: graph definitions from arbitrary bytes; then one run step. */
#include "edgegraph.h"
#include <stdint.h>
#include <stddef.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    eg_error e;
    eg_graph *g = NULL;
    eg_graph_new((const char *)data, size, &g, &e);
    if (g) {
        eg_run *r = NULL;
        eg_run_new(g, "{}", 2, NULL, 0, &r, &e);
        size_t len;
        const char *out;
        if (r) { eg_run_next(r, &out, &len, &e); eg_run_checkpoint(r, &out, &len, &e); }
        eg_run_free(r);
        eg_graph_free(g);
    }
    return 0;
}
