/* eg_graph.c: parse a graph definition from JSON and validate it.
 *
 * {
 *   "nodes": { "name": { "kind": "function", "handler": "name" }, ... },
 *   "edges": { "a": "b",                                   static
 *              "b": ["c", "d"],                            fan-out
 *              "c": { "path": "data.route", "cases": {"x": "e"}, "default": "f" },
 *              "d": { "default": "e" },                    static, seed form
 *              "e": { "router": "pick", "targets": ["a", "f"] },     host router
 *              "f": { "map": "data.items", "to": "worker", "empty": "g" } },  one task per item
 *   nodes may also carry "onError": "node", "retry": {...}, "timeoutMs": N
 *   "entryPoint": "a", "end": "__end__", "maxSteps": 100,
 *   "state": "frame" | { "reducers": { "dotted.path": "concat" }, "defaults": {...} }
 * }
 */
#include "eg_internal.h"
#include "eg_json_read.h"

#include <math.h>
#include <string.h>

#define DEFAULT_END "__end__"
#define DEFAULT_MAX_STEPS 100

static const char *const kind_names[] = {
    [EG_NODE_FUNCTION] = "function", [EG_NODE_AGENT] = "agent", [EG_NODE_TOOL] = "tool",
    [EG_NODE_HUMAN] = "human", [EG_NODE_SUBGRAPH] = "subgraph", [EG_NODE_END] = "end",
};

/* The frame-style state of the seed GraphEngine: messages append, data and
 * metadata merge shallowly, logs concatenate; other keys: last write wins. */
static const char frame_state[] =
    "{\"reducers\":{\"messages\":\"concat\",\"data\":\"merge\",\"metadata\":\"merge\",\"logs\":\"concat\",\"subgraphs\":\"merge\",\"toolCalls\":\"concat\"},"
    "\"defaults\":{\"messages\":[],\"data\":{},\"metadata\":{},\"logs\":[]}}";

void eg_graph_free(eg_graph *g) {
    if (!g) return;
    for (size_t i = 0; i < g->n_nodes; i++) {
        if (g->nodes[i].handler != g->nodes[i].name) eg_free(g->nodes[i].handler);
        eg_free(g->nodes[i].name);
        eg_free(g->nodes[i].join);
        eg_free(g->nodes[i].gotos);
        eg_edge_free(&g->nodes[i].edge);
    }
    eg_free(g->nodes);
    eg_free(g->index);
    eg_reducers_free(&g->reducers);
    cJSON_Delete(g->defaults);
    cJSON_Delete(g->renamed);
    eg_free(g->end_name);
    if (g->read) eg_arena_free(g->read);
    eg_free(g->read);
    eg_free(g);
}

int eg_graph_find_former(const eg_graph *g, const char *name) {
    int i = eg_graph_find(g, name, strlen(name));
    const cJSON *now = i < 0 ? eg_get(g->renamed, name) : NULL;
    return now ? eg_graph_find(g, now->valuestring, strlen(now->valuestring)) : i;
}

static bool is_number_in(const cJSON *v, double lo, double hi) {
    return cJSON_IsNumber(v) && v->valuedouble >= lo && v->valuedouble <= hi;
}

/* An integer from lo to hi (within int's range, so a caller may cast it). floor, not a round trip
 * through int: one instruction in the .wasm, where a conversion is a guarded sequence. */
static bool is_int_in(const cJSON *v, double lo, double hi) {
    return is_number_in(v, lo, hi) && v->valuedouble == floor(v->valuedouble);
}

/* maxSteps, in a definition or in run options: an integer from 1 to 1e9. */
bool eg_is_max_steps(const cJSON *v) { return is_int_in(v, 1, 1e9); }

/* A node's fields, found in one pass over its object (the first of a
 * repeated key, as a lookup would find). */
typedef struct node_fields {
    const cJSON *kind, *handler, *on_error, *retry, *timeout, *jump, *join, *defer, *gotos;
} node_fields;

/* The slot of a known field, or NULL. options and description are the JS
 * driver's and a model's: known, nothing to read here. */
static const cJSON **field_slot(node_fields *f, const char *key, const cJSON **ignored) {
    /* (jumpTarget and join first: edgegraph/langgraph's nodes have those two.) */
    if (strcmp(key, "jumpTarget") == 0) return &f->jump;
    if (strcmp(key, "join") == 0) return &f->join;
    if (strcmp(key, "kind") == 0) return &f->kind;
    if (strcmp(key, "handler") == 0) return &f->handler;
    if (strcmp(key, "onError") == 0) return &f->on_error;
    if (strcmp(key, "retry") == 0) return &f->retry;
    if (strcmp(key, "timeoutMs") == 0) return &f->timeout;
    if (strcmp(key, "defer") == 0) return &f->defer;
    if (strcmp(key, "goto") == 0) return &f->gotos;
    return strcmp(key, "options") == 0 || strcmp(key, "description") == 0 ? ignored : NULL;
}

/* Node options the JS driver acts on (retry, timeoutMs) are checked here so
 * a typo is an error at construction, in every host. */
static eg_code read_node_fields(const char *name, const cJSON *v, node_fields *nf, eg_error *err) {
    memset(nf, 0, sizeof *nf);
    const cJSON *ignored = NULL;
    for (const cJSON *f = v->child; f; f = f->next) {
        const cJSON **slot = field_slot(nf, f->string, &ignored);
        if (!slot) return eg_fail(err, EG_E_DEFINITION, "nodes.%s: unknown field '%s' (expected kind, handler, onError, retry, timeoutMs, options, description, jumpTarget, join, defer, goto)", name, f->string);
        if (!*slot) *slot = f;
    }
    const cJSON *jump = nf->jump, *defer = nf->defer, *join = nf->join;
    if (join && !cJSON_IsArray(join) && !cJSON_IsFalse(join)) return eg_fail(err, EG_E_DEFINITION, "nodes.%s.join must be a list of source nodes, or false", name);
    if (jump && !cJSON_IsBool(jump)) return eg_fail(err, EG_E_DEFINITION, "nodes.%s.jumpTarget must be true or false", name);
    if (defer && !cJSON_IsBool(defer)) return eg_fail(err, EG_E_DEFINITION, "nodes.%s.defer must be true or false", name);
    const cJSON *timeout = nf->timeout, *retry = nf->retry, *on_error = nf->on_error;
    if (timeout && !is_number_in(timeout, 1, 2147483647.0)) return eg_fail(err, EG_E_DEFINITION, "nodes.%s.timeoutMs must be a positive number of milliseconds", name);
    if (on_error && !cJSON_IsString(on_error)) return eg_fail(err, EG_E_DEFINITION, "nodes.%s.onError must be a node name", name);
    if (retry) {
        if (!cJSON_IsObject(retry)) return eg_fail(err, EG_E_DEFINITION, "nodes.%s.retry must be { attempts, backoffMs?, factor?, maxBackoffMs? }", name);
        for (const cJSON *f = retry->child; f; f = f->next) {
            bool ok = strcmp(f->string, "attempts") == 0 ? is_int_in(f, 1, 100)
                    : strcmp(f->string, "backoffMs") == 0 || strcmp(f->string, "maxBackoffMs") == 0 ? is_number_in(f, 0, 3600000)
                    : strcmp(f->string, "factor") == 0 ? is_number_in(f, 1, 100)
                    : strcmp(f->string, "jitter") == 0 ? cJSON_IsBool(f) : false;
            if (!ok) return eg_fail(err, EG_E_DEFINITION, "nodes.%s.retry.%s is not valid (attempts 1-100, backoffMs, maxBackoffMs 0-3600000, factor 1-100, jitter boolean)", name, f->string);
        }
        if (!eg_get(retry, "attempts")) return eg_fail(err, EG_E_DEFINITION, "nodes.%s.retry needs 'attempts'", name);
    }
    return EG_OK;
}

/* The nodes, each with its fields in `fields` (one per node, in order). */
static eg_code parse_nodes(eg_graph *g, const cJSON *nodes, node_fields **fields, eg_error *err) {
    if (!cJSON_IsObject(nodes)) return eg_fail(err, EG_E_DEFINITION, "'nodes' must be an object of node name -> node");
    int n = cJSON_GetArraySize(nodes);
    if (n == 0) return eg_fail(err, EG_E_DEFINITION, "'nodes' is empty: a graph needs at least one node");
    g->nodes = eg_malloc(sizeof(eg_node) * (size_t)n);
    if (!g->nodes || !(*fields = eg_malloc(sizeof(node_fields) * (size_t)n))) return eg_nomem(err);
    memset(g->nodes, 0, sizeof(eg_node) * (size_t)n);
    if (!eg_graph_index_new(g, (size_t)n)) return eg_nomem(err);
    for (const cJSON *v = nodes->child; v; v = v->next) {
        const char *name = v->string;
        if (!*name) return eg_fail(err, EG_E_DEFINITION, "a node has an empty name");
        node_fields *f = &(*fields)[g->n_nodes];
        eg_node *node = &g->nodes[g->n_nodes];
        if (!(node->name = eg_strdup(name))) return eg_nomem(err);
        if (eg_graph_index_add(g, (int)g->n_nodes) >= 0) {
            eg_free(node->name);
            node->name = NULL;
            return eg_fail(err, EG_E_DUPLICATE_NODE, "node '%s' is defined twice", name);
        }
        g->n_nodes++;
        if (!cJSON_IsObject(v)) return eg_fail(err, EG_E_DEFINITION, "nodes.%s must be an object", name);
        eg_code rc = read_node_fields(name, v, f, err);
        if (rc) return rc;
        const cJSON *kind = f->kind, *handler = f->handler;
        node->kind = EG_NODE_FUNCTION;
        node->jump_target = cJSON_IsTrue(f->jump);
        node->defer = cJSON_IsTrue(f->defer);
        node->on_error = EG_TARGET_NONE;
        node->edge.target = node->edge.empty_target = EG_TARGET_NONE;
        if (kind) {
            size_t k = 0, nk = sizeof kind_names / sizeof *kind_names;
            while (k < nk && !(cJSON_IsString(kind) && strcmp(kind->valuestring, kind_names[k]) == 0)) k++;
            if (k == nk) return eg_fail(err, EG_E_DEFINITION, "nodes.%s.kind must be one of function, agent, tool, human, subgraph, end", name);
            node->kind = (eg_node_kind)k;
        }
        if (handler && !cJSON_IsString(handler)) return eg_fail(err, EG_E_DEFINITION, "nodes.%s.handler must be a string", name);
        /* A node without a handler is its own: the name's text, not a copy (eg_graph_free frees one). */
        if (!(node->handler = handler ? eg_strdup(handler->valuestring) : node->name)) return eg_nomem(err);
        if (strcmp(name, g->end_name) == 0 && node->kind != EG_NODE_END)
            return eg_fail(err, EG_E_DEFINITION, "node '%s' has END's name but is not an end node", name);
    }
    return EG_OK;
}

/* The partitioned GraphState of seed 002: input is read-only; the engine
 * records currentNodeId, visitedNodes and iteration as nodes run. */
static const char partitioned_state[] =
    "{\"reducers\":{\"input\":\"readonly\"},\"defaults\":{\"input\":{},\"scratch\":{},\"artifacts\":{},"
    "\"memory\":{},\"diagnostics\":{},\"currentNodeId\":null,\"visitedNodes\":[],\"iteration\":0}}";

/* state: "frame" (default) | "partitioned" | { shape?: "frame" | "partitioned"
 * | "custom" (the default for objects), reducers?, defaults? }; an object's
 * reducers and defaults are added to (and override) its shape's. */
static eg_code parse_state(eg_graph *g, const cJSON *def, eg_error *err) {
    const cJSON *state = eg_get(def, "state");
    const char *shape = !state ? "frame" : cJSON_IsString(state) ? state->valuestring : "custom";
    if (cJSON_IsObject(state)) {
        for (const cJSON *f = state->child; f; f = f->next)
            if (strcmp(f->string, "shape") && strcmp(f->string, "reducers") && strcmp(f->string, "defaults"))
                return eg_fail(err, EG_E_DEFINITION, "state: unknown field '%s' (expected shape, reducers, defaults)", f->string);
        const cJSON *s = eg_get(state, "shape");
        if (s && !cJSON_IsString(s)) return eg_fail(err, EG_E_DEFINITION, "state.shape must be \"frame\", \"partitioned\" or \"custom\"");
        if (s) shape = s->valuestring;
    } else if (state && !cJSON_IsString(state)) {
        return eg_fail(err, EG_E_DEFINITION, "'state' must be \"frame\", \"partitioned\" or {shape, reducers, defaults}");
    }
    const char *preset = strcmp(shape, "frame") == 0 ? frame_state : strcmp(shape, "partitioned") == 0 ? partitioned_state
                       : strcmp(shape, "custom") == 0 && cJSON_IsObject(state) ? "{\"reducers\":{},\"defaults\":{}}" : NULL;
    if (!preset) return eg_fail(err, EG_E_DEFINITION, "state shape '%s' is not frame, partitioned or custom", shape);
    g->partitioned = strcmp(shape, "partitioned") == 0;
    cJSON *combined = eg_parse(preset, strlen(preset));
    if (!combined) return eg_nomem(err);
    eg_code rc = EG_OK;
    const char *parts[] = { "reducers", "defaults" };
    for (size_t i = 0; i < 2 && cJSON_IsObject(state); i++) {
        const cJSON *mine = eg_get(state, parts[i]);
        if (!mine) continue;
        if (!cJSON_IsObject(mine)) { rc = eg_fail(err, EG_E_DEFINITION, "state.%s must be an object", parts[i]); goto out; }
        cJSON *into = cJSON_GetObjectItemCaseSensitive(combined, parts[i]);
        for (const cJSON *m = mine->child; m; m = m->next)
            if (!eg_set(into, m->string, cJSON_Duplicate(m, true))) { rc = eg_nomem(err); goto out; }
    }
    if ((rc = eg_reducers_parse(eg_get(combined, "reducers"), "state.reducers", &g->reducers, err))) goto out;
    if (!(g->defaults = cJSON_DetachItemFromObjectCaseSensitive(combined, "defaults"))) rc = eg_nomem(err);
out:
    cJSON_Delete(combined);
    return rc;
}

static bool edge_reaches_unknown(const eg_edge *e) {
    return e->kind == EG_EDGE_ROUTER && !e->targets_declared;
}

/* Every check of the issue list that needs the whole graph. */
static eg_code check_graph(const eg_graph *g, eg_error *err) {
    for (size_t i = 0; i < g->n_nodes; i++) {
        const eg_node *n = &g->nodes[i];
        if (n->kind == EG_NODE_END) continue;
        if (n->edge.kind == EG_EDGE_NONE)
            return eg_fail(err, EG_E_MISSING_EDGE, "node '%s' has no outgoing edge (add one, e.g. to '%s')", n->name, g->end_name);
        bool self = (n->edge.kind == EG_EDGE_STATIC && n->edge.target == (int)i);
        for (size_t t = 0; n->edge.kind == EG_EDGE_FANOUT && t < n->edge.n_targets; t++) self |= n->edge.targets[t] == (int)i;
        if (self) return eg_fail(err, EG_E_SELF_LOOP, "node '%s' has an unconditional edge to itself (an endless loop)", n->name);
    }
    /* Reachability from the entry point over every edge a run could take. */
    bool *seen = eg_malloc(g->n_nodes);
    int *stack = eg_malloc(sizeof(int) * g->n_nodes);
    if (!seen || !stack) { eg_free(seen); eg_free(stack); return eg_nomem(err); }
    memset(seen, 0, g->n_nodes);
    size_t top = 0;
    bool open_router = false;
    seen[g->entry] = true;
    stack[top++] = g->entry;
#define VISIT(t) do { int t_ = (t); if (t_ >= 0 && !seen[t_]) { seen[t_] = true; stack[top++] = t_; } } while (0)
    /* A declared jump target is reached by a node's nextNodeOverride (seed 000's way). */
    for (size_t i = 0; i < g->n_nodes; i++) if (g->nodes[i].jump_target) VISIT((int)i);
    while (top) {
        const eg_node *n = &g->nodes[stack[--top]];
        const eg_edge *e = &n->edge;
        open_router |= edge_reaches_unknown(e);
        VISIT(n->on_error);
        VISIT(e->empty_target);
        VISIT(e->target);
        for (size_t k = 0; k < e->n_targets; k++) VISIT(e->targets[k]);
        for (size_t k = 0; k < e->n_cases; k++) VISIT(e->cases[k].target);
        for (size_t k = 0; k < n->n_gotos; k++) VISIT(n->gotos[k]);
    }
#undef VISIT
    eg_code rc = EG_OK;
    /* A router without declared targets may go anywhere: no node is provably
     * unreachable then. End nodes are exempt: a graph may define one unused. */
    for (size_t i = 0; !open_router && i < g->n_nodes; i++) {
        if (!seen[i] && g->nodes[i].kind != EG_NODE_END) {
            rc = eg_fail(err, EG_E_UNREACHABLE, "node '%s' cannot be reached from the entry point '%s'; if a node jumps to it with nextNodeOverride, declare it with jumpTarget: true", g->nodes[i].name, g->nodes[g->entry].name);
            break;
        }
    }
    eg_free(seen);
    eg_free(stack);
    return rc;
}

/* What lets a checkpoint written under an earlier definition restore into
 * this one: the definition's version (the host migrates the state from the
 * checkpoint's) and the nodes renamed since (old name -> new name). */
static eg_code parse_redeploy(eg_graph *g, const cJSON *def, eg_error *err) {
    const cJSON *version = eg_get(def, "version"), *renamed = eg_get(def, "renamedNodes");
    if (version) {
        if (!is_int_in(version, 0, 1e9))
            return eg_fail(err, EG_E_DEFINITION, "'version' must be an integer from 0 to 1000000000");
        g->version = (int)version->valuedouble;
    }
    if (!renamed) return EG_OK;
    if (!cJSON_IsObject(renamed)) return eg_fail(err, EG_E_DEFINITION, "'renamedNodes' must be an object of old node name -> new node name");
    for (const cJSON *r = renamed->child; r; r = r->next) {
        if (!cJSON_IsString(r) || eg_graph_find(g, r->valuestring, strlen(r->valuestring)) < 0)
            return eg_fail(err, EG_E_UNKNOWN_NODE, "renamedNodes: '%s' is renamed to '%s', which is not a node", r->string, cJSON_IsString(r) ? r->valuestring : "?");
        if (eg_graph_find(g, r->string, strlen(r->string)) >= 0 || strcmp(r->string, g->end_name) == 0)
            return eg_fail(err, EG_E_DEFINITION, "renamedNodes: '%s' is still a node name; only a former name can be renamed", r->string);
    }
    return (g->renamed = cJSON_Duplicate(renamed, true)) ? EG_OK : eg_nomem(err);
}

static eg_code build(eg_graph *g, const cJSON *def, eg_error *err) {
    eg_code rc;
    if (!cJSON_IsObject(def)) return eg_fail(err, EG_E_DEFINITION, "a graph definition must be a JSON object");
    for (const cJSON *f = def->child; f; f = f->next) {
        static const char *const known[] = { "nodes", "edges", "entryPoint", "end", "maxSteps", "state", "name", "version", "renamedNodes" };
        size_t k = 0;
        while (k < sizeof known / sizeof *known && strcmp(f->string, known[k]) != 0) k++;
        if (k == sizeof known / sizeof *known)
            return eg_fail(err, EG_E_DEFINITION, "unknown field '%s' in the graph definition; the known fields are "
                           "nodes, edges, entryPoint, end, maxSteps, state, name, version, renamedNodes", f->string);
    }
    const cJSON *end = eg_get(def, "end");
    if (end && (!cJSON_IsString(end) || !*end->valuestring)) return eg_fail(err, EG_E_DEFINITION, "'end' must be a non-empty node name");
    if (!(g->end_name = eg_strdup(end ? end->valuestring : DEFAULT_END))) return eg_nomem(err);
    const cJSON *max = eg_get(def, "maxSteps");
    g->max_steps = DEFAULT_MAX_STEPS;
    if (max) {
        if (!eg_is_max_steps(max)) return eg_fail(err, EG_E_DEFINITION, "'maxSteps' must be an integer from 1 to 1000000000");
        g->max_steps = (int)max->valuedouble;
    }
    node_fields *fields = NULL;
    rc = parse_nodes(g, eg_get(def, "nodes"), &fields, err);
    for (size_t i = 0; !rc && i < g->n_nodes; i++) {
        const cJSON *on_error = fields[i].on_error, *join = fields[i].join, *gotos = fields[i].gotos;
        eg_node *node = &g->nodes[i];
        if (on_error && (rc = eg_edge_target(g, node->name, on_error->valuestring, &node->on_error, err))) break;
        node->no_join = cJSON_IsFalse(join);
        if (join && !node->no_join && (rc = eg_parse_node_list(g, node, "join", join, 2, &node->join, &node->n_join, err))) break;
        if (gotos && (rc = eg_parse_node_list(g, node, "goto", gotos, 1, &node->gotos, &node->n_gotos, err))) break;
    }
    eg_free(fields);
    if (rc) return rc;
    const cJSON *entry = eg_get(def, "entryPoint");
    if (!cJSON_IsString(entry)) return eg_fail(err, EG_E_MISSING_ENTRY, "the graph has no 'entryPoint' (a node name)");
    g->entry = eg_graph_find(g, entry->valuestring, strlen(entry->valuestring));
    if (g->entry < 0) return eg_fail(err, EG_E_MISSING_ENTRY, "entryPoint '%s' is not a node", entry->valuestring);
    if (g->nodes[g->entry].kind == EG_NODE_END) return eg_fail(err, EG_E_MISSING_ENTRY, "entryPoint '%s' is an end node", entry->valuestring);
    const cJSON *edges = eg_get(def, "edges");
    if (edges && !cJSON_IsObject(edges)) return eg_fail(err, EG_E_DEFINITION, "'edges' must be an object of source node -> edge");
    for (const cJSON *e = edges ? edges->child : NULL; e; e = e->next) {
        if (strcmp(e->string, g->end_name) == 0) return eg_fail(err, EG_E_END_HAS_EDGES, "END ('%s') cannot have outgoing edges", e->string);
        int i = eg_graph_find(g, e->string, strlen(e->string));
        if (i < 0) return eg_fail(err, EG_E_UNKNOWN_NODE, "edges name a source '%s' that is not a node", e->string);
        if (g->nodes[i].kind == EG_NODE_END) return eg_fail(err, EG_E_END_HAS_EDGES, "end node '%s' cannot have outgoing edges", e->string);
        if (g->nodes[i].edge.kind != EG_EDGE_NONE) return eg_fail(err, EG_E_DEFINITION, "node '%s' has two edge entries", e->string);
        if ((rc = eg_edge_parse(g, e->string, e, &g->nodes[i].edge, err))) return rc;
    }
    if ((rc = parse_state(g, def, err))) return rc;
    if ((rc = check_graph(g, err))) return rc;
    if (!eg_graph_infer_joins(g)) return eg_nomem(err);
    return parse_redeploy(g, def, err);
}

eg_code eg_graph_new(const char *json, size_t len, eg_graph **out, eg_error *err) {
    eg_clear(err);
    bool nomem;
    /* The definition is read and checked into an arena's tree, kept for the hash (eg_graph_hash). */
    eg_graph *g = eg_malloc(sizeof *g);
    eg_arena *arena = eg_malloc(sizeof *arena);
    if (!g || !arena) { eg_free(g); eg_free(arena); return eg_nomem(err); }
    memset(g, 0, sizeof *g);
    memset(arena, 0, sizeof *arena);
    g->read = arena;
    /* The tree kept is ~3.5x its text (40-byte items): its first block that size, not the reader's
     * 16 KB that then doubles (a small graph kept 16 KB, a 1,000-node one 240 KB in five blocks). */
    arena->grow = len < 256 ? 1024 : len <= (16u << 20) ? 4 * len : 0;
    cJSON *def = eg_parse_in_arena(json, len, &nomem, arena);
    if (!def) { eg_graph_free(g); return nomem ? eg_nomem(err) : eg_fail(err, EG_E_JSON, "the graph definition is not valid JSON"); }
    g->definition = def;
    eg_code rc = build(g, def, err);
    if (rc) { eg_graph_free(g); return rc; }
    *out = g;
    return EG_OK;
}
