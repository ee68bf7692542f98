/* eg_internal.h: structures and functions shared by the core's source files.
 * Not installed. Each function is named eg_<module>_<what> and says which
 * file defines it; the step machine's own private header is
 * eg_run_internal.h (its names end in an underscore). */
#ifndef EG_INTERNAL_H
#define EG_INTERNAL_H

#include "edgegraph.h"
#include "eg_keys.h"
#include "cJSON.h"

#include <stdarg.h>
#include <string.h>
#include <stdbool.h>

/* Internal invariants: trap in debug builds, vanish in the product. The wasm
 * build must not pull abort()/printf for these. */
#ifdef EG_DEBUG
#define EG_ASSERT(c) do { if (!(c)) __builtin_trap(); } while (0)
#else
#define EG_ASSERT(c) ((void)0)
#endif

/* (eg_error.c) The status a name stands for (eg_status_name reversed), or -1. */
int eg_status_parse(const char *name);

/* ---- memory (eg_alloc.c) ---- */
void *eg_malloc(size_t n);
void *eg_realloc(void *p, size_t n);
void eg_free(void *p);
/* (eg_slab.c) The .wasm's malloc, free and realloc: size classes over emmalloc
 * (natively over the C library's, for the tests). */
void *eg_slab_malloc(size_t n);
void *eg_slab_realloc(void *p, size_t n);
void eg_slab_free(void *p);
char *eg_strndup(const char *s, size_t n);
char *eg_strdup(const char *s);
/* Whether part occurs in text (strstr, without libc's large one). */
bool eg_contains(const char *text, const char *part);
/* Make sure cJSON allocates through eg_malloc/eg_free. Idempotent. */
void eg_init_json(void);
/* Whether an allocation failed since the last clear: how a NULL from cJSON
 * (which says NULL for everything) is told apart as "out of memory". */
void eg_alloc_clear_failed(void);
bool eg_alloc_failed(void);

/* ---- parsing (eg_json.c) ---- */
/* Parse exactly (ptr, len) as JSON; duplicate keys keep the last, as JSON.parse does. */
cJSON *eg_parse(const char *json, size_t len);
/* The same, telling through *nomem whether a NULL came from memory running out. */
cJSON *eg_parse_ex(const char *json, size_t len, bool *nomem);
/* For graph definitions: duplicate node names must be seen, to be reported. */
cJSON *eg_parse_keep_duplicates(const char *json, size_t len, bool *nomem);
/* eg_parse_ex of a text that may hold raw segments; *json_len: a bound over its length as JSON (eg_json_read.h). */
cJSON *eg_parse_raw(const char *text, size_t len, bool *nomem, size_t *json_len);
/* Parse any JSON value: EG_OK; OUT_OF_MEMORY; or `code` with "<what> is not
 * valid JSON". *out is NULL unless EG_OK. */
eg_code eg_parse_value(const char *json, size_t len, eg_code code, const char *what, cJSON **out, eg_error *err);
/* The same, and the value must be an object ("<what> must be a JSON object"). */
eg_code eg_parse_object(const char *json, size_t len, eg_code code, const char *what, cJSON **out, eg_error *err);

/* ---- errors (eg_error.c) ---- */
/* Fill err (which may be NULL) with code and a message formatted with %s,
 * %S, %d and %zu only; every %s argument (a name) is cut to a readable length
 * first, a %S (text to read whole, such as what a node threw) only by the
 * buffer's end (EG_MESSAGE_MAX).
 * Returns code. */
eg_code eg_fail(eg_error *err, eg_code code, const char *fmt, ...);
eg_code eg_vfail(eg_error *err, eg_code code, const char *fmt, va_list ap);
/* The one out-of-memory error. Returns EG_E_NOMEM. */
eg_code eg_nomem(eg_error *err);
/* The start of every public call that can fail: a clean error. */
static inline void eg_clear(eg_error *err) {
    if (err) { err->code = EG_OK; err->message[0] = '\0'; }
}
/* A NULL object handed to a public call: `what` is "run", "graph", ... */
eg_code eg_disposed(eg_error *err, const char *what);

/* ---- JSON helpers (eg_json.c) ---- */
/* Drop duplicate object keys, keeping the last (as JavaScript's JSON.parse
 * does), so the core and a JS mirror never read different values. False
 * when memory runs out. */
bool eg_json_dedupe(cJSON *item);
/* Key-order-independent 64-bit hash of a JSON value. */
uint64_t eg_json_hash(const cJSON *item);
/* eg_json_hash in parts, for a writer that hashes what it prints without building a tree:
 * an object's hash from the sum of its members', an array's from its items' in order;
 * a member's from its key's hash (worked out once for a key used often) and its value's. */
uint64_t eg_json_hash_key(const char *key);
uint64_t eg_json_hash_member_of(uint64_t key_hash, uint64_t value);
/* What eg_json_hash gives a string, a number, true or false, without a cJSON to hold it. */
uint64_t eg_json_hash_string(const char *s);
uint64_t eg_json_hash_number(double d);
uint64_t eg_json_hash_bool(bool yes);
uint64_t eg_json_hash_object(uint64_t members);
uint64_t eg_json_hash_array_start(void);
uint64_t eg_json_hash_array_add(uint64_t h, uint64_t item);
void eg_hex64(uint64_t v, char out[17]);
/* Object member lookup that is case-sensitive and NULL-safe. */
cJSON *eg_get(const cJSON *obj, const char *key);
/* Detach-and-replace or add `value` under `key`; takes ownership of value. */
bool eg_set(cJSON *obj, const char *key, cJSON *value);
/* A number item: cJSON_CreateNumber without the clamped valueint nothing reads (NULL: out of memory). */
cJSON *eg_number(double d);
/* cJSON_Compare(a, b, true)'s answer, without the case-insensitive lookup it keeps in the .wasm. */
bool eg_json_equal(const cJSON *a, const cJSON *b);
/* Add a non-owning reference to item (an array or object) under key. */
bool eg_set_ref(cJSON *obj, const char *key, const cJSON *item);

/* ---- text output (eg_buf.c) ---- */
/* A growable, always NUL-terminated buffer. Appends return false (and leave
 * the buffer as it was before the append started) when memory runs out. */
typedef struct eg_buf {
    char *data;
    size_t len;
    size_t cap;
} eg_buf;
bool eg_buf_reserve(eg_buf *b, size_t extra);
bool eg_buf_put(eg_buf *b, const char *s, size_t n);
/* For string literals only (it uses sizeof); eg_buf_cstr for the rest. */
#define eg_buf_lit(b, s) eg_buf_put((b), "" s, sizeof(s) - 1)
#define eg_buf_cstr(b, s) eg_buf_put((b), (s), strlen(s))
bool eg_buf_int(eg_buf *b, long long v);
bool eg_buf_string(eg_buf *b, const char *s);   /* as a quoted JSON string */
bool eg_buf_json(eg_buf *b, const cJSON *item); /* as compact JSON */
void eg_buf_free(eg_buf *b);
/* The one way text leaves the core: `ok` is whether the buffer was written
 * whole. Lends out b's text and length, or fails with EG_E_NOMEM. */
eg_code eg_buf_hand_out(const eg_buf *b, bool ok, const char **json, size_t *len, eg_error *err);
/* Print `value` into b (replacing what it held) and lend it out. */
eg_code eg_buf_print(eg_buf *b, const cJSON *value, const char **json, size_t *len, eg_error *err);

/* ---- numbers as text (eg_number.c) ---- */
/* The decimal number at the start of s (as strtod reads it); *end after it, or s if none. */
double eg_number_parse(const char *s, char **end);
/* d as printf's "%.<digits>g" writes it, NUL-terminated if it fits in cap; its length. */
size_t eg_number_format(char *buf, size_t cap, double d, int digits);
/* A finite d as JavaScript's String(d) writes it (the shortest digits that read
 * back exactly; 0.00001, 1e-7, 1000000000000000, 1e+21) into buf, which holds
 * EG_NUMBER_JS_CAP bytes. */
#define EG_NUMBER_JS_CAP 32
void eg_number_js(char buf[EG_NUMBER_JS_CAP], double d);
/* snprintf for %s (with a precision: %.60s, %.*s), %d, %zu and %% only
 * (eg_number_format does floating point): no libc printf in the .wasm. */
int eg_snprintf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- token estimates (eg_tokens.c) ---- */
int eg_estimate_text(const char *s);
int eg_estimate_message(const cJSON *message);

/* ---- graphs (eg_graph.c) ---- */
typedef enum eg_node_kind {
    EG_NODE_FUNCTION, EG_NODE_AGENT, EG_NODE_TOOL, EG_NODE_HUMAN,
    EG_NODE_SUBGRAPH, EG_NODE_END
} eg_node_kind;

typedef enum eg_edge_kind {
    EG_EDGE_NONE, EG_EDGE_STATIC, EG_EDGE_COND, EG_EDGE_ROUTER, EG_EDGE_FANOUT,
    EG_EDGE_MAP              /* one task of `target` per item of the list at `path` */
} eg_edge_kind;

/* A target is a node index, or EG_TARGET_END. */
#define EG_TARGET_END (-1)
#define EG_TARGET_NONE (-2)

typedef struct eg_case {
    char *value;
    int target;
} eg_case;

typedef struct eg_edge {
    eg_edge_kind kind;
    int target;              /* STATIC; COND default (or NONE); MAP: the node to run per item */
    int empty_target;        /* MAP: where to go when the list is empty (or NONE) */
    char **path;             /* COND, MAP: the state path, split at dots */
    size_t path_len;
    char *path_text;         /* COND: the path as written, for messages */
    eg_case *cases;          /* COND */
    size_t n_cases;
    char *router;            /* ROUTER: the host's router name */
    int *targets;            /* FANOUT; ROUTER: declared possible targets */
    size_t n_targets;
    bool targets_declared;   /* ROUTER: false when any target is possible */
} eg_edge;

typedef struct eg_node {
    char *name;
    char *handler;
    eg_node_kind kind;
    bool jump_target;        /* reached by nextNodeOverride: counts as reachable */
    int on_error;            /* error edge: where a failure goes instead of ending the run */
    eg_edge edge;
    int *gotos;              /* where a Command's goto may go: reachable (nodes.<name>.goto) */
    size_t n_gotos;
    int *join;               /* a join: runs once all these sources reached it (eg_join.c) */
    size_t n_join;
    bool defer;              /* runs only when nothing else is left to run (eg_join.c) */
    bool no_join;            /* join: false: never an implicit join */
} eg_node;

/* ---- reducers (eg_reduce.c) ---- */
typedef enum eg_reducer_kind {
    EG_R_LAST, EG_R_FIRST, EG_R_CONCAT, EG_R_APPEND_UNIQUE, EG_R_MERGE,
    EG_R_DEEP_MERGE, EG_R_SUM, EG_R_MAX, EG_R_MIN, EG_R_LONGEST,
    EG_R_MESSAGES, EG_R_READONLY, EG_R_AVG
} eg_reducer_kind;

typedef struct eg_reducer {
    char *path;              /* dotted */
    eg_reducer_kind kind;
} eg_reducer;

typedef struct eg_reducers {
    eg_reducer *items;
    size_t n;
} eg_reducers;

struct eg_graph {
    eg_node *nodes;
    size_t n_nodes;
    char *end_name;
    int entry;
    int max_steps;
    eg_reducers reducers;
    cJSON *defaults;         /* state defaults filled in at run start */
    bool partitioned;        /* the engine records currentNodeId, visitedNodes, iteration */
    int version;             /* the definition's "version" (0 without one): checkpoints record it */
    cJSON *renamed;          /* "renamedNodes": {"old name": "new name"}, or NULL */
    char hash[17];           /* "" until eg_graph_hash first works it out */
    /* The definition as read (an arena's tree), kept for the hash until its first
     * use: only checkpoints ask for it, and hashing cost a 1,000-node graph a fifth of its build. */
    struct eg_arena *read;
    const cJSON *definition;
    int *index;              /* node index + 1 by name hash, open addressing (eg_edge.c); 0: empty */
    size_t index_mask;       /* the index's size - 1: a power of two, at least twice the nodes */
};

int eg_graph_find(const eg_graph *g, const char *name, size_t len);
/* (eg_edge.c) The name index eg_graph_find reads: room for `n` nodes, then
 * each node added in turn. A lookup costs one hash, not a scan of the nodes:
 * a 1,000-node definition's ~3,000 lookups were its construction's main cost. */
bool eg_graph_index_new(eg_graph *g, size_t n);
/* Adds node `node` by its name; if a node of that name is there already, adds
 * nothing and returns that node's index (else -1): the add is the duplicate check. */
int eg_graph_index_add(eg_graph *g, int node);
/* A node by a name a checkpoint may carry: its own, or a former one listed in
 * renamedNodes. -1 when the graph has neither. */
int eg_graph_find_former(const eg_graph *g, const char *name);
/* Map a node index to a target: END-kind nodes are END. */
int eg_graph_target(const eg_graph *g, int node);
/* maxSteps, in a definition or in run options: an integer from 1 to 1e9. */
bool eg_is_max_steps(const cJSON *v);
/* The target a name stands for: a node's, EG_TARGET_END for END's name, EG_TARGET_NONE for no node. */
int eg_graph_target_by_name(const eg_graph *g, const char *name);
/* (eg_edge.c) Parse the edge leaving node `from` (`v`: its definition) into *e;
 * on an error *e may hold parts: eg_edge_free frees them. */
eg_code eg_edge_parse(const eg_graph *g, const char *from, const cJSON *v, eg_edge *e, eg_error *err);
void eg_edge_free(eg_edge *e);
/* (eg_edge.c) The target `name` stands for in an edge (or onError) leaving
 * `from`: UNKNOWN_NODE naming both, with a hint for END spelt another way. */
eg_code eg_edge_target(const eg_graph *g, const char *from, const char *name, int *out, eg_error *err);

/* Nodes with plain edges from two or more sources are joins of those sources
 * unless declared otherwise (eg_join.c). False: out of memory. */
bool eg_graph_infer_joins(eg_graph *g);
/* nodes.<name>.join / .goto: a list of node names (eg_join.c); `min` entries at least. */
eg_code eg_parse_node_list(const eg_graph *g, eg_node *node, const char *field, const cJSON *list, int min, int **out, size_t *n, eg_error *err);

/* A place where a value lives and the path that leads to it, for emitting
 * patch operations. */
typedef struct eg_path {
    const char *seg[32];
    size_t n;
} eg_path;

/* (eg_patch.c) Where state changes are recorded, as JSON text: the elements of
 * an array of ["set"|"push"|"del", [path], value] without the brackets. A
 * NULL patch records nothing. */
/* Where op i of a patch's text has its parts (offsets into the text): what
 * eg_patch_flat copies out without printing the values again. */
typedef struct eg_patch_mark {
    size_t path, path_end;   /* the path's elements, comma-separated, without brackets */
    size_t value, end;       /* the value's text (value == end: none) */
    size_t depth;            /* the path's elements */
    char op;                 /* 's', 'p' or 'd' */
} eg_patch_mark;

typedef struct eg_patch {
    eg_buf text;
    size_t count;
    eg_patch_mark *marks;      /* one per op (count of them valid) */
    size_t marks_cap;
    uint64_t sum;   /* when `summed`: eg_sum_state of the state the patch describes */
    bool summed;
} eg_patch;

/* (eg_sum.c) The state's checksum as a sum over its paths, kept up to date by
 * every write that records a patch op (a NULL or unsummed patch: nothing). */
uint64_t eg_sum_state(const cJSON *state);
/* The same sum as format 2 checkpoints made it (FNV-1a over string values). */
uint64_t eg_sum_state_format2(const cJSON *state);
uint64_t eg_sum_checksum(uint64_t meta_hash, uint64_t state_sum);
/* path+key (or +index) changes from `old` to `now` (either may be NULL); call before `old` is freed. */
void eg_sum_replace(eg_patch *patch, const eg_path *path, const char *key, int index, const cJSON *old, const cJSON *now);
/* `first` and the elements after it were appended to `array`, at path+key. */
void eg_sum_appended(eg_patch *patch, const eg_path *path, const char *key, const cJSON *array, const cJSON *first);

/* avg keeps its running count beside the mean, at "<key>" EG_AVG_COUNT_SUFFIX
 * (the reducer and the state manager's branch merge both read it). */
#define EG_AVG_COUNT_SUFFIX "__count"
#define EG_AVG_COUNT_SUFFIX_LEN (sizeof EG_AVG_COUNT_SUFFIX - 1)

/* Write `item` (owned and consumed, even on error; its key is item->string)
 * into `obj`, which lives at `path`, using the reducers registered for the
 * item's path. Changes are recorded in `patch`. Errors name the dotted path
 * and `who` (the node that wrote it). */
int eg_reduce_into(const eg_reducers *rs, cJSON *obj, eg_path *path, cJSON *item,
                   eg_patch *patch, const char *who, eg_error *err);
int eg_reducer_parse(const char *name, eg_reducer_kind *out);
/* (eg_reduce.c, for eg_reduce_messages.c) Items to append: an array's elements,
 * or the one value; an array holding them (the array itself, or a new one
 * wrapping it; NULL: out of memory). And the error of a write of the wrong type. */
cJSON *eg_reducer_items_(cJSON *item);
int eg_reducer_type_error_(const eg_path *path, const char *key, eg_reducer_kind k, const char *who,
                           const char *want, const cJSON *got, eg_error *err);
/* (eg_reduce_messages.c) `item` (taken: a message or a list of them) into the
 * message list `existing`, which lives at path + item's key. */
int eg_reduce_messages_(cJSON *existing, eg_path *path, cJSON *item, eg_patch *patch, const char *who, eg_error *err);
/* Parse {"dotted.path": "reducerName", ...} (NULL: none); `where` names it in errors. */
eg_code eg_reducers_parse(const cJSON *obj, const char *where, eg_reducers *out, eg_error *err);
void eg_reducers_free(eg_reducers *rs);
/* The reducer registered exactly at path+key, or -1. */
int eg_reducer_at(const eg_reducers *rs, const eg_path *p, const char *key);
/* True when some reducer is registered below path+key. */
bool eg_reducer_below(const eg_reducers *rs, const eg_path *p, const char *key);
/* Dotted text of path + key ("scratch.notes"), cut to fit `cap`, for messages. */
const char *eg_path_text(const eg_path *p, const char *key, char *buf, size_t cap);

/* Parallel writes without a reducer (eg_conflicts.c): record each branch's
 * write; a different value at a path another branch wrote is PARALLEL_CONFLICT
 * naming both writers and the path. Values are borrowed. */
typedef struct eg_lww_writes { struct eg_lww_write *items; size_t n, cap; } eg_lww_writes;
eg_code eg_lww_record(eg_lww_writes *w, const eg_path *p, const char *key, const cJSON *value, const char *who, eg_error *err);
void eg_lww_free(eg_lww_writes *w);
/* Parallel writes: two results of one step that write different values to
 * one path that has no combining reducer are a PARALLEL_CONFLICT naming the
 * path and both writers. */
int eg_check_conflicts(const eg_reducers *rs, cJSON *const *results, const char *const *who,
                       size_t n, eg_error *err);
/* Append [op, [path..., key?, index?], value?] to the patch; op is "set", "push" or "del". `key` may be
 * NULL, `index` negative for none, `value` NULL for none (it is copied). */
bool eg_patch_op(eg_patch *patch, const char *op, const eg_path *path,
                 const char *key, int index, const cJSON *value);
/* A "push" of one item at `path`, its value [item]: the item printed where it is, not copied into a list. */
bool eg_patch_push_one(eg_patch *patch, const eg_path *path, const cJSON *item);
/* obj[key] = value (taken, also on failure), recorded as a "set" op at
 * `path`: both or neither. Not through any reducer. False: out of memory. */
bool eg_patch_put(eg_patch *patch, cJSON *obj, const eg_path *path, const char *key, cJSON *value);
/* obj[key] = a copy of `value` (a number or string, not taken), recorded as a
 * "set" op: a member of the same type keeps its item and takes the value (no
 * allocation for a number); both or neither. False: out of memory. */
bool eg_patch_put_scalar(eg_patch *patch, cJSON *obj, const eg_path *path, const char *key, const cJSON *value);
/* The patch's ops flat, for eg_run_next_flat: "s"|"p"|"d", the path's length,
 * its elements, then the value (none for "d"); comma-separated, each op's
 * parts copied from its text. False: out of memory. */
bool eg_patch_flat(const eg_patch *patch, eg_buf *b);
void eg_patch_free(eg_patch *patch);

/* (eg_visits.c) The partitioned shape's visit bookkeeping, one rule for a
 * run's step and the state manager: visitedNodes += names (created when
 * absent; the caller checks that a present one is a list), iteration += n,
 * currentNodeId = the last name. Changes are recorded in `patch` (NULL:
 * none). False: out of memory. */
bool eg_record_visits(cJSON *state, const char *const *names, size_t n, eg_patch *patch);

#endif /* EG_INTERNAL_H */
