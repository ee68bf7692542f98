/* eg_run.c: a run as a step machine. The core advances until it needs the
 * host (tasks to run) or stops (paused, finished, interrupted, error), and
 * records every state change in a patch the host applies to its mirror. */
#include "eg_run_internal.h"

#include <stdio.h>
#include <string.h>


static const char *const engine_keys[] = { "currentNode", "nextNode", "stepCount", "error" };

const char *eg_task_kind_name_(int kind) { return kind == TASK_ROUTE ? "route" : "node"; }
const char *eg_task_state_name_(int s) {
    return s == T_DONE ? "done" : s == T_FAILED ? "failed" : s == T_UNRESOLVED ? "unresolved" : "pending";
}

int eg_status_parse_(const char *name) {
    for (int s = 0; s < EG_STATUS_COUNT_; s++) if (name && strcmp(name, eg_status_name(s)) == 0) return s;
    return -1;
}

/* ---- small state writers: every change goes through the patch ---- */

static eg_path root = { { NULL }, 0 };

static bool put(eg_run *run, const char *key, cJSON *value) {
    if (!value) return false;
    char *name = eg_strdup(key);
    if (!name) { cJSON_Delete(value); return false; }
    if (value->string && !(value->type & cJSON_StringIsConst)) cJSON_free(value->string);
    value->string = name;
    value->type &= ~cJSON_StringIsConst;
    eg_error ignored;
    return eg_reduce_into(&(eg_reducers){ NULL, 0 }, run->state, &root, value, &run->patch, "engine", &ignored) == EG_OK;
}

/* Memory ran out while recording state: stop without allocating anything.
 * The state may now lack bookkeeping, so the error says OUT_OF_MEMORY (and
 * names the error it was recording, if any). */
static void fatal_nomem(eg_run *run) {
    if (run->error.code != EG_E_NOMEM) {
        int was = run->status == EG_STATUS_ERROR ? run->error.code : EG_OK;
        eg_fail(&run->error, EG_E_NOMEM, was ? "out of memory while stopping with %s" : "out of memory", eg_code_name(was));
    }
    run->status = EG_STATUS_ERROR;
}

static bool del(eg_run *run, const char *key) {
    cJSON *old = cJSON_GetObjectItemCaseSensitive(run->state, key);
    if (!old) return true;
    if (!eg_patch_op(&run->patch, "del", &root, key, -1, NULL)) return false;
    cJSON_Delete(cJSON_DetachItemViaPointer(run->state, old));
    return true;
}

static void set_status(eg_run *run, int status) {
    run->status = status;
    cJSON *cur = eg_get(run->state, "status");
    if (cJSON_IsString(cur) && strcmp(cur->valuestring, eg_status_name(status)) == 0) return;
    if (!put(run, "status", cJSON_CreateString(eg_status_name(status)))) fatal_nomem(run);
}

static const char *node_name(const eg_run *run, int node) {
    return node >= 0 ? run->graph->nodes[node].name : run->graph->end_name;
}

/* state.nextNode: what runs when this run continues (a name, a list of
 * names, or null), so a bare state is enough to resume from. */
static bool record_next(eg_run *run) {
    cJSON *names = cJSON_CreateArray();
    if (!names) return false;
    size_t count = 0;
    for (size_t i = 0; i < run->n_tasks; i++) {
        const eg_task *t = &run->tasks[i];
        int n = t->kind == TASK_NODE ? (t->state != T_DONE ? t->node : EG_TARGET_NONE) : t->override;
        if (n < 0) continue;
        cJSON *s = cJSON_CreateString(node_name(run, n));
        if (!s) { cJSON_Delete(names); return false; }
        cJSON_AddItemToArray(names, s);
        count++;
    }
    cJSON *value = names;
    if (count < 2) {
        value = count == 0 ? cJSON_CreateNull() : cJSON_CreateString(names->child->valuestring);
        cJSON_Delete(names);
    }
    cJSON *cur = eg_get(run->state, "nextNode");
    if (cur && value && cJSON_Compare(cur, value, true)) { cJSON_Delete(value); return true; }
    return put(run, "nextNode", value);
}

static cJSON *error_json(const eg_run *run) {
    cJSON *obj = cJSON_CreateObject();
    if (!obj) return NULL;
    if (!cJSON_AddStringToObject(obj, "code", eg_code_name(run->error.code))
        || !cJSON_AddStringToObject(obj, "message", run->error.message)
        || (run->error_node >= 0 && !cJSON_AddStringToObject(obj, "node", node_name(run, run->error_node)))) {
        cJSON_Delete(obj);
        return NULL;
    }
    return obj;
}

static void stop_with_error(eg_run *run, int node, const eg_error *e) {
    run->error = *e;
    run->error_node = node;
    run->status = EG_STATUS_ERROR;
    /* The run is stopped already; these writes only inform the state. */
    if (!put(run, "error", error_json(run)) || !record_next(run)) fatal_nomem(run);
    set_status(run, EG_STATUS_ERROR);
}

static void stop(eg_run *run, int node, int code, const char *fmt, ...) {
    eg_error e;
    va_list ap;
    va_start(ap, fmt);
    eg_vfail(&e, code, fmt, ap);
    va_end(ap);
    stop_with_error(run, node, &e);
}

/* ---- tasks ---- */

static void task_reset(eg_task *t) {
    cJSON_Delete(t->result);
    t->result = NULL;
    /* t->arg stays: a task re-run is the same task with the same input. */
    eg_free(t->targets);
    t->targets = NULL;
    t->n_targets = 0;
}

void eg_run_clear_tasks_(eg_run *run) {
    for (size_t i = 0; i < run->n_tasks; i++) { task_reset(&run->tasks[i]); cJSON_Delete(run->tasks[i].arg); }
    eg_free(run->tasks);
    run->tasks = NULL;
    run->n_tasks = 0;
}

/* Replace the current batch with `n` fresh tasks. */
static bool new_batch(eg_run *run, size_t n, eg_phase phase) {
    eg_task *tasks = eg_malloc(sizeof(eg_task) * (n ? n : 1));
    if (!tasks) return false;
    memset(tasks, 0, sizeof(eg_task) * (n ? n : 1));
    eg_run_clear_tasks_(run);
    run->tasks = tasks;
    run->n_tasks = n;
    run->phase = phase;
    return true;
}

static void finish(eg_run *run) {
    eg_run_clear_tasks_(run);
    if (!record_next(run)) { fatal_nomem(run); return; }
    set_status(run, EG_STATUS_FINISHED);
}

/* Start the next superstep with these nodes (END already removed). args[i]
 * (may be NULL, or NULL entries) is moved into task i. */
static void schedule(eg_run *run, const int *targets, cJSON **args, size_t n) {
    if (n == 0) { finish(run); return; }
    /* targets/args may point into the current batch's memory: copy first. */
    int *copy = eg_malloc(sizeof(int) * n);
    if (!copy) { stop(run, -1, EG_E_NOMEM, "out of memory"); return; }
    memcpy(copy, targets, sizeof(int) * n);
    if (!new_batch(run, n, PHASE_NODES)) { eg_free(copy); stop(run, -1, EG_E_NOMEM, "out of memory"); return; }
    for (size_t i = 0; i < n; i++) {
        eg_task *t = &run->tasks[i];
        t->node = copy[i];
        t->kind = TASK_NODE;
        t->state = T_PENDING;
        t->override = EG_TARGET_NONE;
        if (args) { t->arg = args[i]; args[i] = NULL; }
    }
    eg_free(copy);
    run->superstep++;
    if (run->steps_this_call + (int)n > run->max_steps)
        /* The batch stays scheduled: resume continues exactly here. */
        stop(run, -1, EG_E_MAX_STEPS, "maxSteps (%d) reached: %d node executions in this call; the run stops before '%s'",
             run->max_steps, run->steps_this_call, node_name(run, run->tasks[0].node));
}

/* ---- routing ---- */

/* Text of a state value used as a case key: strings as they are, booleans
 * and numbers as JSON writes them. */
static bool case_key(const cJSON *v, char *buf, size_t cap, const char **out) {
    if (cJSON_IsString(v)) { *out = v->valuestring; return true; }
    if (cJSON_IsBool(v)) { *out = cJSON_IsTrue(v) ? "true" : "false"; return true; }
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (d > -1e15 && d < 1e15 && d == (double)(long long)d) snprintf(buf, cap, "%lld", (long long)d);
        else snprintf(buf, cap, "%.17g", d);
        *out = buf;
        return true;
    }
    return false;
}

static bool set_targets(eg_task *t, const int *targets, size_t n) {
    t->targets = eg_malloc(sizeof(int) * (n ? n : 1));
    if (!t->targets) return false;
    memcpy(t->targets, targets, sizeof(int) * n);
    t->n_targets = n;
    t->state = T_DONE;
    return true;
}

/* Evaluate every unresolved route the core can evaluate itself; host routers
 * become pending tasks. */
static void resolve_routes(eg_run *run) {
    for (size_t i = 0; i < run->n_tasks && run->status == EG_STATUS_RUNNING; i++) {
        eg_task *t = &run->tasks[i];
        if (t->state != T_UNRESOLVED) continue;
        const eg_edge *e = &run->graph->nodes[t->node].edge;
        int one = EG_TARGET_NONE;
        bool ok = true;
        if (t->override != EG_TARGET_NONE) one = t->override;
        else if (e->kind == EG_EDGE_STATIC) one = e->target;
        else if (e->kind == EG_EDGE_FANOUT) ok = set_targets(t, e->targets, e->n_targets);
        else if (e->kind == EG_EDGE_ROUTER) { t->state = T_PENDING; continue; }
        else if (e->kind == EG_EDGE_MAP) {
            const cJSON *list = run->state;
            for (size_t k = 0; k < e->path_len && list; k++) list = eg_get(list, e->path[k]);
            if (list && !cJSON_IsArray(list) && !cJSON_IsNull(list)) {
                stop(run, t->node, EG_E_NO_ROUTE, "edge from '%s': state.%s must be a list to map over", node_name(run, t->node), e->path_text);
                return;
            }
            /* A path that is absent is a typo or a missing write, not "nothing to do": an empty list is. */
            if (!list) {
                stop(run, t->node, EG_E_NO_ROUTE, "edge from '%s': state.%s does not exist, so there is nothing to map over (write a list there; an empty list is fine)",
                     node_name(run, t->node), e->path_text);
                return;
            }
            if (!list || !list->child) {
                /* Nothing to map over: the empty target, or this branch ends. */
                if (e->empty_target != EG_TARGET_NONE) one = e->empty_target;
                else { t->state = T_DONE; continue; }
            } else {
                /* The same shape a host router answers with: Sends. */
                cJSON *sends = cJSON_CreateArray();
                ok = sends != NULL;
                for (const cJSON *item = list->child; ok && item; item = item->next) {
                    cJSON *send = cJSON_CreateObject();
                    if (!send) { ok = false; break; }
                    cJSON_AddItemToArray(sends, send); /* owned by sends from here */
                    ok = cJSON_AddStringToObject(send, "node", node_name(run, e->target))
                         && eg_set(send, "arg", cJSON_Duplicate(item, true));
                }
                if (!ok) { cJSON_Delete(sends); stop(run, -1, EG_E_NOMEM, "out of memory"); return; }
                t->result = sends;
                t->state = T_DONE;
                continue;
            }
        }
        else if (e->kind == EG_EDGE_COND) {
            const cJSON *v = run->state;
            for (size_t k = 0; k < e->path_len && v; k++) v = eg_get(v, e->path[k]);
            char buf[32];
            const char *key = NULL;
            if (v && case_key(v, buf, sizeof buf, &key))
                for (size_t k = 0; k < e->n_cases && one == EG_TARGET_NONE; k++)
                    if (strcmp(e->cases[k].value, key) == 0) one = e->cases[k].target;
            if (one == EG_TARGET_NONE) one = e->target;
            if (one == EG_TARGET_NONE) {
                stop(run, t->node, EG_E_NO_ROUTE, "edge from '%s': state.%s is %s, which matches no case, and the edge has no default",
                     node_name(run, t->node), e->path_text, key ? key : (v ? "not a string, number or boolean" : "missing"));
                return;
            }
        } else {
            stop(run, t->node, EG_E_MISSING_EDGE, "node '%s' has no outgoing edge", node_name(run, t->node));
            return;
        }
        if (one != EG_TARGET_NONE) ok = set_targets(t, &one, 1);
        if (!ok) { stop(run, -1, EG_E_NOMEM, "out of memory"); return; }
    }
}

static int lookup_target(const eg_run *run, const cJSON *name) {
    const eg_graph *g = run->graph;
    size_t len = strlen(name->valuestring);
    if (strcmp(name->valuestring, g->end_name) == 0) return EG_TARGET_END;
    int i = eg_graph_find(g, name->valuestring, len);
    return i < 0 ? EG_TARGET_NONE : eg_graph_target(g, i);
}

/* A host router's answer (or a map edge's): a node name, a Send
 * {"node": name, "arg": value}, or a list of those. */
static int route_entry(eg_run *run, const eg_task *t, const cJSON *c, int *target, const cJSON **arg) {
    const cJSON *name = cJSON_IsObject(c) ? eg_get(c, "node") : c;
    *arg = cJSON_IsObject(c) ? eg_get(c, "arg") : NULL;
    if (!cJSON_IsString(name)) {
        stop(run, t->node, EG_E_INVALID_RESULT, "the router of '%s' returned something that is not a node name or {node, arg}", node_name(run, t->node));
        return -1;
    }
    *target = lookup_target(run, name);
    if (*target == EG_TARGET_NONE) {
        stop(run, t->node, EG_E_ROUTER_TARGET, "the router of '%s' chose '%s', which is not a node", node_name(run, t->node), name->valuestring);
        return -1;
    }
    if (*arg && *target < 0) {
        stop(run, t->node, EG_E_INVALID_RESULT, "the router of '%s' sent an argument to END", node_name(run, t->node));
        return -1;
    }
    return 0;
}

static void commit_routes(eg_run *run) {
    size_t cap = 0;
    for (size_t i = 0; i < run->n_tasks; i++) {
        const eg_task *t = &run->tasks[i];
        cap += t->result ? (cJSON_IsArray(t->result) ? (size_t)cJSON_GetArraySize(t->result) : 1) : t->n_targets;
    }
    int *next = eg_malloc(sizeof(int) * (cap ? cap : 1));
    cJSON **args = eg_malloc(sizeof(cJSON *) * (cap ? cap : 1));
    if (!next || !args) { eg_free(next); eg_free(args); stop(run, -1, EG_E_NOMEM, "out of memory"); return; }
    memset(args, 0, sizeof(cJSON *) * (cap ? cap : 1));
    size_t n = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < run->n_tasks; i++) {
        eg_task *t = &run->tasks[i];
        if (!t->result) {
            for (size_t k = 0; k < t->n_targets; k++) next[n++] = t->targets[k];
            continue;
        }
        const cJSON *r = t->result;
        bool list = cJSON_IsArray(r);
        for (const cJSON *c = list ? r->child : r; ok && c; c = list ? c->next : NULL) {
            const cJSON *arg;
            if (route_entry(run, t, c, &next[n], &arg)) { ok = false; break; }
            if (arg && !(args[n] = cJSON_Duplicate(arg, true))) { stop(run, -1, EG_E_NOMEM, "out of memory"); ok = false; break; }
            n++;
        }
    }
    if (ok) {
        /* Nodes reached by several branches run once (a join); END drops out;
         * Sends (tasks with an argument) are never merged. */
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            if (next[i] < 0) continue;
            bool dup = false;
            for (size_t k = 0; k < m && !dup && !args[i]; k++) dup = next[k] == next[i] && !args[k];
            if (dup) continue;
            next[m] = next[i];
            args[m++] = args[i];
            if (m - 1 != i) args[i] = NULL;
        }
        schedule(run, next, args, m);
    }
    for (size_t i = 0; i < cap; i++) cJSON_Delete(args[i]);
    eg_free(args);
    eg_free(next);
}

/* ---- committing node results ---- */

static const char *const visit_keys[] = { "currentNodeId", "visitedNodes", "iteration" };

static bool is_engine_key(const eg_run *run, const char *k) {
    for (size_t i = 0; i < sizeof engine_keys / sizeof *engine_keys; i++) if (strcmp(k, engine_keys[i]) == 0) return true;
    for (size_t i = 0; run->graph->partitioned && i < sizeof visit_keys / sizeof *visit_keys; i++) if (strcmp(k, visit_keys[i]) == 0) return true;
    return false;
}

/* Partitioned state: visitedNodes += the step's nodes, iteration += their
 * count, currentNodeId = the last of them. */
static bool record_visits(eg_run *run) {
    static eg_reducer bookkeeping[] = { { "visitedNodes", EG_R_CONCAT }, { "iteration", EG_R_SUM } };
    static const eg_reducers rs = { bookkeeping, 2 };
    cJSON *names = cJSON_CreateArray();
    char *key = names ? eg_strdup("visitedNodes") : NULL;
    if (!key) { cJSON_Delete(names); return false; }
    names->string = key;
    for (size_t i = 0; i < run->n_tasks; i++) {
        cJSON *n = cJSON_CreateString(node_name(run, run->tasks[i].node));
        if (!n) { cJSON_Delete(names); return false; }
        cJSON_AddItemToArray(names, n);
    }
    eg_error e;
    if (eg_reduce_into(&rs, run->state, &root, names, &run->patch, "engine", &e)) return false;
    cJSON *count = cJSON_CreateNumber((double)run->n_tasks);
    if (!count || !(count->string = eg_strdup("iteration"))) { cJSON_Delete(count); return false; }
    if (eg_reduce_into(&rs, run->state, &root, count, &run->patch, "engine", &e)) return false;
    return put(run, "currentNodeId", cJSON_CreateString(node_name(run, run->tasks[run->n_tasks - 1].node)));
}

/* Check a result before anything is applied, so a bad result changes nothing. */
static bool validate_result(eg_run *run, const eg_task *t) {
    const char *name = node_name(run, t->node);
    const cJSON *r = t->result;
    if (!cJSON_IsObject(r)) {
        stop(run, t->node, EG_E_INVALID_RESULT, "node '%s' returned %s; a node returns an object (a partial state)", name,
             cJSON_IsArray(r) ? "an array" : cJSON_IsString(r) ? "a string" : cJSON_IsNumber(r) ? "a number" : cJSON_IsNull(r) ? "null" : "a non-object");
        return false;
    }
    for (const cJSON *f = r->child; f; f = f->next) {
        const char *k = f->string;
        if (is_engine_key(run, k)) { stop(run, t->node, EG_E_RESERVED_KEY, "node '%s' wrote '%s', which the engine owns", name, k); return false; }
        if (strcmp(k, "nextNodeOverride") == 0) {
            if (cJSON_IsNull(f)) continue;
            if (!cJSON_IsString(f)) { stop(run, t->node, EG_E_INVALID_RESULT, "node '%s': nextNodeOverride must be a node name", name); return false; }
            if (lookup_target(run, f) == EG_TARGET_NONE) {
                stop(run, t->node, EG_E_ROUTER_TARGET, "node '%s' set nextNodeOverride to '%s', which is not a node", name, f->valuestring);
                return false;
            }
        } else if ((strcmp(k, "shouldEnd") == 0 || strcmp(k, "shouldPause") == 0) && !cJSON_IsBool(f) && !cJSON_IsNull(f)) {
            stop(run, t->node, EG_E_INVALID_RESULT, "node '%s': %s must be a boolean", name, k);
            return false;
        } else if (strcmp(k, "status") == 0 && !cJSON_IsNull(f) && (!cJSON_IsString(f) || eg_status_parse_(f->valuestring) < 0)) {
            stop(run, t->node, EG_E_INVALID_RESULT, "node '%s': status must be RUNNING, PAUSED, FINISHED, ERROR or INTERRUPTED", name);
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
    return EG_E_NODE_FAILED;
}

/* A failed task whose node has an error edge becomes a result that records
 * the error and goes there: {"lastError": {...}, "nextNodeOverride": target}. */
static bool divert_failure(eg_run *run, eg_task *t) {
    const eg_node *node = &run->graph->nodes[t->node];
    const cJSON *msg = eg_get(t->result, "message");
    cJSON *r = cJSON_CreateObject(), *e = r ? cJSON_AddObjectToObject(r, "lastError") : NULL;
    bool ok = e && cJSON_AddStringToObject(e, "code", eg_code_name(failure_code(t->result)))
                && cJSON_AddStringToObject(e, "message", cJSON_IsString(msg) ? msg->valuestring : "(no message)")
                && cJSON_AddStringToObject(e, "node", node->name)
                && cJSON_AddStringToObject(r, "nextNodeOverride", node_name(run, node->on_error));
    if (!ok) { cJSON_Delete(r); return false; }
    cJSON_Delete(t->result);
    t->result = r;
    t->state = T_DONE;
    return true;
}

static void commit_nodes(eg_run *run) {
    for (size_t i = 0; i < run->n_tasks; i++) {
        eg_task *t = &run->tasks[i];
        if (t->state != T_FAILED || run->graph->nodes[t->node].on_error == EG_TARGET_NONE) continue;
        if (!divert_failure(run, t)) { stop(run, -1, EG_E_NOMEM, "out of memory"); return; }
    }
    for (size_t i = 0; i < run->n_tasks; i++) {
        const eg_task *t = &run->tasks[i];
        if (t->state != T_FAILED) continue;
        const cJSON *msg = eg_get(t->result, "message");
        const char *text = cJSON_IsString(msg) ? msg->valuestring : cJSON_IsString(t->result) ? t->result->valuestring : "(no message)";
        int code = failure_code(t->result);
        /* An invalid result's message already names the node and the path. */
        if (code == EG_E_INVALID_RESULT) stop(run, t->node, code, "%S", text);
        else stop(run, t->node, code, "node '%s' failed: %S", node_name(run, t->node), text);
        return;
    }
    for (size_t i = 0; i < run->n_tasks; i++) if (!validate_result(run, &run->tasks[i])) return;
    if (run->n_tasks > 1) {
        /* Parallel branches: detect conflicting writes before applying any. */
        cJSON **results = eg_malloc(sizeof(cJSON *) * run->n_tasks);
        const char **who = eg_malloc(sizeof(char *) * run->n_tasks);
        if (!results || !who) { eg_free(results); eg_free(who); stop(run, -1, EG_E_NOMEM, "out of memory"); return; }
        for (size_t i = 0; i < run->n_tasks; i++) { results[i] = run->tasks[i].result; who[i] = node_name(run, run->tasks[i].node); }
        eg_error e;
        int rc = eg_check_conflicts(&run->graph->reducers, results, who, run->n_tasks, &e);
        eg_free(results);
        eg_free(who);
        if (rc) { stop_with_error(run, -1, &e); return; }
    }

    bool pause = false, end = false;
    int node_status = -1, status_node = -1, wrote_messages = -1;
    for (size_t i = 0; i < run->n_tasks; i++) {
        eg_task *t = &run->tasks[i];
        t->override = EG_TARGET_NONE;
        const char *name = node_name(run, t->node);
        while (t->result->child) {
            cJSON *f = cJSON_DetachItemViaPointer(t->result, t->result->child);
            const char *k = f->string;
            if (strcmp(k, "nextNodeOverride") == 0) {
                if (cJSON_IsString(f)) t->override = lookup_target(run, f);
                cJSON_Delete(f);
            } else if (strcmp(k, "shouldEnd") == 0) {
                end |= cJSON_IsTrue(f);
                cJSON_Delete(f);
            } else if (strcmp(k, "status") == 0) {
                int s = cJSON_IsString(f) ? eg_status_parse_(f->valuestring) : -1;
                if (s >= 0 && node_status < 0) { node_status = s; status_node = t->node; }
                cJSON_Delete(f);
            } else {
                if (strcmp(k, "shouldPause") == 0) pause |= cJSON_IsTrue(f);
                if (strcmp(k, "pendingAskUser") == 0) pause |= !cJSON_IsNull(f);
                if (strcmp(k, "messages") == 0) wrote_messages = t->node;
                eg_error e;
                int rc = eg_reduce_into(&run->graph->reducers, run->state, &root, f, &run->patch, name, &e);
                if (rc) { stop_with_error(run, t->node, &e); return; }
            }
        }
    }
    /* Bookkeeping: the total count lives in the state, so it survives resume. */
    const cJSON *count = eg_get(run->state, "stepCount");
    double total = (cJSON_IsNumber(count) ? count->valuedouble : 0) + (double)run->n_tasks;
    if (!put(run, "stepCount", cJSON_CreateNumber(total))
        || !put(run, "currentNode", cJSON_CreateString(node_name(run, run->tasks[run->n_tasks - 1].node)))
        || (run->graph->partitioned && !record_visits(run))) {
        fatal_nomem(run);
        return;
    }
    run->steps_this_call += (int)run->n_tasks;
    eg_error e;
    int at = -1, rc = eg_run_check_state_(run, wrote_messages, &at, &e);
    if (rc == EG_E_NOMEM) { fatal_nomem(run); return; }
    if (rc) { stop_with_error(run, at, &e); return; }

    /* Precedence: PAUSED > shouldEnd > a status returned by a node. */
    if (node_status == EG_STATUS_PAUSED) pause = true;
    size_t n = run->n_tasks;
    int *sources = eg_malloc(sizeof(int) * 2 * n);
    if (!sources) { stop(run, -1, EG_E_NOMEM, "out of memory"); return; }
    for (size_t i = 0; i < n; i++) { sources[2 * i] = run->tasks[i].node; sources[2 * i + 1] = run->tasks[i].override; }
    if (!pause && (end || node_status == EG_STATUS_FINISHED)) { eg_free(sources); finish(run); return; }
    if (!pause && node_status == EG_STATUS_ERROR) {
        eg_free(sources);
        eg_run_clear_tasks_(run);
        stop(run, status_node, EG_E_NODE_STATUS, "node '%s' returned status ERROR", node_name(run, status_node));
        return;
    }
    if (!new_batch(run, n, PHASE_ROUTES)) { eg_free(sources); stop(run, -1, EG_E_NOMEM, "out of memory"); return; }
    for (size_t i = 0; i < n; i++) {
        eg_task *t = &run->tasks[i];
        t->kind = TASK_ROUTE;
        t->state = T_UNRESOLVED;
        t->node = sources[2 * i];
        t->override = sources[2 * i + 1];
    }
    eg_free(sources);
    if (pause) {
        /* Routing waits for resume, so routers see the user's answer. */
        if (!record_next(run)) { fatal_nomem(run); return; }
        set_status(run, EG_STATUS_PAUSED);
    }
}

static bool any_pending(const eg_run *run) {
    for (size_t i = 0; i < run->n_tasks; i++) if (run->tasks[i].state == T_PENDING) return true;
    return false;
}

static void advance(eg_run *run) {
    while (run->status == EG_STATUS_RUNNING) {
        if (run->interrupt) {
            if (!record_next(run)) fatal_nomem(run);
            else set_status(run, EG_STATUS_INTERRUPTED);
            return;
        }
        if (run->phase == PHASE_ROUTES) resolve_routes(run);
        if (run->status != EG_STATUS_RUNNING || any_pending(run)) return;
        if (run->phase == PHASE_NODES) commit_nodes(run);
        else commit_routes(run);
    }
}

/* ---- creation ---- */

static int parse_options(eg_run *run, const char *options, size_t len, eg_error *err) {
    run->max_steps = run->graph->max_steps;
    eg_run_default_limits_(run);
    if (!options || !len) return EG_OK;
    bool nomem;
    cJSON *o = eg_parse_ex(options, len, &nomem);
    if (!o) return nomem ? NOMEM(err) : eg_fail(err, EG_E_INVALID_OPTIONS, "options are not valid JSON");
    int rc = EG_OK;
    const cJSON *max = eg_get(o, "maxSteps"), *id = eg_get(o, "runId");
    if (!cJSON_IsObject(o)) rc = eg_fail(err, EG_E_INVALID_OPTIONS, "options must be an object");
    else if (max && !cJSON_IsNull(max)) {
        if (!cJSON_IsNumber(max) || max->valuedouble < 1 || max->valuedouble > 1e9 || max->valuedouble != (double)(int)max->valuedouble)
            rc = eg_fail(err, EG_E_INVALID_OPTIONS, "options.maxSteps must be an integer from 1 to 1000000000");
        else run->max_steps = (int)max->valuedouble;
    }
    if (!rc) rc = eg_run_read_limits_(run, o, err);
    if (!rc && id && !cJSON_IsNull(id)) {
        if (!cJSON_IsString(id)) rc = eg_fail(err, EG_E_INVALID_OPTIONS, "options.runId must be a string");
        else if (!(run->run_id = eg_strdup(id->valuestring))) rc = NOMEM(err);
    }
    cJSON_Delete(o);
    return rc;
}

eg_run *eg_run_alloc_(const eg_graph *g, const char *options, size_t len, eg_error *err) {
    if (err) { err->code = EG_OK; err->message[0] = '\0'; }
    if (!g) { eg_fail(err, EG_E_BAD_STATE, "no graph"); return NULL; }
    eg_init_json();
    eg_run *run = eg_malloc(sizeof *run);
    if (!run) { NOMEM(err); return NULL; }
    memset(run, 0, sizeof *run);
    run->graph = g;
    run->status = EG_STATUS_RUNNING;
    run->error_node = -1;
    if (parse_options(run, options, len, err)) { eg_run_free(run); return NULL; }
    return run;
}

static int parse_object(const char *json, size_t len, const char *what, cJSON **out, eg_error *err) {
    bool nomem;
    *out = NULL;
    *out = eg_parse_ex(json, len, &nomem);
    if (!*out) return nomem ? NOMEM(err) : eg_fail(err, EG_E_INVALID_INPUT, "%s is not valid JSON", what);
    if (!cJSON_IsObject(*out)) { cJSON_Delete(*out); *out = NULL; return eg_fail(err, EG_E_INVALID_INPUT, "%s must be a JSON object", what); }
    return EG_OK;
}

static int too_big(const eg_run *run, const char *what, size_t len, eg_error *err) {
    return eg_fail(err, EG_E_LIMIT, "%s is %zu bytes, more than maxInputBytes (%zu)", what, len, run->max_input_bytes);
}

/* After setup, anything that failed to allocate means the run is unusable. */
static eg_run *checked(eg_run *run, eg_error *err) {
    if (run->status == EG_STATUS_ERROR && run->error.code == EG_E_NOMEM) { NOMEM(err); eg_run_free(run); return NULL; }
    return run;
}

eg_run *eg_run_new(const eg_graph *g, const char *input, size_t input_len,
                   const char *options, size_t options_len, eg_error *err) {
    eg_run *run = eg_run_alloc_(g, options, options_len, err);
    if (!run) return NULL;
    if (input_len > run->max_input_bytes) { too_big(run, "the initial state", input_len, err); eg_run_free(run); return NULL; }
    if (parse_object(input, input_len, "the initial state", &run->state, err)) { eg_run_free(run); return NULL; }
    run->state_bytes_bound = input_len;
    for (const cJSON *k = run->state->child; k; k = k->next) {
        if (strcmp(k->string, "stepCount") == 0 || strcmp(k->string, "error") == 0) {
            eg_fail(err, EG_E_INVALID_INPUT, "the initial state sets '%s', which the engine owns", k->string);
            eg_run_free(run);
            return NULL;
        }
    }
    bool ok = true;
    for (const cJSON *d = g->defaults->child; d && ok; d = d->next)
        if (!eg_get(run->state, d->string)) ok = put(run, d->string, cJSON_Duplicate(d, true));
    ok = ok && put(run, "stepCount", cJSON_CreateNumber(0));
    ok = ok && put(run, "status", cJSON_CreateString("RUNNING"));
    if (!ok) { NOMEM(err); eg_run_free(run); return NULL; }
    int entry = g->entry;
    schedule(run, &entry, NULL, 1);
    return checked(run, err);
}

eg_run *eg_run_from_state(const eg_graph *g, const char *state, size_t len,
                          const char *options, size_t options_len, eg_error *err) {
    eg_run *run = eg_run_alloc_(g, options, options_len, err);
    if (!run) return NULL;
    if (len > run->max_input_bytes) { too_big(run, "the saved state", len, err); eg_run_free(run); return NULL; }
    if (parse_object(state, len, "the saved state", &run->state, err)) { eg_run_free(run); return NULL; }
    run->state_bytes_bound = len;
    const cJSON *st = eg_get(run->state, "status"), *next = eg_get(run->state, "nextNode"), *cur = eg_get(run->state, "currentNode");
    int status = cJSON_IsString(st) ? eg_status_parse_(st->valuestring) : -1;
    if (status == EG_STATUS_FINISHED) { run->status = EG_STATUS_FINISHED; return run; }
    /* Continue at nextNode, else route from currentNode, else start over. */
    size_t n = cJSON_IsArray(next) ? (size_t)cJSON_GetArraySize(next) : cJSON_IsString(next) ? 1 : 0;
    if (next && !cJSON_IsNull(next) && n == 0 && !cJSON_IsArray(next)) {
        eg_fail(err, EG_E_INVALID_INPUT, "saved state: nextNode must be a node name or a list of names");
        eg_run_free(run);
        return NULL;
    }
    int *targets = eg_malloc(sizeof(int) * (n ? n : 1));
    if (!targets) { NOMEM(err); eg_run_free(run); return NULL; }
    size_t m = 0;
    for (const cJSON *c = cJSON_IsArray(next) ? next->child : next; n && c; c = cJSON_IsArray(next) ? c->next : NULL) {
        int t = cJSON_IsString(c) ? lookup_target(run, c) : EG_TARGET_NONE;
        if (t == EG_TARGET_NONE) {
            eg_fail(err, EG_E_INVALID_INPUT, "saved state: nextNode '%s' is not a node of this graph", cJSON_IsString(c) ? c->valuestring : "?");
            eg_free(targets); eg_run_free(run);
            return NULL;
        }
        if (t >= 0) targets[m++] = t;
    }
    if (n) {
        schedule(run, targets, NULL, m);
        run->superstep = 0;
    } else if (cJSON_IsString(cur)) {
        int c = eg_graph_find(g, cur->valuestring, strlen(cur->valuestring));
        if (c < 0 || g->nodes[c].kind == EG_NODE_END) {
            eg_fail(err, EG_E_INVALID_INPUT, "saved state: currentNode '%s' is not a node of this graph", cur->valuestring);
            eg_free(targets); eg_run_free(run);
            return NULL;
        }
        if (new_batch(run, 1, PHASE_ROUTES)) {
            run->tasks[0] = (eg_task){ .node = c, .kind = TASK_ROUTE, .state = T_UNRESOLVED, .override = EG_TARGET_NONE };
        } else stop(run, -1, EG_E_NOMEM, "out of memory");
    } else {
        int entry = g->entry;
        schedule(run, &entry, NULL, 1);
    }
    eg_free(targets);
    if (run->status == EG_STATUS_RUNNING || run->status == EG_STATUS_ERROR) {
        /* Not yet resumed: resume() decides when it runs. */
        if (run->status == EG_STATUS_RUNNING) run->status = status >= 0 ? status : EG_STATUS_PAUSED;
        if (run->status == EG_STATUS_RUNNING) run->status = EG_STATUS_INTERRUPTED;
    }
    return checked(run, err);
}

/* ---- driving ---- */

int eg_run_resume(eg_run *run, const char *user_input, size_t len) {
    if (!run) return EG_E_BAD_STATE;
    if (run->status == EG_STATUS_FINISHED) return EG_E_NOT_RESUMABLE;
    if (len > run->max_input_bytes) return EG_E_LIMIT;
    run->state_bytes_bound += len;
    cJSON *msg = NULL;
    if (user_input && len) {
        eg_error e;
        if (parse_object(user_input, len, "the user input", &msg, &e)) return e.code;
    }
    if (msg) {
        cJSON *list = cJSON_CreateArray();
        char *key = list ? eg_strdup("messages") : NULL;
        if (!key) { cJSON_Delete(list); cJSON_Delete(msg); return EG_E_NOMEM; }
        list->string = key;
        cJSON_AddItemToArray(list, msg);
        eg_error e;
        int rc = eg_reduce_into(&run->graph->reducers, run->state, &root, list, &run->patch, "resume", &e);
        if (rc) return rc;
    }
    if (!del(run, "pendingAskUser") || !del(run, "shouldPause")) return EG_E_NOMEM;
    if (run->status == EG_STATUS_ERROR) {
        /* Retry: failed tasks run again; a step whose results were rejected
         * runs again whole; routes are evaluated again. */
        bool rerun_all = run->error.code != EG_E_NODE_FAILED && run->error.code != EG_E_MAX_STEPS;
        for (size_t i = 0; i < run->n_tasks; i++) {
            eg_task *t = &run->tasks[i];
            if (t->kind == TASK_ROUTE) { task_reset(t); t->state = T_UNRESOLVED; }
            else if (t->state == T_FAILED || rerun_all) { task_reset(t); t->state = T_PENDING; }
        }
        if (!del(run, "error")) return EG_E_NOMEM;
        run->error.code = EG_OK;
        run->error.message[0] = '\0';
        run->error_node = -1;
    }
    run->interrupt = false;
    run->steps_this_call = 0;
    set_status(run, EG_STATUS_RUNNING);
    return EG_OK;
}

int eg_run_apply(eg_run *run, const char *update, size_t len, eg_error *err) {
    if (err) err->code = EG_OK;
    if (!run || run->status == EG_STATUS_RUNNING) return eg_fail(err, EG_E_BAD_STATE, "apply() is for a run that is not running");
    cJSON *u;
    int rc = parse_object(update, len, "the update", &u, err);
    if (rc) return rc;
    for (const cJSON *f = u->child; f; f = f->next) {
        if (is_engine_key(run, f->string)) {
            rc = eg_fail(err, EG_E_RESERVED_KEY, "the update writes '%s', which the engine owns", f->string);
            cJSON_Delete(u);
            return rc;
        }
    }
    while (u->child && !rc) rc = eg_reduce_into(&run->graph->reducers, run->state, &root, cJSON_DetachItemViaPointer(u, u->child), &run->patch, "resume", err);
    cJSON_Delete(u);
    return rc;
}

const char *eg_run_print_(eg_run *run, const cJSON *value, size_t *len) {
    run->out.len = 0;
    if (!eg_buf_json(&run->out, value)) return NULL;
    if (len) *len = run->out.len;
    return run->out.data;
}

/* One task as {"index":0,"id":"3.0","kind":"node","node":"a","handler":"a"}. */
static bool put_task(eg_buf *b, const eg_run *run, size_t i) {
    const eg_task *t = &run->tasks[i];
    const eg_node *node = &run->graph->nodes[t->node];
    bool route = t->kind == TASK_ROUTE;
    return eg_buf_lit(b, "{\"index\":") && eg_buf_int(b, (long long)i)
        && eg_buf_lit(b, ",\"id\":\"") && eg_buf_int(b, run->superstep) && eg_buf_cstr(b, route ? ".r" : ".")
        && eg_buf_int(b, (long long)i)
        && eg_buf_cstr(b, route ? "\",\"kind\":\"route\",\"node\":" : "\",\"kind\":\"node\",\"node\":") && eg_buf_string(b, node->name)
        && eg_buf_cstr(b, route ? ",\"router\":" : ",\"handler\":") && eg_buf_string(b, route ? node->edge.router : node->handler)
        && (!t->arg || (eg_buf_lit(b, ",\"arg\":") && eg_buf_json(b, t->arg)))
        && eg_buf_lit(b, "}");
}

const char *eg_run_next(eg_run *run, size_t *len) {
    if (len) *len = 0;
    if (!run) return NULL;
    advance(run);
    eg_buf *b = &run->out;
    b->len = 0;
    bool ok = eg_buf_lit(b, "{\"status\":") && eg_buf_string(b, eg_status_name(run->status))
              && eg_buf_lit(b, ",\"patch\":[")
              && (run->patch.text.len == 0 || eg_buf_put(b, run->patch.text.data, run->patch.text.len))
              && eg_buf_lit(b, "]");
    if (ok && run->status == EG_STATUS_RUNNING) {
        ok = eg_buf_lit(b, ",\"tasks\":[");
        bool first = true;
        for (size_t i = 0; ok && i < run->n_tasks; i++) {
            if (run->tasks[i].state != T_PENDING) continue;
            ok = (first || eg_buf_lit(b, ",")) && put_task(b, run, i);
            first = false;
        }
        ok = ok && eg_buf_lit(b, "]");
    }
    if (ok && run->status == EG_STATUS_ERROR) {
        cJSON *error = error_json(run);
        ok = error && eg_buf_lit(b, ",\"error\":") && eg_buf_json(b, error);
        cJSON_Delete(error);
    }
    ok = ok && eg_buf_lit(b, "}");
    if (!ok) return NULL; /* the patch is kept: the next call hands it out */
    run->patch.text.len = 0;
    run->patch.count = 0;
    if (len) *len = b->len;
    return b->data;
}

static int task_at(eg_run *run, uint32_t index, eg_task **out) {
    if (!run) return EG_E_BAD_STATE;
    if (run->status != EG_STATUS_RUNNING) return EG_E_BAD_STATE;
    if (index >= run->n_tasks || run->tasks[index].state != T_PENDING) return EG_E_BAD_TASK;
    *out = &run->tasks[index];
    return EG_OK;
}

int eg_run_submit(eg_run *run, uint32_t index, const char *result, size_t len) {
    eg_task *t;
    int rc = task_at(run, index, &t);
    if (rc) return rc;
    if (len > run->max_result_bytes) {
        stop(run, t->node, EG_E_LIMIT, "%s '%s' returned %zu bytes, more than maxResultBytes (%zu)",
             t->kind == TASK_ROUTE ? "the router of" : "node", node_name(run, t->node), len, run->max_result_bytes);
        return EG_OK;
    }
    bool nomem;
    cJSON *r = eg_parse_ex(result, len, &nomem);
    if (!r) {
        if (nomem) return EG_E_NOMEM;
        stop(run, t->node, EG_E_INVALID_RESULT, "%s '%s' returned a value that is not valid JSON",
             t->kind == TASK_ROUTE ? "the router of" : "node", node_name(run, t->node));
        return EG_OK;
    }
    t->result = r;
    t->state = T_DONE;
    run->state_bytes_bound += len;
    return EG_OK;
}

int eg_run_fail(eg_run *run, uint32_t index, const char *error, size_t len) {
    eg_task *t;
    int rc = task_at(run, index, &t);
    if (rc) return rc;
    bool nomem;
    cJSON *e = eg_parse_ex(error, len, &nomem);
    if (!e && nomem) return EG_E_NOMEM;
    t->result = e; /* NULL when the host sent no valid JSON: "(no message)" */
    t->state = T_FAILED;
    if (t->kind == TASK_ROUTE) {
        const cJSON *msg = eg_get(e, "message");
        stop(run, t->node, EG_E_NODE_FAILED, "the router of '%s' failed: %S", node_name(run, t->node),
             cJSON_IsString(msg) ? msg->valuestring : "(no message)");
    }
    return EG_OK;
}

void eg_run_interrupt(eg_run *run) { if (run) run->interrupt = true; }

const char *eg_run_state(eg_run *run, size_t *len) {
    if (len) *len = 0;
    if (!run) return NULL;
    return eg_run_print_(run, run->state, len);
}

int eg_run_status(const eg_run *run) { return run ? run->status : EG_STATUS_ERROR; }

const eg_error *eg_run_error(const eg_run *run) {
    static const eg_error none = { EG_OK, "" };
    return run ? &run->error : &none;
}

void eg_run_free(eg_run *run) {
    if (!run) return;
    eg_run_clear_tasks_(run);
    cJSON_Delete(run->state);
    eg_buf_free(&run->patch.text);
    eg_buf_free(&run->out);
    eg_free(run->run_id);
    eg_free(run);
}
