/* eg_route.c: routing after a step: each edge kind resolved in C (static,
 * fan-out, conditional on a state value, map over a list), a host router's
 * answer (names or Sends) and nextNodeOverride, into the next batch of tasks. */
#include "eg_run_internal.h"

#include <string.h>

/* Text of a state value used as a case key: strings as they are, booleans
 * and numbers as JavaScript's String() writes them, since a JS caller's
 * path-map keys are String(x): 0.1 is "0.1" (not "0.10000000000000001"),
 * 1e-5 is "0.00001" and 1e15 is "1000000000000000" (not %g's 1e-05, 1e+15). */
static bool case_key(const cJSON *v, char buf[EG_NUMBER_JS_CAP], const char **out) {
    if (cJSON_IsString(v)) { *out = v->valuestring; return true; }
    if (cJSON_IsBool(v)) { *out = cJSON_IsTrue(v) ? "true" : "false"; return true; }
    if (cJSON_IsNumber(v)) {
        eg_number_js(buf, v->valuedouble);
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
void eg_run_resolve_routes_(eg_run *run) {
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
                eg_run_stop_(run, t->node, EG_E_NO_ROUTE, "edge from '%s': state.%s must be a list to map over", eg_run_node_name_(run, t->node), e->path_text);
                return;
            }
            /* A path that is absent is a typo or a missing write, not "nothing to do": an empty list is. */
            if (!list) {
                eg_run_stop_(run, t->node, EG_E_NO_ROUTE, "edge from '%s': state.%s does not exist, so there is nothing to map over (write a list there; an empty list is fine)",
                     eg_run_node_name_(run, t->node), e->path_text);
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
                    ok = cJSON_AddStringToObject(send, "node", eg_run_node_name_(run, e->target))
                         && eg_set(send, "arg", cJSON_Duplicate(item, true));
                }
                if (!ok) { cJSON_Delete(sends); eg_run_stop_nomem_(run); return; }
                t->result = sends;
                t->state = T_DONE;
                continue;
            }
        }
        else if (e->kind == EG_EDGE_COND) {
            const cJSON *v = run->state;
            for (size_t k = 0; k < e->path_len && v; k++) v = eg_get(v, e->path[k]);
            char buf[EG_NUMBER_JS_CAP];
            const char *key = NULL;
            if (v && case_key(v, buf, &key))
                for (size_t k = 0; k < e->n_cases && one == EG_TARGET_NONE; k++)
                    if (strcmp(e->cases[k].value, key) == 0) one = e->cases[k].target;
            if (one == EG_TARGET_NONE) one = e->target;
            if (one == EG_TARGET_NONE) {
                eg_run_stop_(run, t->node, EG_E_NO_ROUTE, "edge from '%s': state.%s is %s, which matches no case, and the edge has no default",
                     eg_run_node_name_(run, t->node), e->path_text, key ? key : (v ? "not a string, number or boolean" : "missing"));
                return;
            }
        } else {
            eg_run_stop_(run, t->node, EG_E_MISSING_EDGE, "node '%s' has no outgoing edge", eg_run_node_name_(run, t->node));
            return;
        }
        if (one != EG_TARGET_NONE) ok = set_targets(t, &one, 1);
        if (!ok) { eg_run_stop_nomem_(run); return; }
    }
}

/* A host router's answer (or a map edge's): a node name, a Send
 * {"node": name, "arg": value}, or a list of those. */
static int route_entry(eg_run *run, const eg_task *t, const cJSON *c, int *target, const cJSON **arg) {
    const cJSON *name = cJSON_IsObject(c) ? eg_get(c, "node") : c;
    *arg = cJSON_IsObject(c) ? eg_get(c, "arg") : NULL;
    if (!cJSON_IsString(name)) {
        eg_run_stop_(run, t->node, EG_E_INVALID_RESULT, "the router of '%s' returned something that is not a node name or {node, arg}", eg_run_node_name_(run, t->node));
        return -1;
    }
    *target = eg_graph_target_by_name(run->graph, (name)->valuestring);
    if (*target == EG_TARGET_NONE) {
        eg_run_stop_(run, t->node, EG_E_ROUTER_TARGET, "the router of '%s' chose '%s', which is not a node", eg_run_node_name_(run, t->node), name->valuestring);
        return -1;
    }
    if (*arg && *target < 0) {
        eg_run_stop_(run, t->node, EG_E_INVALID_RESULT, "the router of '%s' sent an argument to END", eg_run_node_name_(run, t->node));
        return -1;
    }
    return 0;
}

/* Plain targets first, then Sends, each in their order (a stable partition). */
static void plain_before_sends(int *next, cJSON **args, size_t n) {
    for (size_t i = 1; i < n; i++) {
        if (args[i]) continue;
        int t = next[i];
        size_t k = i;
        for (; k > 0 && args[k - 1]; k--) { next[k] = next[k - 1]; args[k] = args[k - 1]; }
        next[k] = t;
        args[k] = NULL;
    }
}

void eg_run_commit_routes_(eg_run *run) {
    /* Room for every entry, plus every waiting node (released joins). */
    size_t cap = run->held ? (size_t)cJSON_GetArraySize(run->held) + 1 : 1;
    for (size_t i = 0; i < run->n_tasks; i++) {
        const eg_task *t = &run->tasks[i];
        cap += t->result ? (cJSON_IsArray(t->result) ? (size_t)cJSON_GetArraySize(t->result) : 1) : t->n_targets;
    }
    int *next = eg_malloc(sizeof(int) * cap), *from = eg_malloc(sizeof(int) * cap);
    cJSON **args = eg_malloc(sizeof(cJSON *) * cap);
    if (!next || !args || !from) { eg_free(next); eg_free(args); eg_free(from); eg_run_stop_nomem_(run); return; }
    memset(args, 0, sizeof(cJSON *) * cap);
    size_t n = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < run->n_tasks; i++) {
        eg_task *t = &run->tasks[i];
        if (!t->result) {
            for (size_t k = 0; k < t->n_targets; k++) { from[n] = t->node; next[n++] = t->targets[k]; }
            continue;
        }
        const cJSON *r = t->result;
        bool list = cJSON_IsArray(r);
        for (const cJSON *c = list ? r->child : r; ok && c; c = list ? c->next : NULL) {
            const cJSON *arg;
            if (route_entry(run, t, c, &next[n], &arg)) { ok = false; break; }
            if (arg && !(args[n] = cJSON_Duplicate(arg, true))) { eg_run_stop_nomem_(run); ok = false; break; }
            from[n++] = t->node;
        }
    }
    if (ok && !eg_run_hold_joins_(run, from, n, next, args, &n)) { eg_run_stop_nomem_(run); ok = false; }
    eg_free(from);
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
        plain_before_sends(next, args, m);
        eg_run_schedule_(run, next, args, m);
    }
    for (size_t i = 0; i < cap; i++) cJSON_Delete(args[i]);
    eg_free(args);
    eg_free(next);
}
