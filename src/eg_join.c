/* eg_join.c: nodes that wait. A join (nodes.<name>.join: [sources]) runs
 * once, in the step after the last of its sources reached it, however many
 * steps apart the branches arrive. A deferred node (defer: true) runs once
 * nothing else is left to run. And so nothing downstream is ever dropped: when
 * a step would schedule nothing else, every waiting node runs, with the
 * sources that did arrive (a branch that was routed elsewhere never will).
 * What waits is run->held, {"node": ["source", ...]}, kept in checkpoints. */
#include "eg_run_internal.h"

#include <string.h>

eg_code eg_parse_node_list(const eg_graph *g, eg_node *node, const char *field, const cJSON *list, int min, int **out, size_t *n, eg_error *err) {
    int count = cJSON_GetArraySize(list);
    if (!cJSON_IsArray(list) || count < min)
        return eg_fail(err, EG_E_DEFINITION, "nodes.%s.%s must list %s node names", node->name, field, min > 1 ? "two or more" : "one or more");
    if (!(*out = eg_malloc(sizeof(int) * (size_t)count))) return eg_nomem(err);
    for (const cJSON *s = list->child; s; s = s->next) {
        int i = cJSON_IsString(s) ? eg_graph_find(g, s->valuestring, strlen(s->valuestring)) : -1;
        /* A goto may go to END; a join waits for nodes. */
        if (i < 0 && cJSON_IsString(s) && strcmp(s->valuestring, g->end_name) == 0 && strcmp(field, "goto") == 0) i = EG_TARGET_END;
        if (i == -1) return eg_fail(err, EG_E_UNKNOWN_NODE, "nodes.%s.%s names '%s', which is not a node", node->name, field, cJSON_IsString(s) ? s->valuestring : "?");
        (*out)[(*n)++] = i;
    }
    return EG_OK;
}

/* The targets of a plain edge (static or a fan-out list); none for others. */
static const int *plain_targets(const eg_edge *e, size_t *n) {
    *n = e->kind == EG_EDGE_STATIC ? 1 : e->kind == EG_EDGE_FANOUT ? e->n_targets : 0;
    return e->kind == EG_EDGE_STATIC ? &e->target : e->targets;
}

/* Whether target t of source k counts: a node, not yet counted for this
 * source (a fan-out list may name it twice). seen[t] is its last source + 1. */
static bool first_arrival(int t, size_t k, int *seen) {
    if (t < 0 || seen[t] == (int)k + 1) return false;
    seen[t] = (int)k + 1;
    return true;
}

/* Two passes over the edges, count the sources of each node then list them
 * in node order: linear, where asking every node about every node was not. */
bool eg_graph_infer_joins(eg_graph *g) {
    size_t n = g->n_nodes, m;
    int *count = eg_malloc(sizeof(int) * (2 * n + 1));
    if (!count) return false;
    int *seen = count + n;
    memset(count, 0, sizeof(int) * 2 * n);
    for (size_t k = 0; k < n; k++) {
        const int *to = plain_targets(&g->nodes[k].edge, &m);
        for (size_t j = 0; j < m; j++) if (first_arrival(to[j], k, seen)) count[to[j]]++;
    }
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        eg_node *node = &g->nodes[i];
        if (count[i] < 2 || node->n_join || node->no_join || node->kind == EG_NODE_END) count[i] = 0;
        else ok = (node->join = eg_malloc(sizeof(int) * (size_t)count[i])) != NULL;
    }
    memset(seen, 0, sizeof(int) * n);
    for (size_t k = 0; ok && k < n; k++) {
        const int *to = plain_targets(&g->nodes[k].edge, &m);
        for (size_t j = 0; j < m; j++) {
            eg_node *t = first_arrival(to[j], k, seen) && count[to[j]] ? &g->nodes[to[j]] : NULL;
            if (t) t->join[t->n_join++] = (int)k;
        }
    }
    eg_free(count);
    return ok;
}

static bool waits(const eg_node *n) { return n->defer || n->n_join > 0; }

bool eg_run_held_valid_(const eg_graph *g, const cJSON *held) {
    if (!cJSON_IsObject(held)) return false;
    for (const cJSON *h = held->child; h; h = h->next) {
        int i = eg_graph_find(g, h->string, strlen(h->string));
        if (i < 0 || !waits(&g->nodes[i]) || !cJSON_IsArray(h)) return false;
        for (const cJSON *s = h->child; s; s = s->next)
            if (!cJSON_IsString(s) || eg_graph_find(g, s->valuestring, strlen(s->valuestring)) < 0) return false;
    }
    return true;
}

static bool has_string(const cJSON *list, const char *s) {
    for (const cJSON *c = list->child; c; c = c->next) if (strcmp(c->valuestring, s) == 0) return true;
    return false;
}

/* Record that `source` reached waiting node `target`. */
static bool arrive(eg_run *run, int target, int source) {
    const char *name = run->graph->nodes[target].name, *from = eg_run_node_name_(run, source);
    if (!run->held && !(run->held = cJSON_CreateObject())) return false;
    cJSON *list = eg_get(run->held, name);
    if (!list && !(list = cJSON_AddArrayToObject(run->held, name))) return false;
    if (has_string(list, from)) return true;
    cJSON *s = cJSON_CreateString(from);
    return s && cJSON_AddItemToArray(list, s);
}

static bool complete(const eg_run *run, const eg_node *n, const cJSON *arrived) {
    if (!n->n_join) return false;
    for (size_t k = 0; k < n->n_join; k++) if (!has_string(arrived, run->graph->nodes[n->join[k]].name)) return false;
    return true;
}

/* next/args (n entries, from sources[i]) lose the entries that must wait and
 * gain the waiting nodes that may run now. The arrays have room for the
 * entries plus every node held before this call (an entry that waits frees
 * its own slot). */
bool eg_run_hold_joins_(eg_run *run, const int *sources, size_t n_sources, int *next, cJSON **args, size_t *n) {
    const eg_graph *g = run->graph;
    size_t m = 0;
    for (size_t i = 0; i < *n; i++) {
        int t = next[i];
        /* A Send carries its own input: it never waits. */
        if (t >= 0 && !args[i] && waits(&g->nodes[t])) {
            if (i >= n_sources || !arrive(run, t, sources[i])) return false;
            continue;
        }
        next[m] = t;
        args[m++] = args[i];
        if (m - 1 != i) args[i] = NULL;
    }
    bool others = false;
    for (size_t i = 0; i < m; i++) others |= next[i] >= 0;
    /* Joins whose sources all arrived run now; joins still missing one wait
     * while anything else runs, and run when nothing else would; deferred
     * nodes wait for all of those too. */
    for (int pass = 0; pass < 3 && run->held; pass++) {
        for (cJSON *h = run->held->child, *after; h; h = after) {
            after = h->next;
            int node = eg_graph_find(g, h->string, strlen(h->string));
            const eg_node *w = &g->nodes[node];
            bool go = pass == 0 ? !w->defer && complete(run, w, h) : pass == 1 ? !w->defer && !others : !others;
            if (!go) continue;
            next[m] = node;
            args[m++] = NULL;
            cJSON_Delete(cJSON_DetachItemViaPointer(run->held, h));
        }
        for (size_t i = 0; i < m; i++) others |= next[i] >= 0;
    }
    *n = m;
    return true;
}
