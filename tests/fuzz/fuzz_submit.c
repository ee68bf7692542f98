/* fuzz_submit.c: arbitrary node results and router answers through every
 * reducer, in parallel steps. The input is split at NUL bytes: the first
 * part is the initial state, the rest are results in turn. A part that
 * starts with '!' is an interrupt instead of a result; while the run is
 * paused, one that starts with '?' answers (then resume) and '>' is a goto.
 * One that starts with '$' is submitted with its strings as raw segments
 * (as the JS layer hands long strings over), when it is JSON. */
#include "../c/json_read_diff.h"
#include "edgegraph.h"
#include <stdint.h>
#include <stddef.h>
#include <string.h>

static const char graph_json[] =
    "{\"nodes\":{\"a\":{},\"b\":{},\"c\":{},\"j\":{\"defer\":true}},"
    "\"edges\":{\"a\":[\"b\",\"c\"],\"b\":\"j\",\"c\":{\"router\":\"r\"},\"j\":{\"path\":\"data.more\",\"cases\":{\"true\":\"a\"},\"default\":\"__end__\"}},"
    "\"entryPoint\":\"a\",\"maxSteps\":20,\"state\":{\"shape\":\"frame\",\"reducers\":{\"l\":\"concat\",\"u\":\"appendUnique\",\"m\":\"merge\","
    "\"dm\":\"deepMerge\",\"n\":\"sum\",\"mx\":\"max\",\"mn\":\"min\",\"f\":\"first\",\"lg\":\"longest\",\"msg\":\"messages\",\"ro\":\"readonly\",\"av\":\"avg\",\"x.y.z\":\"sum\"}}}";

static void submit_with_segments(eg_run *r, uint32_t i, const char *text, size_t n, eg_error *e) {
    cJSON *tree = eg_parse(text, n);
    eg_buf b = { 0 };
    if (tree && put_with_segments(&b, tree)) eg_run_submit(r, i, b.data, b.len, e);
    else eg_run_submit(r, i, text, n, e);
    eg_buf_free(&b);
    cJSON_Delete(tree);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static eg_graph *g;
    eg_error e;
    if (!g) eg_graph_new(graph_json, sizeof graph_json - 1, &g, &e);
    const char *p = (const char *)data, *end = p + size;
    const char *nul = memchr(p, 0, size);
    size_t first = nul ? (size_t)(nul - p) : size;
    /* Inputs of odd length run under small state limits, so the checks on the
     * whole state (counting messages, measuring past the bound) are fuzzed too. */
    static const char limits[] = "{\"maxStateBytes\":1024,\"maxMessages\":6}";
    const char *opts = size % 2 ? limits : NULL;
    size_t opts_len = size % 2 ? sizeof limits - 1 : 0;
    eg_run *r = NULL;
    eg_run_new(g, p, first, opts, opts_len, &r, &e);
    if (!r) eg_run_new(g, "{}", 2, opts, opts_len, &r, &e);
    p = nul ? nul + 1 : end;
    size_t len;
    const char *out;
    for (int step = 0; step < 30 && r; step++) {
        if (eg_run_status(r) == EG_STATUS_PAUSED && p < end && (*p == '?' || *p == '>')) {
            const char *q = memchr(p, 0, (size_t)(end - p));
            size_t n = q ? (size_t)(q - p) : (size_t)(end - p);
            if (*p == '?') eg_run_answer(r, p + 1, n - 1, &e);
            else eg_run_goto(r, p + 1, n - 1, &e);
            eg_run_pending_interrupts(r, &out, &len, &e);
            eg_run_resume(r, NULL, 0, &e);
            p = q ? q + 1 : end;
        }
        if (eg_run_status(r) != EG_STATUS_RUNNING) break;
        if (eg_run_next(r, &out, &len, &e)) break;
        for (uint32_t i = 0; i < 3; i++) {
            const char *q = p < end ? memchr(p, 0, (size_t)(end - p)) : NULL;
            size_t n = p < end ? (q ? (size_t)(q - p) : (size_t)(end - p)) : 0;
            if (n && *p == '!') eg_run_interrupt_task(r, i, p + 1, n - 1, &e);
            else if (n && *p == '$') submit_with_segments(r, i, p + 1, n - 1, &e);
            else if (n) eg_run_submit(r, i, p, n, &e);
            else eg_run_submit(r, i, "{}", 2, &e);
            p = q ? q + 1 : end;
        }
    }
    if (r) { eg_run_state(r, &out, &len, &e); eg_run_checkpoint(r, &out, &len, &e); }
    eg_run_free(r);
    return 0;
}
