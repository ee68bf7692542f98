/* eg_run_next.c: what next() hands the host after advancing a run: its
 * status, the state patch since the last call, the tasks to run, and why it
 * stopped; as JSON objects (eg_run_next) or as one flat array (eg_run_next_flat),
 * which a host decodes without an object per op and per task. */
#include "eg_run_internal.h"

#include <string.h>

/* `,"name":value` when there is a value; the first field of an object of its own without the comma. */
static bool put_field(eg_buf *b, bool *first, const char *name, const cJSON *value) {
    if (!value) return true;
    bool ok = (*first || eg_buf_lit(b, ",")) && eg_buf_string(b, name) && eg_buf_lit(b, ":") && eg_buf_json(b, value);
    *first = false;
    return ok;
}

/* One task as {"index":0,"id":"3.0","kind":"node","node":"a","handler":"a"},
 * or flat: index, superstep, kind (0 node, 1 route), the node's index in the
 * graph (eg_run_graph_nodes), then an object of the optional fields (arg,
 * answers, keep) or 0. */
static bool put_task(eg_buf *b, const eg_run *run, size_t i, bool flat) {
    const eg_task *t = &run->tasks[i];
    const eg_node *node = &run->graph->nodes[t->node];
    bool route = t->kind == TASK_ROUTE;
    bool ok;
    if (flat) {
        ok = eg_buf_int(b, (long long)i) && eg_buf_lit(b, ",") && eg_buf_int(b, run->superstep)
             && eg_buf_cstr(b, route ? ",1," : ",0,") && eg_buf_int(b, t->node);
    } else {
        ok = eg_buf_lit(b, "{\"index\":") && eg_buf_int(b, (long long)i)
             && eg_buf_lit(b, ",\"id\":\"") && eg_buf_int(b, run->superstep) && eg_buf_cstr(b, route ? ".r" : ".") && eg_buf_int(b, (long long)i)
             && eg_buf_cstr(b, route ? "\",\"kind\":\"route\",\"node\":" : "\",\"kind\":\"node\",\"node\":") && eg_buf_string(b, node->name)
             && eg_buf_cstr(b, route ? ",\"router\":" : ",\"handler\":") && eg_buf_string(b, route ? node->edge.router : node->handler);
    }
    bool more = t->arg || t->answers || t->keep, first = flat;
    if (flat && !more) return ok && eg_buf_lit(b, ",0");
    ok = ok && eg_buf_cstr(b, flat ? ",{" : "")
        && put_field(b, &first, "arg", t->arg) && put_field(b, &first, "answers", t->answers) && put_field(b, &first, "keep", t->keep);
    return ok && eg_buf_lit(b, "}");
}

/* The pending tasks: in a list, comma-separated; flat, each after a comma. */
static bool put_tasks(eg_buf *b, const eg_run *run, bool flat) {
    bool ok = true, first = !flat;
    for (size_t i = 0; ok && i < run->n_tasks; i++) {
        if (run->tasks[i].state != T_PENDING) continue;
        ok = (first || eg_buf_lit(b, ",")) && put_task(b, run, i, flat);
        first = false;
    }
    return ok;
}

/* A stopped run's interrupts (PAUSED) or error (ERROR) as `,"name":value`
 * (nothing else), or flat as `,{"name":value}` (else `,0`). */
static bool put_outcome(eg_buf *b, eg_run *run, bool flat) {
    cJSON *v = NULL;
    const char *name = NULL;
    if (run->status == EG_STATUS_PAUSED && eg_run_has_interrupts_(run)) { v = eg_run_interrupts_json_(run); name = "interrupts"; }
    else if (run->status == EG_STATUS_ERROR) { v = eg_run_error_json_(run); name = "error"; }
    else return flat ? eg_buf_lit(b, ",0") : true;
    bool first = flat;
    bool ok = v && eg_buf_cstr(b, flat ? ",{" : "") && put_field(b, &first, name, v) && (!flat || eg_buf_lit(b, "}"));
    cJSON_Delete(v);
    return ok;
}

/* The step's text is in run->out: its ops are kept for the thread's record, and the patch starts afresh. */
static eg_code hand_out_step(eg_run *run, bool ok, const char **json, size_t *len, eg_error *err) {
    ok = ok && eg_run_keep_for_record_(run);
    if (ok) { /* else the patch is kept: the next call hands it out */
        run->patch.text.len = 0;
        run->patch.count = 0;
    }
    return eg_buf_hand_out(&run->out, ok, json, len, err);
}

/* Advance the run: its output buffer, emptied for the step's text (NULL: no run). */
static eg_buf *advance(eg_run *run, eg_error *err) {
    eg_clear(err);
    if (!run) return NULL;
    eg_run_advance_(run);
    run->out.len = 0;
    return &run->out;
}

eg_code eg_run_next(eg_run *run, const char **json, size_t *len, eg_error *err) {
    /* A patch eg_run_next_flat failed to hand out may refer to results instead of holding them. */
    for (size_t i = 0; run && i < run->patch.count; i++)
        if (run->patch.marks[i].echo && run->patch.marks[i].value == run->patch.marks[i].end)
            return eg_fail(err, EG_E_BAD_STATE, "read this step with eg_run_next_flat");
    if (run) run->patch.lean = false;
    eg_buf *b = advance(run, err);
    if (!b) return eg_disposed(err, "run");
    bool ok = eg_buf_lit(b, "{\"status\":") && eg_buf_string(b, eg_status_name(run->status))
              && eg_buf_lit(b, ",\"patch\":[")
              && (run->patch.text.len == 0 || eg_buf_put(b, run->patch.text.data, run->patch.text.len))
              && eg_buf_lit(b, "]");
    if (ok && run->status == EG_STATUS_RUNNING) ok = eg_buf_lit(b, ",\"tasks\":[") && put_tasks(b, run, false) && eg_buf_lit(b, "]");
    ok = ok && put_outcome(b, run, false) && eg_buf_lit(b, "}");
    return hand_out_step(run, ok, json, len, err);
}

eg_code eg_run_next_flat(eg_run *run, const char **json, size_t *len, eg_error *err) {
    if (run) run->patch.lean = !run->recording;
    eg_buf *b = advance(run, err);
    if (!b) return eg_disposed(err, "run");
    bool ok = eg_buf_lit(b, "[") && eg_buf_int(b, run->status) && eg_buf_lit(b, ",")
              && eg_buf_int(b, (long long)run->patch.count)
              && (run->patch.count == 0 || (eg_buf_lit(b, ",") && eg_patch_flat(&run->patch, b)))
              && (run->status != EG_STATUS_RUNNING || put_tasks(b, run, true))
              && put_outcome(b, run, true) && eg_buf_lit(b, "]");
    return hand_out_step(run, ok, json, len, err);
}

eg_code eg_run_graph_nodes(eg_run *run, const char **json, size_t *len, eg_error *err) {
    eg_clear(err);
    if (!run) return eg_disposed(err, "run");
    eg_buf *b = &run->out;
    b->len = 0;
    bool ok = eg_buf_lit(b, "[");
    for (size_t i = 0; ok && i < run->graph->n_nodes; i++) {
        const eg_node *node = &run->graph->nodes[i];
        ok = (i == 0 || eg_buf_lit(b, ",")) && eg_buf_lit(b, "[") && eg_buf_string(b, node->name) && eg_buf_lit(b, ",")
             && (node->handler ? eg_buf_string(b, node->handler) : eg_buf_lit(b, "null")) && eg_buf_lit(b, ",")
             && (node->edge.router ? eg_buf_string(b, node->edge.router) : eg_buf_lit(b, "null")) && eg_buf_lit(b, "]");
    }
    ok = ok && eg_buf_lit(b, "]");
    return eg_buf_hand_out(b, ok, json, len, err);
}
