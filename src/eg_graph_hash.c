/* eg_graph_hash.c: a graph's identity, which its checkpoints carry: the hash
 * of its definition without the run's settings, worked out on first use from
 * the definition tree eg_graph_new kept (then freed), so a graph that never
 * writes a checkpoint never pays for it. */
#include "eg_internal.h"
#include "eg_json_read.h"

#include <string.h>

/* The graph's identity, which checkpoints carry: the definition without its
 * run options. maxSteps, a node's retry and timeoutMs, and descriptions are
 * settings, not the shape: tuning them must not strand the checkpoints of
 * paused threads. The definition's hash as if the first member of each of
 * those names were deleted (an object's hash is a sum over its members: a
 * member left out is one deleted), without touching the tree, which lives
 * in an arena. */
static const char *const top_settings[] = { "maxSteps", "version", "renamedNodes" };   /* (version, renamedNodes: redeploy aids, not the shape) */
static const char *const node_settings[] = { "retry", "timeoutMs", "description" };

/* Whether `key` is the first member named one of names[0..3) that `seen` (a bit per name) has not met yet. */
static bool first_setting(const char *key, const char *const names[3], unsigned *seen) {
    for (unsigned i = 0; i < 3; i++)
        if (!(*seen & (1u << i)) && key[0] == names[i][0] && strcmp(key, names[i]) == 0) { *seen |= 1u << i; return true; }   /* (the first letter: no call for most keys) */
    return false;
}

/* Whether objects a and b have the same members, in order, each true, false or null: then
 * they hash the same (most of a graph's nodes look alike: a key compared costs less than hashed). */
static bool same_flags(const cJSON *a, const cJSON *b) {
    const cJSON *x = a->child, *y = b->child;
    for (; x && y; x = x->next, y = y->next)
        if (x->type != y->type || !(x->type & (cJSON_False | cJSON_True | cJSON_NULL)) || strcmp(x->string, y->string) != 0) return false;
    return !x && !y;
}

/* eg_json_hash of `obj` without its first member of each name in `names`; the first
 * "nodes" member (the top level's) has each of its objects hashed without node_settings. */
static uint64_t hash_without(const cJSON *obj, const char *const names[3], bool top) {
    uint64_t sum = 0;
    unsigned seen = 0;
    bool nodes_done = false;
    for (const cJSON *c = obj->child; c; c = c->next) {
        const char *key = c->string ? c->string : "";
        if (first_setting(key, names, &seen)) continue;
        uint64_t value;
        if (top && !nodes_done && strcmp(key, "nodes") == 0 && cJSON_IsObject(c)) {
            nodes_done = true;
            uint64_t nodes = 0, last = 0;
            const cJSON *like = NULL;   /* the last node object hashed, whose hash is `last` */
            for (const cJSON *n = c->child; n; n = n->next) {
                if (cJSON_IsObject(n) && !(like && same_flags(like, n))) { like = n; last = hash_without(n, node_settings, false); }
                nodes += eg_json_hash_member_of(eg_json_hash_key(n->string ? n->string : ""), cJSON_IsObject(n) ? last : eg_json_hash(n));
            }
            value = eg_json_hash_object(nodes);
        } else {
            nodes_done |= top && strcmp(key, "nodes") == 0;
            value = eg_json_hash(c);
        }
        sum += eg_json_hash_member_of(eg_json_hash_key(key), value);
    }
    return eg_json_hash_object(sum);
}

/* The hash on first use (a checkpoint's, or the host's ask), then the definition goes: the hash
 * is all it was kept for. It allocates nothing, so it cannot fail. (The graph is the
 * caller's, not a constant: `const` says a run never changes what the graph means.) */
const char *eg_graph_hash(const eg_graph *g) {
    if (!g) return "";
    if (!g->hash[0]) {
        eg_graph *own = (eg_graph *)g;
        eg_hex64(hash_without(own->definition, top_settings, true), own->hash);
        eg_arena_free(own->read);
        eg_free(own->read);
        own->read = NULL;
        own->definition = NULL;
    }
    return g->hash;
}
