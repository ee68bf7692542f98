/* eg_run.c: a run as a step machine. The core advances until it needs the
 * host (tasks to run) or stops (paused, finished, interrupted, error), and
 * records every state change in a patch the host applies to its mirror. */
#include "eg_run_internal.h"

#include <stdio.h>
#include <string.h>


const char *eg_task_kind_name_(int kind) { return kind == TASK_ROUTE ? "route" : "node"; }
const char *eg_task_state_name_(int s) {
    return s == T_DONE ? "done" : s == T_FAILED ? "failed" : s == T_UNRESOLVED ? "unresolved" : s == T_INTERRUPTED ? "interrupted" : "pending";
}

/* ---- creation ---- */

static eg_code parse_options(eg_run *run, const char *options, size_t len, eg_error *err) {
    run->max_steps = run->graph->max_steps;
    eg_run_default_limits_(run);
    if (!options || !len) return EG_OK;
    cJSON *o;
    eg_code rc = eg_parse_object(options, len, EG_E_INVALID_OPTIONS, "the run options", &o, err);
    if (rc) return rc;
    const cJSON *max = eg_get(o, "maxSteps"), *id = eg_get(o, "runId");
    if (max && !cJSON_IsNull(max)) {
        if (!eg_is_max_steps(max))
            rc = eg_fail(err, EG_E_INVALID_OPTIONS, "options.maxSteps must be an integer from 1 to 1000000000");
        else run->max_steps = (int)max->valuedouble;
    }
    if (!rc) rc = eg_run_read_limits_(run, o, err);
    if (!rc) rc = eg_run_read_breakpoints_(run, o, err);
    if (!rc && id && !cJSON_IsNull(id)) {
        if (!cJSON_IsString(id)) rc = eg_fail(err, EG_E_INVALID_OPTIONS, "options.runId must be a string");
        else if (!(run->run_id = eg_strdup(id->valuestring))) rc = eg_nomem(err);
    }
    cJSON_Delete(o);
    return rc;
}

static eg_code alloc_run(const eg_graph *g, const char *options, size_t len, eg_run **out, eg_error *err) {
    eg_clear(err);
    if (!g) return eg_disposed(err, "graph");
    eg_init_json();
    eg_run *run = eg_malloc(sizeof *run);
    if (!run) return eg_nomem(err);
    memset(run, 0, sizeof *run);
    run->graph = g;
    run->status = EG_STATUS_RUNNING;
    run->error_node = -1;
    eg_code rc = parse_options(run, options, len, err);
    if (rc) { eg_run_free(run); return rc; }
    *out = run;
    return EG_OK;
}

static eg_code too_big(const eg_run *run, const char *what, size_t len, eg_error *err) {
    return eg_fail(err, EG_E_LIMIT, "%s is %zu bytes, more than maxInputBytes (%zu)", what, len, run->max_input_bytes);
}

/* Creation: allocate with options, fill the run with `setup`, then hand it
 * out. An error frees the half-made run; after setup, anything that failed
 * to allocate means the run is unusable. */
eg_code eg_run_create_(const eg_graph *g, const char *options, size_t options_len, eg_run_setup_ setup,
                       const char *text, size_t len, eg_run **out, eg_error *err) {
    eg_run *run;
    eg_code rc = alloc_run(g, options, options_len, &run, err);
    if (rc) return rc;
    rc = setup(run, text, len, err);
    if (!rc && run->status == EG_STATUS_ERROR && run->error.code == EG_E_NOMEM) rc = eg_nomem(err);
    if (rc) { eg_run_free(run); return rc; }
    *out = run;
    return EG_OK;
}

static eg_code start(eg_run *run, const char *input, size_t input_len, eg_error *err) {
    if (input_len > run->max_input_bytes) return too_big(run, "the initial state", input_len, err);
    eg_code rc = eg_parse_object(input, input_len, EG_E_INVALID_INPUT, "the initial state", &run->state, err);
    if (rc) return rc;
    run->state_bytes_bound = input_len;
    for (const cJSON *k = run->state->child; k; k = k->next)
        if (strcmp(k->string, EG_KEY_STEP_COUNT) == 0 || strcmp(k->string, EG_KEY_ERROR) == 0)
            return eg_fail(err, EG_E_INVALID_INPUT, "the initial state sets '%s', which the engine owns", k->string);
    const eg_graph *g = run->graph;
    bool ok = true;
    for (const cJSON *d = g->defaults->child; d && ok; d = d->next)
        if (!eg_get(run->state, d->string)) ok = eg_run_put_(run, d->string, cJSON_Duplicate(d, true));
    ok = ok && eg_run_put_(run, EG_KEY_STEP_COUNT, eg_number(0));
    ok = ok && eg_run_put_(run, EG_KEY_STATUS, cJSON_CreateString("RUNNING"));
    if (!ok) return eg_nomem(err);
    int entry = g->entry;
    eg_run_schedule_(run, &entry, NULL, 1);
    return EG_OK;
}

eg_code eg_run_new(const eg_graph *g, const char *input, size_t input_len,
                   const char *options, size_t options_len, eg_run **out, eg_error *err) {
    return eg_run_create_(g, options, options_len, start, input, input_len, out, err);
}

static eg_code continue_from(eg_run *run, const char *state, size_t len, eg_error *err) {
    const eg_graph *g = run->graph;
    if (len > run->max_input_bytes) return too_big(run, "the saved state", len, err);
    eg_code rc = eg_parse_object(state, len, EG_E_INVALID_INPUT, "the saved state", &run->state, err);
    if (rc) return rc;
    run->state_bytes_bound = len;
    const cJSON *st = eg_get(run->state, EG_KEY_STATUS), *next = eg_get(run->state, EG_KEY_NEXT_NODE), *cur = eg_get(run->state, EG_KEY_CURRENT_NODE);
    int status = cJSON_IsString(st) ? eg_status_parse(st->valuestring) : -1;
    if (status == EG_STATUS_FINISHED) { run->status = EG_STATUS_FINISHED; return EG_OK; }
    /* Continue at nextNode, else route from currentNode, else start over. */
    size_t n = cJSON_IsArray(next) ? (size_t)cJSON_GetArraySize(next) : cJSON_IsString(next) ? 1 : 0;
    if (next && !cJSON_IsNull(next) && n == 0 && !cJSON_IsArray(next))
        return eg_fail(err, EG_E_INVALID_INPUT, "saved state: nextNode must be a node name or a list of names");
    int *targets = eg_malloc(sizeof(int) * (n ? n : 1));
    if (!targets) return eg_nomem(err);
    size_t m = 0;
    for (const cJSON *c = cJSON_IsArray(next) ? next->child : next; n && c; c = cJSON_IsArray(next) ? c->next : NULL) {
        int t = cJSON_IsString(c) ? eg_graph_target_by_name(run->graph, (c)->valuestring) : EG_TARGET_NONE;
        if (t == EG_TARGET_NONE) {
            eg_free(targets);
            return eg_fail(err, EG_E_INVALID_INPUT, "saved state: nextNode '%s' is not a node of this graph", cJSON_IsString(c) ? c->valuestring : "?");
        }
        if (t >= 0) targets[m++] = t;
    }
    if (n) {
        eg_run_schedule_(run, targets, NULL, m);
        run->superstep = 0;
    } else if (cJSON_IsString(cur)) {
        int c = eg_graph_find(g, cur->valuestring, strlen(cur->valuestring));
        if (c < 0 || g->nodes[c].kind == EG_NODE_END) {
            eg_free(targets);
            return eg_fail(err, EG_E_INVALID_INPUT, "saved state: currentNode '%s' is not a node of this graph", cur->valuestring);
        }
        if (eg_run_new_batch_(run, 1, PHASE_ROUTES)) {
            run->tasks[0] = (eg_task){ .node = c, .kind = TASK_ROUTE, .state = T_UNRESOLVED, .override = EG_TARGET_NONE };
        } else eg_run_stop_nomem_(run);
    } else {
        int entry = g->entry;
        eg_run_schedule_(run, &entry, NULL, 1);
    }
    eg_free(targets);
    if (run->status == EG_STATUS_RUNNING || run->status == EG_STATUS_ERROR) {
        /* Not yet resumed: resume() decides when it runs. */
        if (run->status == EG_STATUS_RUNNING) run->status = status >= 0 ? status : EG_STATUS_PAUSED;
        if (run->status == EG_STATUS_RUNNING) run->status = EG_STATUS_INTERRUPTED;
    }
    return EG_OK;
}

eg_code eg_run_from_state(const eg_graph *g, const char *state, size_t len,
                          const char *options, size_t options_len, eg_run **out, eg_error *err) {
    return eg_run_create_(g, options, options_len, continue_from, state, len, out, err);
}

/* ---- driving ---- */

/* Whether a resume runs the whole stopped step again: its commit was refused
 * (a conflict, a limit, a result the reducers reject), so no task of it
 * failed. After a task's failure (whatever its code: a timeout too) only the
 * failed tasks run again: the others' side effects happened once. */
static bool reruns_step(const eg_run *run) {
    if (run->status != EG_STATUS_ERROR || run->error.code == EG_E_MAX_STEPS) return false;
    for (size_t i = 0; i < run->n_tasks; i++) if (run->tasks[i].state == T_FAILED) return false;
    return true;
}

eg_code eg_run_resume(eg_run *run, const char *user_input, size_t len, eg_error *err) {
    eg_clear(err);
    if (!run) return eg_disposed(err, "run");
    if (run->status == EG_STATUS_FINISHED) return eg_fail(err, EG_E_NOT_RESUMABLE, "the run finished; there is nothing to resume");
    if (len > run->max_input_bytes) return too_big(run, "the user input", len, err);
    cJSON *msg = NULL;
    eg_code rc = user_input && len ? eg_parse_object(user_input, len, EG_E_INVALID_INPUT, "the user input (a message)", &msg, err) : EG_OK;
    if (rc) return rc;
    /* Every write first, all or nothing: a failed resume can be retried
     * without adding the user's message twice. */
    eg_run_undo undo;
    if (!eg_run_undo_begin_(run, &undo)) { cJSON_Delete(msg); return eg_nomem(err); }
    if (msg) {
        cJSON *list = cJSON_CreateArray();
        char *key = list ? eg_strdup("messages") : NULL;
        if (!key) { cJSON_Delete(list); cJSON_Delete(msg); return eg_run_undo_end_(run, &undo, eg_nomem(err)); }
        list->string = key;
        cJSON_AddItemToArray(list, msg);
        rc = eg_reduce_into(&run->graph->reducers, run->state, &eg_run_root_, list, &run->patch, "resume", err);
    }
    if (!rc && (!eg_run_del_(run, EG_KEY_PENDING_ASK_USER) || !eg_run_del_(run, EG_KEY_SHOULD_PAUSE))) rc = eg_nomem(err);
    if (!rc && run->status == EG_STATUS_ERROR && !eg_run_del_(run, EG_KEY_ERROR)) rc = eg_nomem(err);
    if (!rc && !eg_run_write_status_(run, EG_STATUS_RUNNING)) rc = eg_nomem(err);
    if (eg_run_undo_end_(run, &undo, rc)) return rc;
    /* Nothing below can fail. */
    if (run->status == EG_STATUS_ERROR) {
        /* Retry: failed tasks run again; a step whose results were rejected
         * runs again whole; routes are evaluated again. */
        bool rerun_all = reruns_step(run);
        for (size_t i = 0; i < run->n_tasks; i++) {
            eg_task *t = &run->tasks[i];
            if (t->kind == TASK_ROUTE) { eg_run_task_reset_(t); t->state = T_UNRESOLVED; }
            else if (t->state == T_FAILED || rerun_all) { eg_run_task_reset_(t); t->state = T_PENDING; }
        }
        run->error.code = EG_OK;
        run->error.message[0] = '\0';
        run->error_node = -1;
    }
    /* Paused while routing (interruptAfter, a node's own pause, updateState
     * as a node, a goto): what the routes schedule is past that pause. */
    if (run->status == EG_STATUS_PAUSED && run->phase == PHASE_ROUTES && run->boundary == BOUNDARY_NONE) run->boundary = BOUNDARY_PAUSED;
    /* Interrupts not answered: their nodes run again (and may pause again). */
    for (size_t i = 0; i < run->n_tasks; i++) {
        eg_task *t = &run->tasks[i];
        if (t->state != T_INTERRUPTED) continue;
        cJSON_Delete(t->interrupts);
        t->interrupts = NULL;
        t->state = T_PENDING;
    }
    run->state_bytes_bound += len;
    run->interrupt = false;
    run->steps_this_call = 0;
    run->status = EG_STATUS_RUNNING;
    return EG_OK;
}

/* A write of a finished task that steers the step's commit (eg_step.c reads them there). */
static bool steers(const eg_run *run, const char *k) {
    return eg_run_is_engine_key_(run, k) || strcmp(k, EG_KEY_NEXT_NODE_OVERRIDE) == 0 || strcmp(k, EG_KEY_SHOULD_END) == 0
        || strcmp(k, EG_KEY_STATUS) == 0 || strcmp(k, EG_KEY_SHOULD_PAUSE) == 0 || strcmp(k, EG_KEY_PENDING_ASK_USER) == 0;
}

/* An edit of a run stopped in the middle of a step comes after what the
 * step's finished tasks wrote (else their kept results, applied when the
 * step commits, would overwrite it): their writes go into the state first
 * (a copy each); with `drop`, once the edit is in, their results keep only
 * what steers the commit. */
static eg_code settle_kept(eg_run *run, bool drop, eg_error *err) {
    for (size_t i = 0; run->phase == PHASE_NODES && !reruns_step(run) && i < run->n_tasks; i++) {
        eg_task *t = &run->tasks[i];
        if (t->state != T_DONE || !cJSON_IsObject(t->result)) continue;
        for (cJSON *f = t->result->child, *next; f; f = next) {
            next = f->next;
            if (steers(run, f->string)) continue;
            if (drop) { cJSON_Delete(cJSON_DetachItemViaPointer(t->result, f)); continue; }
            cJSON *copy = cJSON_Duplicate(f, true);
            eg_code rc = copy ? eg_reduce_into(&run->graph->reducers, run->state, &eg_run_root_, copy, &run->patch, eg_run_node_name_(run, t->node), err) : eg_nomem(err);
            if (rc) return rc;
        }
    }
    return EG_OK;
}

eg_code eg_run_apply(eg_run *run, const char *update, size_t len, eg_error *err) {
    eg_clear(err);
    if (!run) return eg_disposed(err, "run");
    if (run->status == EG_STATUS_RUNNING) return eg_fail(err, EG_E_BAD_STATE, "apply() is for a run that is not running");
    cJSON *u;
    eg_code rc = eg_parse_object(update, len, EG_E_INVALID_INPUT, "the update", &u, err);
    if (rc) return rc;
    for (const cJSON *f = u->child; f; f = f->next) {
        if (eg_run_is_engine_key_(run, f->string)) {
            rc = eg_fail(err, EG_E_RESERVED_KEY, "the update writes '%s', which the engine owns", f->string);
            cJSON_Delete(u);
            return rc;
        }
    }
    /* All of the update or none of it. */
    eg_run_undo undo;
    if (!eg_run_undo_begin_(run, &undo)) { cJSON_Delete(u); return eg_nomem(err); }
    rc = settle_kept(run, false, err);
    while (u->child && !rc) rc = eg_reduce_into(&run->graph->reducers, run->state, &eg_run_root_, cJSON_DetachItemViaPointer(u, u->child), &run->patch, "resume", err);
    cJSON_Delete(u);
    rc = eg_run_undo_end_(run, &undo, rc);
    if (!rc) settle_kept(run, true, NULL);
    return rc;
}

static eg_code task_at(eg_run *run, uint32_t index, const char *call, eg_task **out, eg_error *err) {
    eg_clear(err);
    if (!run) return eg_disposed(err, "run");
    if (run->status != EG_STATUS_RUNNING)
        return eg_fail(err, EG_E_BAD_STATE, "%s(%d): the run is %s, not RUNNING", call, (int)index, eg_status_name(run->status));
    if (index >= run->n_tasks || run->tasks[index].state != T_PENDING)
        return eg_fail(err, EG_E_BAD_TASK, "%s(%d): no pending task has that index", call, (int)index);
    *out = &run->tasks[index];
    return EG_OK;
}

eg_code eg_run_submit(eg_run *run, uint32_t index, const char *result, size_t len, eg_error *err) {
    eg_task *t;
    eg_code rc = task_at(run, index, "submit", &t, err);
    if (rc) return rc;
    bool nomem = false;
    size_t bound = 0;   /* over its length as JSON: len itself, unless it holds raw segments */
    /* A text alone (only raw segments hold 0xFF, JSON never does) is its length as JSON: one over
     * the limit is refused unparsed, not built into a tree first (the check is on this rare path only). */
    bool over = len > run->max_result_bytes;
    for (size_t i = 0; over && result && i < len; i++) over = (unsigned char)result[i] != 0xFF;
    cJSON *r = over ? NULL : eg_parse_raw(result, len, &nomem, &bound);
    if (r && bound != len && bound > run->max_result_bytes) {
        /* Its raw strings may pass the limit as JSON: measured as the core prints it (as maxStateBytes measures the state). */
        eg_buf b = { 0 };
        bool printed = eg_buf_json(&b, r);
        bound = b.len;
        eg_buf_free(&b);
        if (!printed) { cJSON_Delete(r); return eg_nomem(err); }
    }
    if (r) len = bound;
    if (len > run->max_result_bytes) {
        cJSON_Delete(r);
        eg_run_stop_(run, t->node, EG_E_LIMIT, "%s '%s' returned %zu bytes, more than maxResultBytes (%zu)",
             t->kind == TASK_ROUTE ? "the router of" : "node", eg_run_node_name_(run, t->node), len, run->max_result_bytes);
        return EG_OK;
    }
    if (!r) {
        if (nomem) return eg_nomem(err);
        eg_run_stop_(run, t->node, EG_E_INVALID_RESULT, "%s '%s' returned a value that is not valid JSON",
             t->kind == TASK_ROUTE ? "the router of" : "node", eg_run_node_name_(run, t->node));
        return EG_OK;
    }
    t->result = r;
    t->state = T_DONE;
    run->state_bytes_bound += len;
    return EG_OK;
}

eg_code eg_run_fail(eg_run *run, uint32_t index, const char *error, size_t len, eg_error *err) {
    eg_task *t;
    eg_code rc = task_at(run, index, "fail", &t, err);
    if (rc) return rc;
    bool nomem;
    cJSON *e = eg_parse_ex(error, len, &nomem);
    if (!e && nomem) return eg_nomem(err);
    /* "keep": data kept with a node task, as an interrupt's (answers it took: its re-run takes them again). */
    cJSON *keep = t->kind == TASK_NODE ? cJSON_DetachItemViaPointer(e, eg_get(e, "keep")) : NULL;
    if (keep) { cJSON_Delete(t->keep); t->keep = keep; }
    /* A node task stopped with the run (eg_run_interrupt), with what it did kept: it stays to run, and its re-run takes the keep. */
    if (keep && run->interrupt) { cJSON_Delete(e); return EG_OK; }
    t->result = e; /* NULL when the host sent no valid JSON: "(no message)" */
    t->state = T_FAILED;
    if (t->kind == TASK_ROUTE) {
        const cJSON *msg = eg_get(e, "message");
        eg_run_stop_(run, t->node, EG_E_NODE_FAILED, "the router of '%s' failed: %S", eg_run_node_name_(run, t->node),
             cJSON_IsString(msg) ? msg->valuestring : "(no message)");
    }
    return EG_OK;
}

void eg_run_interrupt(eg_run *run) { if (run) run->interrupt = true; }

eg_code eg_run_state(eg_run *run, const char **json, size_t *len, eg_error *err) {
    eg_clear(err);
    if (!run) return eg_disposed(err, "run");
    return eg_buf_print(&run->out, run->state, json, len, err);
}

eg_status eg_run_status(const eg_run *run) { return run ? run->status : EG_STATUS_ERROR; }

const eg_error *eg_run_error(const eg_run *run) {
    static const eg_error none = { EG_OK, "" };
    return run ? &run->error : &none;
}

void eg_run_free(eg_run *run) {
    if (!run) return;
    eg_run_clear_tasks_(run);
    cJSON_Delete(run->state);
    eg_patch_free(&run->patch);
    eg_buf_free(&run->out);
    eg_buf_free(&run->record_patch);
    eg_free(run->run_id);
    cJSON_Delete(run->held);
    eg_free(run->breaks);
    eg_free(run);
}
