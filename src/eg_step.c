/* eg_step.c: one step of a run: check the finished tasks' results, turn
 * failures into errors (or error edges), detect parallel conflicts, apply
 * the results through the reducers, keep the run's bookkeeping, and decide
 * what comes next (routes, a pause, the end). */
#include "eg_run_internal.h"

#include <stdio.h>
#include <string.h>

/* nextNodeOverride (a Command's goto): a node name, or a list of names and
 * Sends {"node", "arg"}; each must name a node. */
static bool check_goto(eg_run *run, const eg_task *t, const cJSON *f) {
    const char *name = eg_run_node_name_(run, t->node);
    if (cJSON_IsNull(f)) return true;
    bool list = cJSON_IsArray(f);
    if (!list && !cJSON_IsString(f)) {
        eg_run_stop_(run, t->node, EG_E_INVALID_RESULT, "node '%s': nextNodeOverride (goto) must be a node name, a list of names or Sends", name);
        return false;
    }
    for (const cJSON *c = list ? f->child : f; c; c = list ? c->next : NULL) {
        const cJSON *target = cJSON_IsObject(c) ? eg_get(c, "node") : c;
        if (!cJSON_IsString(target)) {
            eg_run_stop_(run, t->node, EG_E_INVALID_RESULT, "node '%s': a goto entry must be a node name or a Send {node, arg}", name);
            return false;
        }
        if (eg_graph_target_by_name(run->graph, target->valuestring) == EG_TARGET_NONE) {
            eg_run_stop_(run, t->node, EG_E_ROUTER_TARGET, "node '%s' set nextNodeOverride (goto) to '%s', which is not a node", name, target->valuestring);
            return false;
        }
    }
    return true;
}

/* Check a result before anything is applied, so a bad result changes nothing. */
static bool validate_result(eg_run *run, const eg_task *t) {
    const char *name = eg_run_node_name_(run, t->node);
    const cJSON *r = t->result;
    if (!cJSON_IsObject(r)) {
        eg_run_stop_(run, t->node, EG_E_INVALID_RESULT, "node '%s' returned %s; a node returns an object (a partial state)", name,
             cJSON_IsArray(r) ? "an array" : cJSON_IsString(r) ? "a string" : cJSON_IsNumber(r) ? "a number" : cJSON_IsNull(r) ? "null" : "a non-object");
        return false;
    }
    for (const cJSON *f = r->child; f; f = f->next) {
        const char *k = f->string;
        /* The state handed back as it was given ((state) => state): the
         * engine's own keys, unchanged, are ignored (and dropped when applied). */
        if (eg_run_is_engine_key_(run, k) && !eg_json_equal(f, eg_get(run->state, k))) {
            eg_run_stop_(run, t->node, EG_E_RESERVED_KEY, "node '%s' wrote '%s', which the engine owns", name, k);
            return false;
        }
        if (strcmp(k, EG_KEY_NEXT_NODE_OVERRIDE) == 0) {
            if (!check_goto(run, t, f)) return false;
        } else if ((strcmp(k, EG_KEY_SHOULD_END) == 0 || strcmp(k, EG_KEY_SHOULD_PAUSE) == 0) && !cJSON_IsBool(f) && !cJSON_IsNull(f)) {
            eg_run_stop_(run, t->node, EG_E_INVALID_RESULT, "node '%s': %s must be a boolean", name, k);
            return false;
        } else if (strcmp(k, EG_KEY_STATUS) == 0 && !cJSON_IsNull(f) && (!cJSON_IsString(f) || eg_status_parse(f->valuestring) < 0)) {
            eg_run_stop_(run, t->node, EG_E_INVALID_RESULT, "node '%s': status must be RUNNING, PAUSED, FINISHED, ERROR or INTERRUPTED", name);
            return false;
        }
    }
    return true;
}

/* The host may classify a failure ({"code": "NODE_TIMEOUT", ...}, or
 * INVALID_RESULT for a result it could not write as JSON without losing
 * data); any other or missing code is NODE_FAILED. */
static int failure_code(const cJSON *error) {
    const cJSON *code = eg_get(error, "code");
    if (cJSON_IsString(code) && strcmp(code->valuestring, eg_code_name(EG_E_TIMEOUT)) == 0) return EG_E_TIMEOUT;
    if (cJSON_IsString(code) && strcmp(code->valuestring, eg_code_name(EG_E_INVALID_RESULT)) == 0) return EG_E_INVALID_RESULT;
    if (cJSON_IsString(code) && strcmp(code->valuestring, eg_code_name(EG_E_REDUCER_FAILED)) == 0) return EG_E_REDUCER_FAILED;
    return EG_E_NODE_FAILED;
}

/* A failed task whose node has an error edge becomes a result that records
 * the error and goes there: {"lastError": {...}, "nextNodeOverride": target}. */
static bool divert_failure(eg_run *run, eg_task *t) {
    const eg_node *node = &run->graph->nodes[t->node];
    const cJSON *msg = eg_get(t->result, "message");
    /* The same cap as the run's error: up to EG_MESSAGE_MAX, cut at a UTF-8 boundary. */
    eg_error text;
    eg_fail(&text, EG_E_NODE_FAILED, "%S", cJSON_IsString(msg) ? msg->valuestring : "(no message)");
    cJSON *r = cJSON_CreateObject(), *e = r ? cJSON_AddObjectToObject(r, "lastError") : NULL;
    bool ok = e && cJSON_AddStringToObject(e, "code", eg_code_name(failure_code(t->result)))
                && cJSON_AddStringToObject(e, "message", text.message)
                && cJSON_AddStringToObject(e, "node", node->name)
                && cJSON_AddStringToObject(r, EG_KEY_NEXT_NODE_OVERRIDE, eg_run_node_name_(run, node->on_error));
    if (!ok) { cJSON_Delete(r); return false; }
    cJSON_Delete(t->result);
    t->result = r;
    t->state = T_DONE;
    return true;
}

/* What a step's results said about control, carried from apply to decide. */
typedef struct step_outcome {
    bool pause, end;
    int node_status, status_node;   /* the first status a node returned, and that node */
    int wrote_messages;             /* a node that wrote `messages`, or -1 */
    cJSON **gotos;                  /* per task: a goto list, which becomes its route's answer */
} step_outcome;

/* A task the host cancelled because a sibling failed ("code": "ABORTED"). */
static bool cancelled(const eg_task *t) {
    const cJSON *code = eg_get(t->result, "code");
    return cJSON_IsString(code) && strcmp(code->valuestring, eg_code_name(EG_E_ABORTED)) == 0;
}

/* Phase 1: failed tasks. One with an error edge becomes a result that goes
 * there; any other stops the run naming its node. False: the run stopped. */
static bool apply_failures(eg_run *run) {
    for (size_t i = 0; i < run->n_tasks; i++) {
        eg_task *t = &run->tasks[i];
        /* (A cancelled task goes to no error edge: it runs again on the resume, as its step's other unfinished ones.) */
        if (t->state != T_FAILED || run->graph->nodes[t->node].on_error == EG_TARGET_NONE || cancelled(t)) continue;
        if (!divert_failure(run, t)) { eg_run_stop_nomem_(run); return false; }
    }
    /* A cancelled task does not stand for the step's failure while the
     * sibling's failure that cancelled it does. */
    size_t first = run->n_tasks;
    for (size_t i = 0; i < run->n_tasks; i++)
        if (run->tasks[i].state == T_FAILED && (first == run->n_tasks || (cancelled(&run->tasks[first]) && !cancelled(&run->tasks[i])))) first = i;
    for (size_t i = first; i < run->n_tasks; i++) {
        const eg_task *t = &run->tasks[i];
        if (t->state != T_FAILED) continue;
        const cJSON *msg = eg_get(t->result, "message");
        const char *text = cJSON_IsString(msg) ? msg->valuestring : cJSON_IsString(t->result) ? t->result->valuestring : "(no message)";
        int code = failure_code(t->result);
        /* An invalid result's (or a JS reducer's) message already names the node and the path. */
        if (code == EG_E_INVALID_RESULT || code == EG_E_REDUCER_FAILED) eg_run_stop_(run, t->node, code, "%S", text);
        else eg_run_stop_(run, t->node, code, "node '%s' failed: %S", eg_run_node_name_(run, t->node), text);
        return false;
    }
    return true;
}

/* Phase 1b: a step with interrupted tasks waits: finished tasks keep their
 * results, interrupted ones run again once answered (eg_interrupt.c). False:
 * the run paused (or stopped). */
static bool wait_for_answers(eg_run *run) {
    if (!eg_run_has_interrupts_(run)) return true;
    eg_run_halt_(run, EG_STATUS_PAUSED);
    return false;
}

/* Phase 2: every result is acceptable, and parallel branches do not write one
 * path differently without a reducer, before any of them is applied. */
static bool validate_results(eg_run *run) {
    for (size_t i = 0; i < run->n_tasks; i++) if (!validate_result(run, &run->tasks[i])) return false;
    if (run->n_tasks < 2) return true;
    cJSON **results = eg_malloc(sizeof(cJSON *) * run->n_tasks);
    const char **who = eg_malloc(sizeof(char *) * run->n_tasks);
    if (!results || !who) { eg_free(results); eg_free(who); eg_run_stop_nomem_(run); return false; }
    for (size_t i = 0; i < run->n_tasks; i++) { results[i] = run->tasks[i].result; who[i] = eg_run_node_name_(run, run->tasks[i].node); }
    eg_error e;
    eg_code rc = eg_check_conflicts(&run->graph->reducers, results, who, run->n_tasks, &e);
    eg_free(results);
    eg_free(who);
    if (rc) { eg_run_stop_with_error_(run, -1, &e); return false; }
    return true;
}

/* Phase 3: apply the results in task order: control fields into `o`, the
 * rest through the reducers into the state (each change a patch op). A step
 * resumed from a checkpoint applies the results it kept (tasks done before its
 * pause or failure) first, then those of the tasks run since: the host folds
 * its own reducers' writes of those over the kept ones (a fold carried by a
 * kept task applied last would drop them). */
static bool apply_results(eg_run *run, step_outcome *o) {
    for (size_t pass = 0; pass < 2 * run->n_tasks; pass++) {
        size_t i = pass % run->n_tasks;
        eg_task *t = &run->tasks[i];
        if (t->kept != (pass < run->n_tasks)) continue;   /* the kept results on the first round */
        t->override = EG_TARGET_NONE;
        const char *name = eg_run_node_name_(run, t->node);
        while (t->result->child) {
            cJSON *f = cJSON_DetachItemViaPointer(t->result, t->result->child);
            const char *k = f->string;
            if (eg_run_is_engine_key_(run, k)) {
                cJSON_Delete(f);   /* handed back unchanged (validate_result) */
            } else if (strcmp(k, EG_KEY_NEXT_NODE_OVERRIDE) == 0) {
                if (cJSON_IsString(f)) t->override = eg_graph_target_by_name(run->graph, f->valuestring);
                if (cJSON_IsArray(f)) { cJSON_Delete(o->gotos[i]); o->gotos[i] = f; }
                else cJSON_Delete(f);
            } else if (strcmp(k, EG_KEY_SHOULD_END) == 0) {
                o->end |= cJSON_IsTrue(f);
                cJSON_Delete(f);
            } else if (strcmp(k, EG_KEY_STATUS) == 0) {
                int s = cJSON_IsString(f) ? eg_status_parse(f->valuestring) : -1;
                if (s >= 0 && o->node_status < 0) { o->node_status = s; o->status_node = t->node; }
                cJSON_Delete(f);
            } else {
                if (strcmp(k, EG_KEY_SHOULD_PAUSE) == 0) o->pause |= cJSON_IsTrue(f);
                if (strcmp(k, EG_KEY_PENDING_ASK_USER) == 0) o->pause |= !cJSON_IsNull(f);
                if (strcmp(k, "messages") == 0) o->wrote_messages = t->node;
                eg_error e;
                eg_code rc = eg_reduce_into(&run->graph->reducers, run->state, &eg_run_root_, f, &run->patch, name, &e);
                if (rc) { eg_run_stop_with_error_(run, t->node, &e); return false; }
            }
        }
    }
    return true;
}

/* Phase 4: the run's own bookkeeping (the step count lives in the state, so
 * it survives resume), then the size limits on the state as it now is. */
static bool bookkeep(eg_run *run, const step_outcome *o) {
    const cJSON *count = eg_get(run->state, EG_KEY_STEP_COUNT);
    double total = (cJSON_IsNumber(count) ? count->valuedouble : 0) + (double)run->n_tasks;
    /* Written in place, a step's two writes of its own: values on the stack, not taken. */
    cJSON steps = { .type = cJSON_Number, .valuedouble = total };
    cJSON node = { .type = cJSON_String, .valuestring = (char *)eg_run_node_name_(run, run->tasks[run->n_tasks - 1].node) };
    if (!eg_patch_put_scalar(&run->patch, run->state, &eg_run_root_, EG_KEY_STEP_COUNT, &steps)
        || !eg_patch_put_scalar(&run->patch, run->state, &eg_run_root_, EG_KEY_CURRENT_NODE, &node)
        || (run->graph->partitioned && !eg_run_record_visits_(run))) {
        eg_run_fatal_nomem_(run);
        return false;
    }
    run->steps_this_call += (int)run->n_tasks;
    eg_error e;
    int at = -1, rc = eg_run_check_state_(run, o->wrote_messages, &at, &e);
    if (rc == EG_E_NOMEM) { eg_run_fatal_nomem_(run); return false; }
    if (rc) { eg_run_stop_with_error_(run, at, &e); return false; }
    return true;
}

void eg_run_halt_(eg_run *run, int status) {
    if (!eg_run_record_next_(run)) eg_run_fatal_nomem_(run);
    else eg_run_set_status_(run, status);
}

static void pause(eg_run *run) { eg_run_halt_(run, EG_STATUS_PAUSED); }

/* Phase 5: what comes next. Precedence: PAUSED > shouldEnd > a status
 * returned by a node; otherwise each task's node routes (now, or after the
 * resume when the step paused, so routers see the user's answer). A pause
 * of interruptAfter alone routes first, and pauses with the routes answered
 * (eg_run_advance_): the pause shows where the run goes, as LangGraph's. */
static void decide(eg_run *run, step_outcome *o) {
    bool after = !o->pause && o->node_status != EG_STATUS_PAUSED && eg_run_breaks_after_(run);
    bool end = o->end || o->node_status == EG_STATUS_FINISHED;
    if (o->node_status == EG_STATUS_PAUSED) o->pause = true;
    if (!o->pause && end && !after) { eg_run_finish_(run); return; }
    if (!o->pause && o->node_status == EG_STATUS_ERROR) {
        eg_run_clear_tasks_(run);
        eg_run_stop_(run, o->status_node, EG_E_NODE_STATUS, "node '%s' returned status ERROR", eg_run_node_name_(run, o->status_node));
        return;
    }
    size_t n = run->n_tasks;
    int *sources = eg_malloc(sizeof(int) * 2 * n);
    if (!sources) { eg_run_stop_nomem_(run); return; }
    for (size_t i = 0; i < n; i++) { sources[2 * i] = run->tasks[i].node; sources[2 * i + 1] = run->tasks[i].override; }
    if (!eg_run_new_batch_(run, n, PHASE_ROUTES)) { eg_free(sources); eg_run_stop_nomem_(run); return; }
    for (size_t i = 0; i < n; i++) {
        eg_task *t = &run->tasks[i];
        t->kind = TASK_ROUTE;
        t->state = T_UNRESOLVED;
        t->node = sources[2 * i];
        t->override = sources[2 * i + 1];
        /* A goto list is this route's answer already, as a router's would be. */
        if (o->gotos[i]) { t->result = o->gotos[i]; o->gotos[i] = NULL; t->state = T_DONE; }
        /* Ended, and paused after (interruptAfter): no route goes anywhere, so resume finishes. */
        else if (end && after) t->state = T_DONE;
    }
    eg_free(sources);
    if (after) run->boundary = BOUNDARY_PAUSE_AFTER_ROUTES;
    else if (o->pause) pause(run);
}

/* Commit a step whose node tasks have all finished, phase by phase; a phase
 * that stops the run (an error, memory running out) ends the commit. */
static void commit_nodes(eg_run *run) {
    step_outcome o = { false, false, -1, -1, -1, NULL };
    if (!apply_failures(run) || !wait_for_answers(run) || !validate_results(run)) return;
    size_t n = run->n_tasks;
    if (!(o.gotos = eg_malloc(sizeof(cJSON *) * n))) { eg_run_stop_nomem_(run); return; }
    memset(o.gotos, 0, sizeof(cJSON *) * n);
    if (apply_results(run, &o) && bookkeep(run, &o)) decide(run, &o);
    for (size_t i = 0; i < n; i++) cJSON_Delete(o.gotos[i]);
    eg_free(o.gotos);
}

static bool any_pending(const eg_run *run) {
    for (size_t i = 0; i < run->n_tasks; i++) if (run->tasks[i].state == T_PENDING) return true;
    return false;
}

void eg_run_advance_(eg_run *run) {
    while (run->status == EG_STATUS_RUNNING) {
        if (run->phase == PHASE_ROUTES && !run->interrupt) eg_run_resolve_routes_(run);
        bool pending = any_pending(run);
        /* A step of nodes that all had their outcome commits before an interrupt
         * stops the run: its writes are kept (a resume would run its nodes, and
         * their side effects, again), as a failure or a pause of the step is. */
        if (run->interrupt && (pending || run->phase != PHASE_NODES)) {
            eg_run_halt_(run, EG_STATUS_INTERRUPTED);
            return;
        }
        if (run->status != EG_STATUS_RUNNING || pending) return;
        if (run->phase == PHASE_NODES) commit_nodes(run);
        else if (run->boundary == BOUNDARY_PAUSE_AFTER_ROUTES) {
            /* Resume commits the answered routes. */
            run->boundary = BOUNDARY_NONE;
            pause(run);
        } else eg_run_commit_routes_(run);
    }
}
