/* fuzz_checkpoint.c: restoring arbitrary checkpoints (and bare states) into a
 * graph with every edge kind, then driving what restored for a few steps. */
#include "edgegraph.h"
#include <stdint.h>
#include <stddef.h>
#include <string.h>

static const char graph_json[] =
    "{\"nodes\":{\"a\":{},\"b\":{\"onError\":\"c\"},\"c\":{},\"d\":{},\"e\":{\"kind\":\"end\"}},"
    "\"edges\":{\"a\":[\"b\",\"c\"],\"b\":{\"path\":\"data.k\",\"cases\":{\"x\":\"d\"},\"default\":\"c\"},"
    "\"c\":{\"router\":\"r\",\"targets\":[\"d\",\"e\"]},\"d\":{\"map\":\"data.items\",\"to\":\"a\",\"empty\":\"e\"}},"
    "\"entryPoint\":\"a\",\"state\":{\"reducers\":{\"messages\":\"messages\",\"data\":\"deepMerge\",\"n\":\"sum\",\"s\":\"avg\"}}}";

static void drive(eg_run *r) {
    eg_error e;
    size_t len;
    const char *out;
    for (int step = 0; step < 8 && eg_run_status(r) == EG_STATUS_RUNNING; step++) {
        if (eg_run_next(r, &out, &len, &e)) return;
        for (uint32_t i = 0; i < 4; i++) {
            eg_run_submit(r, i, "{\"data\":{\"k\":\"x\"},\"n\":1}", 24, &e);
            eg_run_submit(r, i, "\"e\"", 3, &e);
        }
    }
    eg_run_checkpoint(r, &out, &len, &e);
    eg_run_checkpoint_meta(r, &out, &len, &e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static eg_graph *g;
    eg_error e;
    if (!g) eg_graph_new(graph_json, sizeof graph_json - 1, &g, &e);
    eg_run *r = NULL;
    eg_run_restore(g, (const char *)data, size, NULL, 0, &r, &e);
    if (r) {
        /* What a restored run waits for, answered, or routed from a node (updateState). */
        size_t len;
        const char *out;
        eg_run_pending_interrupts(r, &out, &len, &e);
        if (size % 3 == 0) eg_run_answer(r, "{\"resume\":1}", 12, &e);
        else if (size % 3 == 1) eg_run_route_from(r, "c", 1, &e);
        eg_run_resume(r, NULL, 0, NULL);
        drive(r);
        eg_run_free(r);
    }
    r = NULL;
    eg_run_from_state(g, (const char *)data, size, NULL, 0, &r, &e);
    if (r) { eg_run_resume(r, "{\"role\":\"user\",\"content\":\"hi\"}", 31, NULL); drive(r); eg_run_free(r); }
    return 0;
}
