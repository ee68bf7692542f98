/* eg_checkpoint.c: a run as JSON and back.
 *
 * {"format":"edgegraph-checkpoint","version":1,"graph":"<hash>","runId":...,
 *  "status":"PAUSED","phase":"nodes"|"routes","superstep":3,"stepsThisCall":2,
 *  "error":{...}?, "tasks":[{"node":"a","kind":"node","state":"done","result":{...}}, ...],
 *  "state":{...}, "checksum":"<hash of everything else>"}
 *
 * The checksum is eg_json_hash over the parsed value, not over the bytes, so
 * a checkpoint may be re-serialized by any JSON library (whitespace, key
 * order, number spelling) and still restore; a changed value does not.
 * Restore is pure data: nothing in a checkpoint names code to run except node
 * names, and those are looked up in the graph the host supplies. */
#include "eg_run_internal.h"

#include <stdio.h>
#include <string.h>

#define FORMAT "edgegraph-checkpoint"

static cJSON *task_json(const eg_run *run, const eg_task *t) {
    const eg_graph *g = run->graph;
    cJSON *o = cJSON_CreateObject();
    /* Defaults are left out (kind "node", state "pending"): a thread stores
     * one of these per step, so every byte counts. */
    bool ok = o && cJSON_AddStringToObject(o, "node", g->nodes[t->node].name)
                && (t->kind == TASK_NODE || cJSON_AddStringToObject(o, "kind", eg_task_kind_name_(t->kind)))
                && (t->state == T_PENDING || cJSON_AddStringToObject(o, "state", eg_task_state_name_(t->state)));
    if (ok && t->override != EG_TARGET_NONE && t->kind == TASK_ROUTE)
        ok = cJSON_AddStringToObject(o, "override", t->override >= 0 ? g->nodes[t->override].name : g->end_name) != NULL;
    if (ok && t->result) ok = eg_set_ref(o, "result", t->result);
    if (ok && t->arg) ok = eg_set_ref(o, "arg", t->arg);
    if (ok && t->interrupts) ok = eg_set_ref(o, "interrupts", t->interrupts);
    if (ok && t->answers) ok = eg_set_ref(o, "answers", t->answers);
    if (ok && t->keep) ok = eg_set_ref(o, "keep", t->keep);
    if (ok && t->n_targets) {
        cJSON *list = cJSON_AddArrayToObject(o, "targets");
        ok = list != NULL;
        for (size_t k = 0; ok && k < t->n_targets; k++) {
            cJSON *s = cJSON_CreateString(t->targets[k] >= 0 ? g->nodes[t->targets[k]].name : g->end_name);
            ok = s && cJSON_AddItemToArray(list, s);
        }
    }
    if (!ok) { cJSON_Delete(o); return NULL; }
    return o;
}

static eg_code checkpoint(eg_run *run, bool with_state, const char **json, size_t *len, eg_error *err);

eg_code eg_run_checkpoint(eg_run *run, const char **json, size_t *len, eg_error *err) {
    return checkpoint(run, true, json, len, err);
}

/* The checkpoint without its state (the checksum still covers the state):
 * a store that keeps state changes as patches adds the state back. */
eg_code eg_run_checkpoint_meta(eg_run *run, const char **json, size_t *len, eg_error *err) {
    return checkpoint(run, false, json, len, err);
}

static eg_code checkpoint(eg_run *run, bool with_state, const char **json, size_t *len, eg_error *err) {
    eg_clear(err);
    if (!run) return eg_disposed(err, "run");
    cJSON *cp = cJSON_CreateObject(), *tasks = NULL;
    char sum[17];
    bool ok = cp && cJSON_AddStringToObject(cp, "format", FORMAT)
                 && cJSON_AddNumberToObject(cp, "version", EG_CHECKPOINT_VERSION)
                 && cJSON_AddStringToObject(cp, "graph", run->graph->hash)
                 && (run->run_id ? cJSON_AddStringToObject(cp, "runId", run->run_id) != NULL : true)
                 && cJSON_AddStringToObject(cp, "status", eg_status_name(run->status))
                 && cJSON_AddStringToObject(cp, "phase", run->phase == PHASE_ROUTES ? "routes" : "nodes")
                 && cJSON_AddNumberToObject(cp, "superstep", run->superstep)
                 && cJSON_AddNumberToObject(cp, "stepsThisCall", run->steps_this_call)
                 && cJSON_AddBoolToObject(cp, "interrupt", run->interrupt)
                 && (!run->held || eg_set_ref(cp, "held", run->held))
                 && (tasks = cJSON_AddArrayToObject(cp, "tasks")) != NULL;
    if (ok && run->error.code != EG_OK) {
        cJSON *e = cJSON_AddObjectToObject(cp, "error");
        ok = e && cJSON_AddStringToObject(e, "code", eg_code_name(run->error.code))
               && cJSON_AddStringToObject(e, "message", run->error.message)
               && (run->error_node < 0 || cJSON_AddStringToObject(e, "node", run->graph->nodes[run->error_node].name));
    }
    for (size_t i = 0; ok && i < run->n_tasks; i++) {
        cJSON *t = task_json(run, &run->tasks[i]);
        ok = t && cJSON_AddItemToArray(tasks, t);
    }
    /* The state is referenced, not copied: a checkpoint costs one print. */
    ok = ok && eg_set_ref(cp, "state", run->state);
    if (ok) {
        eg_hex64(eg_json_hash(cp), sum);
        ok = cJSON_AddStringToObject(cp, "checksum", sum) != NULL;
    }
    if (ok && !with_state) cJSON_Delete(cJSON_DetachItemFromObjectCaseSensitive(cp, "state"));
    eg_code rc = ok ? eg_buf_print(&run->out, cp, json, len, err) : eg_nomem(err);
    cJSON_Delete(cp);
    return rc;
}

static eg_code bad(eg_error *err, const char *why) {
    return eg_fail(err, EG_E_CHECKPOINT, "invalid checkpoint: %s", why);
}

static int find_node(const eg_graph *g, const cJSON *name, int *out) {
    if (!cJSON_IsString(name)) return -1;
    if (strcmp(name->valuestring, g->end_name) == 0) { *out = EG_TARGET_END; return 0; }
    int i = eg_graph_find(g, name->valuestring, strlen(name->valuestring));
    if (i < 0) return -1;
    *out = i;
    return 0;
}

static eg_code load_task(eg_run *run, const cJSON *j, eg_task *t, eg_error *err) {
    const eg_graph *g = run->graph;
    const cJSON *kind = eg_get(j, "kind"), *state = eg_get(j, "state"), *result = eg_get(j, "result");
    const cJSON *override = eg_get(j, "override"), *targets = eg_get(j, "targets");
    t->override = EG_TARGET_NONE;
    if (find_node(g, eg_get(j, "node"), &t->node) || t->node < 0)
        return bad(err, "a task names a node this graph does not have");
    if ((kind && !cJSON_IsString(kind)) || (state && !cJSON_IsString(state))) return bad(err, "a task's kind or state is not a string");
    t->kind = kind && strcmp(kind->valuestring, "route") == 0 ? TASK_ROUTE : TASK_NODE;
    const char *s = state ? state->valuestring : "pending";
    t->state = strcmp(s, "done") == 0 ? T_DONE : strcmp(s, "failed") == 0 ? T_FAILED
             : strcmp(s, "unresolved") == 0 ? T_UNRESOLVED : strcmp(s, "interrupted") == 0 ? T_INTERRUPTED : T_PENDING;
    if (override && find_node(g, override, &t->override)) return bad(err, "a route override names an unknown node");
    if (result && !(t->result = cJSON_Duplicate(result, true))) return eg_nomem(err);
    const cJSON *arg = eg_get(j, "arg");
    if (arg && !(t->arg = cJSON_Duplicate(arg, true))) return eg_nomem(err);
    eg_code rc = eg_run_load_interrupts_(t, j, err);
    if (rc) return rc;
    if (cJSON_IsArray(targets)) {
        int n = cJSON_GetArraySize(targets);
        t->targets = eg_malloc(sizeof(int) * (size_t)(n ? n : 1));
        if (!t->targets) return eg_nomem(err);
        for (const cJSON *c = targets->child; c; c = c->next) {
            int target;
            if (find_node(g, c, &target)) return bad(err, "a route target names an unknown node");
            t->targets[t->n_targets++] = eg_graph_target(g, target);
        }
    }
    return EG_OK;
}

static eg_code load(eg_run *run, cJSON *cp, eg_error *err) {
    if (!cJSON_IsObject(cp) || !cJSON_IsString(eg_get(cp, "format")) || strcmp(eg_get(cp, "format")->valuestring, FORMAT) != 0)
        return bad(err, "not an edgegraph checkpoint (no \"format\": \"" FORMAT "\")");
    const cJSON *version = eg_get(cp, "version");
    if (!cJSON_IsNumber(version) || version->valuedouble != EG_CHECKPOINT_VERSION) {
        /* Formatted as text: casting an arbitrary double to int is undefined. */
        char v[32];
        snprintf(v, sizeof v, "%g", cJSON_IsNumber(version) ? version->valuedouble : -1.0);
        return eg_fail(err, EG_E_CHECKPOINT_VERSION, "checkpoint format version %s is not supported (this build reads version %d)", v, EG_CHECKPOINT_VERSION);
    }
    cJSON *sum = cJSON_DetachItemFromObjectCaseSensitive(cp, "checksum");
    char expect[17];
    eg_hex64(eg_json_hash(cp), expect);
    bool intact = cJSON_IsString(sum) && strcmp(sum->valuestring, expect) == 0;
    cJSON_Delete(sum);
    if (!intact) return bad(err, "its checksum does not match its content (edited or damaged)");
    const cJSON *graph = eg_get(cp, "graph");
    if (!cJSON_IsString(graph) || strcmp(graph->valuestring, run->graph->hash) != 0)
        return eg_fail(err, EG_E_CHECKPOINT_GRAPH, "the checkpoint was taken on graph %s, not on this graph (%s)",
                       cJSON_IsString(graph) ? graph->valuestring : "?", run->graph->hash);
    const cJSON *status = eg_get(cp, "status"), *phase = eg_get(cp, "phase"), *tasks = eg_get(cp, "tasks");
    const cJSON *superstep = eg_get(cp, "superstep"), *steps = eg_get(cp, "stepsThisCall"), *id = eg_get(cp, "runId");
    run->status = cJSON_IsString(status) ? eg_status_parse(status->valuestring) : -1;
    if (run->status < 0 || !cJSON_IsString(phase) || !cJSON_IsArray(tasks) || !cJSON_IsNumber(superstep) || !cJSON_IsNumber(steps))
        return bad(err, "a required field is missing or of the wrong type");
    /* A checkpoint may be forged with a valid checksum: check ranges before converting. */
    if (!(superstep->valuedouble >= 0 && superstep->valuedouble <= 4294967295.0) || !(steps->valuedouble >= 0 && steps->valuedouble <= 1e9))
        return bad(err, "superstep or stepsThisCall is out of range");
    run->phase = strcmp(phase->valuestring, "routes") == 0 ? PHASE_ROUTES : PHASE_NODES;
    run->superstep = (uint32_t)superstep->valuedouble;
    run->steps_this_call = (int)steps->valuedouble;
    run->interrupt = cJSON_IsTrue(eg_get(cp, "interrupt"));
    const cJSON *held = eg_get(cp, "held");
    if (held && !eg_run_held_valid_(run->graph, held)) return bad(err, "its held joins are not {node: [source, ...]} of this graph");
    if (held && !(run->held = cJSON_Duplicate(held, true))) return eg_nomem(err);
    if (cJSON_IsString(id) && !run->run_id && !(run->run_id = eg_strdup(id->valuestring))) return eg_nomem(err);
    const cJSON *e = eg_get(cp, "error");
    if (e) {
        const cJSON *code = eg_get(e, "code"), *msg = eg_get(e, "message");
        run->error.code = EG_E_NODE_FAILED;
        for (int c = 0; c < EG_CODE_COUNT_; c++)
            if (cJSON_IsString(code) && strcmp(code->valuestring, eg_code_name(c)) == 0) run->error.code = c;
        /* %S: the message as the run had it (a node's text is not cut like a name). */
        eg_fail(&run->error, run->error.code, "%S", cJSON_IsString(msg) ? msg->valuestring : "");
        int node;
        if (eg_get(e, "node") && (find_node(run->graph, eg_get(e, "node"), &node) || node < 0))
            return bad(err, "its error names a node this graph does not have");
        if (eg_get(e, "node")) run->error_node = node;
    }
    int n = cJSON_GetArraySize(tasks);
    run->tasks = eg_malloc(sizeof(eg_task) * (size_t)(n ? n : 1));
    if (!run->tasks) return eg_nomem(err);
    memset(run->tasks, 0, sizeof(eg_task) * (size_t)(n ? n : 1));
    for (const cJSON *t = tasks->child; t; t = t->next) {
        eg_code rc = load_task(run, t, &run->tasks[run->n_tasks], err);
        run->n_tasks++;
        if (rc) return rc;
    }
    cJSON *state = cJSON_DetachItemFromObjectCaseSensitive(cp, "state");
    if (!cJSON_IsObject(state)) { cJSON_Delete(state); return bad(err, "its state is not an object"); }
    run->state = state;
    return EG_OK;
}

static eg_code restore(eg_run *run, const char *checkpoint, size_t len, eg_error *err) {
    if (len > run->max_input_bytes)
        return eg_fail(err, EG_E_LIMIT, "the checkpoint is %zu bytes, more than maxInputBytes (%zu)", len, run->max_input_bytes);
    bool nomem;
    cJSON *cp = eg_parse_ex(checkpoint, len, &nomem);
    eg_code rc = cp ? load(run, cp, err) : nomem ? eg_nomem(err) : bad(err, "it is not valid JSON (truncated?)");
    cJSON_Delete(cp);
    run->state_bytes_bound = len; /* the state and any finished tasks' results are inside */
    return rc;
}

eg_code eg_run_restore(const eg_graph *g, const char *checkpoint, size_t len,
                       const char *options, size_t options_len, eg_run **out, eg_error *err) {
    return eg_run_create_(g, options, options_len, restore, checkpoint, len, out, err);
}
