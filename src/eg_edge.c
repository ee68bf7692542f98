/* eg_edge.c: the targets names stand for (a node, or END), and one node's
 * outgoing edge, parsed from its definition: a static
 * target, a fan-out list, a path switch ({"path", "cases", "default"}), a
 * host router ({"router", "targets"}) or a map edge ({"map", "to", "empty"}).
 * Every target names a node of the graph or END; a misspelt END gets a hint. */
#include "eg_internal.h"

#include <string.h>

static size_t name_hash(const char *name, size_t len) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++) { h ^= (unsigned char)name[i]; h *= 16777619u; }
    return h;
}

bool eg_graph_index_new(eg_graph *g, size_t n) {
    size_t size = 8;
    while (size < 2 * n) size *= 2;
    if (!(g->index = eg_malloc(sizeof(int) * size))) return false;
    memset(g->index, 0, sizeof(int) * size);
    g->index_mask = size - 1;
    return true;
}

/* Whether node name `own` is name[0..len) (a loop, not strncmp: a call per probe under -Oz). */
static bool same_name(const char *own, const char *name, size_t len) {
    size_t i = 0;
    while (i < len && own[i] == name[i]) i++;
    return i == len && own[len] == '\0';
}

/* The slot of `name` (its node + 1 there), or of the empty one where it would go: one probe serves a lookup and an add. */
static size_t index_slot(const eg_graph *g, const char *name, size_t len) {
    size_t slot = name_hash(name, len) & g->index_mask;
    while (g->index[slot] && !same_name(g->nodes[g->index[slot] - 1].name, name, len)) slot = (slot + 1) & g->index_mask;
    return slot;
}

int eg_graph_index_add(eg_graph *g, int node) {
    const char *name = g->nodes[node].name;
    size_t slot = index_slot(g, name, strlen(name));
    if (g->index[slot]) return g->index[slot] - 1;
    g->index[slot] = node + 1;
    return -1;
}

int eg_graph_find(const eg_graph *g, const char *name, size_t len) {
    if (!g->index) return -1;
    return g->index[index_slot(g, name, len)] - 1;
}

int eg_graph_target(const eg_graph *g, int node) {
    if (node < 0) return node;
    return g->nodes[node].kind == EG_NODE_END ? EG_TARGET_END : node;
}

int eg_graph_target_by_name(const eg_graph *g, const char *name) {
    if (strcmp(name, g->end_name) == 0) return EG_TARGET_END;
    int i = eg_graph_find(g, name, strlen(name));
    return i < 0 ? EG_TARGET_NONE : eg_graph_target(g, i);
}

void eg_edge_free(eg_edge *e) {
    /* A static edge (most) holds no memory: no five frees of NULL each. */
    if (e->kind == EG_EDGE_STATIC || e->kind == EG_EDGE_NONE) return;
    for (size_t i = 0; i < e->path_len; i++) eg_free(e->path[i]);
    eg_free(e->path);
    eg_free(e->path_text);
    for (size_t i = 0; i < e->n_cases; i++) eg_free(e->cases[i].value);
    eg_free(e->cases);
    eg_free(e->router);
    eg_free(e->targets);
    memset(e, 0, sizeof *e);
}

eg_code eg_edge_target(const eg_graph *g, const char *from, const char *name, int *out, eg_error *err) {
    if ((*out = eg_graph_target_by_name(g, name)) != EG_TARGET_NONE) return EG_OK;
    /* END spelt another way (END, end, __END__) is the usual slip. */
    if (strcmp(name, "END") == 0 || strcmp(name, "end") == 0 || strcmp(name, "__END__") == 0 || strcmp(name, "End") == 0)
        return eg_fail(err, EG_E_UNKNOWN_NODE, "edge from '%s' goes to '%s', which is not a node; did you mean '%s'?", from, name, g->end_name);
    return eg_fail(err, EG_E_UNKNOWN_NODE, "edge from '%s' goes to '%s', which is not a node", from, name);
}

static eg_code parse_targets(const eg_graph *g, const char *from, const cJSON *list, eg_edge *e, eg_error *err) {
    int n = cJSON_GetArraySize(list);
    if (n == 0) return eg_fail(err, EG_E_DEFINITION, "edges.%s: a target list must not be empty", from);
    e->targets = eg_malloc(sizeof(int) * (size_t)n);
    if (!e->targets) return eg_nomem(err);
    for (const cJSON *t = list->child; t; t = t->next) {
        if (!cJSON_IsString(t))
            return eg_fail(err, EG_E_DEFINITION, "edges.%s: targets must be node names (strings)", from);
        eg_code rc = eg_edge_target(g, from, t->valuestring, &e->targets[e->n_targets], err);
        if (rc) return rc;
        e->n_targets++;
    }
    return EG_OK;
}

static eg_code split_path(const char *from, const char *text, eg_edge *e, eg_error *err) {
    /* edges.X.path and edges.X.map share this: the message names "path". */
    size_t n = 1;
    for (const char *p = text; *p; p++) n += (*p == '.');
    if (!*text || n > 32) return eg_fail(err, EG_E_DEFINITION, "edges.%s.path: '%s' is not a dotted path of 1 to 32 keys", from, text);
    e->path = eg_malloc(sizeof(char *) * n);
    e->path_text = eg_strdup(text);
    if (!e->path || !e->path_text) return eg_nomem(err);
    const char *start = text;
    for (const char *p = text;; p++) {
        if (*p == '.' || *p == '\0') {
            if (p == start) return eg_fail(err, EG_E_DEFINITION, "edges.%s.path: '%s' has an empty key", from, text);
            e->path[e->path_len] = eg_strndup(start, (size_t)(p - start));
            if (!e->path[e->path_len]) return eg_nomem(err);
            e->path_len++;
            if (!*p) break;
            start = p + 1;
        }
    }
    return EG_OK;
}

eg_code eg_edge_parse(const eg_graph *g, const char *from, const cJSON *v, eg_edge *e, eg_error *err) {
    e->target = e->empty_target = EG_TARGET_NONE;
    if (cJSON_IsString(v)) {
        e->kind = EG_EDGE_STATIC;
        return eg_edge_target(g, from, v->valuestring, &e->target, err);
    }
    if (cJSON_IsArray(v)) {
        e->kind = EG_EDGE_FANOUT;
        return parse_targets(g, from, v, e, err);
    }
    if (!cJSON_IsObject(v))
        return eg_fail(err, EG_E_DEFINITION, "edges.%s must be a node name, a list of names or an object", from);
    const cJSON *path = NULL, *cases = NULL, *dflt = NULL, *router = NULL, *targets = NULL;
    const cJSON *map = NULL, *to = NULL, *empty = NULL;
    for (const cJSON *f = v->child; f; f = f->next) {
        if (strcmp(f->string, "map") == 0) map = f;
        else if (strcmp(f->string, "to") == 0) to = f;
        else if (strcmp(f->string, "empty") == 0) empty = f;
        else if (strcmp(f->string, "path") == 0) path = f;
        else if (strcmp(f->string, "cases") == 0) cases = f;
        else if (strcmp(f->string, "default") == 0) dflt = f;
        else if (strcmp(f->string, "router") == 0) router = f;
        else if (strcmp(f->string, "targets") == 0) targets = f;
        else return eg_fail(err, EG_E_DEFINITION, "edges.%s: unknown field '%s' (expected path, cases, default, router, targets, map, to, empty)", from, f->string);
    }
    eg_code rc;
    if (map || to || empty) {
        if (!cJSON_IsString(map) || !cJSON_IsString(to) || path || cases || dflt || router || targets)
            return eg_fail(err, EG_E_DEFINITION, "edges.%s: a map edge is { map: 'state.path', to: 'node', empty?: 'node' }", from);
        e->kind = EG_EDGE_MAP;
        if ((rc = split_path(from, map->valuestring, e, err))) return rc;
        if ((rc = eg_edge_target(g, from, to->valuestring, &e->target, err))) return rc;
        if (e->target < 0) return eg_fail(err, EG_E_DEFINITION, "edges.%s: a map edge must go to a node, not END", from);
        if (empty && !cJSON_IsString(empty)) return eg_fail(err, EG_E_DEFINITION, "edges.%s.empty must be a node name", from);
        if (empty && (rc = eg_edge_target(g, from, empty->valuestring, &e->empty_target, err))) return rc;
        return EG_OK;
    }
    if (dflt) {
        if (!cJSON_IsString(dflt)) return eg_fail(err, EG_E_DEFINITION, "edges.%s.default must be a node name", from);
        if ((rc = eg_edge_target(g, from, dflt->valuestring, &e->target, err))) return rc;
    }
    if (router) {
        if (!cJSON_IsString(router) || !*router->valuestring)
            return eg_fail(err, EG_E_DEFINITION, "edges.%s.router must be a non-empty string", from);
        if (path || cases || dflt) return eg_fail(err, EG_E_DEFINITION, "edges.%s: a router edge takes only 'targets' besides 'router'", from);
        e->kind = EG_EDGE_ROUTER;
        if (!(e->router = eg_strdup(router->valuestring))) return eg_nomem(err);
        if (targets) {
            if (!cJSON_IsArray(targets)) return eg_fail(err, EG_E_DEFINITION, "edges.%s.targets must be a list of node names", from);
            e->targets_declared = true;
            return parse_targets(g, from, targets, e, err);
        }
        return EG_OK;
    }
    if (targets) return eg_fail(err, EG_E_DEFINITION, "edges.%s: 'targets' belongs to router edges", from);
    if (!path) {
        if (cases) return eg_fail(err, EG_E_DEFINITION, "edges.%s: 'cases' needs a 'path'", from);
        if (!dflt) return eg_fail(err, EG_E_DEFINITION, "edges.%s: an edge object needs 'default', 'path' or 'router'", from);
        e->kind = EG_EDGE_STATIC; /* the seed's { default: 'end' } */
        return EG_OK;
    }
    if (!cJSON_IsString(path)) return eg_fail(err, EG_E_DEFINITION, "edges.%s.path must be a dotted path string", from);
    e->kind = EG_EDGE_COND;
    if ((rc = split_path(from, path->valuestring, e, err))) return rc;
    if (cases) {
        if (!cJSON_IsObject(cases)) return eg_fail(err, EG_E_DEFINITION, "edges.%s.cases must map values to node names", from);
        int n = cJSON_GetArraySize(cases);
        e->cases = eg_malloc(sizeof(eg_case) * (size_t)(n ? n : 1));
        if (!e->cases) return eg_nomem(err);
        for (const cJSON *c = cases->child; c; c = c->next) {
            if (!cJSON_IsString(c)) return eg_fail(err, EG_E_DEFINITION, "edges.%s.cases.%s must be a node name", from, c->string);
            eg_case *k = &e->cases[e->n_cases];
            if ((rc = eg_edge_target(g, from, c->valuestring, &k->target, err))) return rc;
            if (!(k->value = eg_strdup(c->string))) return eg_nomem(err);
            e->n_cases++;
        }
    }
    return EG_OK;
}
