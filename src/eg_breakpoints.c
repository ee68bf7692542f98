/* eg_breakpoints.c: interruptBefore and interruptAfter (run options: lists of
 * node names). A run pauses when a step about to run holds a node of the
 * first list, and after a step that ran a node of the second; resume goes on
 * from there. They are options of the call, not of the graph or checkpoint. */
#include "eg_run_internal.h"

#include <string.h>

enum { BREAK_BEFORE = 1, BREAK_AFTER = 2 };

static eg_code read_list(eg_run *run, const cJSON *o, const char *key, unsigned char bit, eg_error *err) {
    const cJSON *list = eg_get(o, key);
    if (!list || cJSON_IsNull(list)) return EG_OK;
    if (!cJSON_IsArray(list)) return eg_fail(err, EG_E_INVALID_OPTIONS, "options.%s must be a list of node names", key);
    const eg_graph *g = run->graph;
    if (!run->breaks && !(run->breaks = eg_malloc(g->n_nodes))) return eg_nomem(err);
    if (!(run->has_breaks)) memset(run->breaks, 0, g->n_nodes);
    run->has_breaks = true;
    for (const cJSON *c = list->child; c; c = c->next) {
        int i = cJSON_IsString(c) ? eg_graph_find(g, c->valuestring, strlen(c->valuestring)) : -1;
        if (i < 0) return eg_fail(err, EG_E_INVALID_OPTIONS, "options.%s names '%s', which is not a node of this graph", key, cJSON_IsString(c) ? c->valuestring : "?");
        run->breaks[i] |= bit;
    }
    return EG_OK;
}

eg_code eg_run_read_breakpoints_(eg_run *run, const cJSON *options, eg_error *err) {
    eg_code rc = read_list(run, options, "interruptBefore", BREAK_BEFORE, err);
    return rc ? rc : read_list(run, options, "interruptAfter", BREAK_AFTER, err);
}

static bool any_break(const eg_run *run, unsigned char bit) {
    for (size_t i = 0; run->has_breaks && i < run->n_tasks; i++)
        if (run->tasks[i].node >= 0 && (run->breaks[run->tasks[i].node] & bit)) return true;
    return false;
}

bool eg_run_breaks_before_(const eg_run *run) { return any_break(run, BREAK_BEFORE); }
bool eg_run_breaks_after_(const eg_run *run) { return any_break(run, BREAK_AFTER); }
