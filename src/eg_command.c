/* eg_command.c: replacing what a stopped run does next. Resume with a goto
 * (a Command's goto): the given nodes and Sends, exactly as if a router had
 * answered with them, so routing's own rules (joins, Sends after plain
 * targets) hold. updateState as a node: route next as if that node had run;
 * as END: finish the run. */
#include "eg_run_internal.h"

#include <string.h>

/* An entry's node name, or NULL when the entry is not a name or {node, arg}. */
static const char *entry_node(const cJSON *c) {
    const cJSON *name = cJSON_IsObject(c) ? eg_get(c, "node") : c;
    return cJSON_IsString(name) ? name->valuestring : NULL;
}

/* goto and route_from replace what runs next: only between steps. */
static eg_code between_steps(const eg_run *run, const char *call, eg_error *err) {
    if (run->status == EG_STATUS_RUNNING) return eg_fail(err, EG_E_BAD_STATE, "%s is for a run that is not running", call);
    for (size_t i = 0; run->phase == PHASE_NODES && i < run->n_tasks; i++)
        if (run->tasks[i].state == T_DONE || run->tasks[i].state == T_INTERRUPTED)
            return eg_fail(err, EG_E_BAD_STATE, "%s replaces what runs next, but this run stopped in the middle of a step (node '%s' has %s): "
                           "answer its interrupts with resume instead", call, eg_run_node_name_(run, run->tasks[i].node),
                           run->tasks[i].state == T_DONE ? "finished" : "an interrupt pending");
    return EG_OK;
}

eg_code eg_run_goto(eg_run *run, const char *json, size_t len, eg_error *err) {
    eg_clear(err);
    if (!run) return eg_disposed(err, "run");
    if (run->status == EG_STATUS_FINISHED)
        return eg_fail(err, EG_E_BAD_STATE, "goto is for a run that is paused, not a FINISHED one");
    eg_code bad = between_steps(run, "goto", err);
    if (bad) return bad;
    cJSON *to;
    eg_code rc = eg_parse_value(json, len, EG_E_INVALID_INPUT, "goto", &to, err);
    if (rc) return rc;
    bool list = cJSON_IsArray(to);
    if (list && !to->child) rc = eg_fail(err, EG_E_INVALID_INPUT, "goto is an empty list");
    for (const cJSON *c = list ? to->child : to; !rc && c; c = list ? c->next : NULL) {
        const char *name = entry_node(c);
        if (!name) rc = eg_fail(err, EG_E_INVALID_INPUT, "goto takes a node name, a Send {node, arg} or a list of them");
        else if (eg_graph_target_by_name(run->graph, name) == EG_TARGET_NONE)
            rc = eg_fail(err, EG_E_ROUTER_TARGET, "goto names '%s', which is not a node of this graph", name);
        else if (eg_graph_target_by_name(run->graph, name) < 0 && cJSON_IsObject(c))
            rc = eg_fail(err, EG_E_INVALID_INPUT, "goto sends an argument to END");
    }
    int from = run->n_tasks ? run->tasks[0].node : run->graph->entry;
    if (!rc && !eg_run_new_batch_(run, 1, PHASE_ROUTES)) rc = eg_nomem(err);
    if (rc) { cJSON_Delete(to); return rc; }
    run->tasks[0] = (eg_task){ .node = from, .kind = TASK_ROUTE, .state = T_DONE, .override = EG_TARGET_NONE, .result = to };
    if (!eg_run_record_next_(run)) eg_run_fatal_nomem_(run);
    return EG_OK;
}

/* updateState as END: the run ends here, whatever it was waiting for (a
 * paused node's interrupts, a pause a node asked for): LangGraph's
 * updateState(config, values, END). */
static eg_code end_here(eg_run *run, eg_error *err) {
    if (run->status == EG_STATUS_RUNNING) return eg_fail(err, EG_E_BAD_STATE, "updateState as END is for a run that is not running");
    if (!eg_run_del_(run, EG_KEY_PENDING_ASK_USER) || !eg_run_del_(run, EG_KEY_SHOULD_PAUSE)) return eg_nomem(err);
    /* Stopped mid-step: the tasks that finished keep their writes (the step
     * commits now), the others end the run instead of running. */
    bool done = false;
    for (size_t i = 0; run->phase == PHASE_NODES && i < run->n_tasks; i++) done |= run->tasks[i].state == T_DONE;
    if (done && run->status != EG_STATUS_ERROR) {
        for (size_t i = 0; i < run->n_tasks; i++) {
            eg_task *t = &run->tasks[i];
            if (t->state == T_DONE) continue;
            eg_run_task_reset_(t);
            t->state = T_DONE;
            if (!(t->result = cJSON_CreateObject()) || !cJSON_AddTrueToObject(t->result, EG_KEY_SHOULD_END)) { eg_run_fatal_nomem_(run); return eg_nomem(err); }
        }
        run->interrupt = false;
        run->status = EG_STATUS_RUNNING;
        eg_run_advance_(run);
        if (run->status == EG_STATUS_ERROR) return eg_fail(err, run->error.code, "%s", run->error.message);
    }
    if (run->status != EG_STATUS_FINISHED) eg_run_finish_(run);
    return run->status == EG_STATUS_FINISHED ? EG_OK : eg_nomem(err);
}

eg_code eg_run_route_from(eg_run *run, const char *node, size_t len, eg_error *err) {
    eg_clear(err);
    if (!run) return eg_disposed(err, "run");
    int i = eg_graph_find(run->graph, node, len);
    bool end = i >= 0 ? run->graph->nodes[i].kind == EG_NODE_END : strlen(run->graph->end_name) == len && memcmp(run->graph->end_name, node, len) == 0;
    if (end) return end_here(run, err);
    eg_code rc = between_steps(run, "updateState as a node", err);
    if (rc) return rc;
    if (i < 0) {
        char name[64];
        size_t n = len < sizeof name - 1 ? len : sizeof name - 1;
        memcpy(name, node, n);
        name[n] = '\0';
        return eg_fail(err, EG_E_UNKNOWN_NODE, "'%s' is not a node of this graph that routes (asNode)", name);
    }
    if (!eg_run_new_batch_(run, 1, PHASE_ROUTES)) return eg_nomem(err);
    run->tasks[0] = (eg_task){ .node = i, .kind = TASK_ROUTE, .state = T_UNRESOLVED, .override = EG_TARGET_NONE };
    if (!eg_run_record_next_(run) || !eg_run_put_(run, EG_KEY_CURRENT_NODE, cJSON_CreateString(run->graph->nodes[i].name))) eg_run_fatal_nomem_(run);
    /* A finished run continues from here: it is paused, to be resumed. */
    else if (run->status == EG_STATUS_FINISHED) eg_run_set_status_(run, EG_STATUS_PAUSED);
    return EG_OK;
}
