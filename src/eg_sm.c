/* eg_sm.c: the state manager of seed 002, over the reducers of
 * eg_reduce.c. States come in and go out as JSON, so arguments are never
 * mutated: every call works on its own parsed copy. */
#include "eg_internal.h"

#include <stdio.h>
#include <string.h>

struct eg_sm {
    eg_reducers reducers;
    eg_buf out;
};


static const char *const partitions[] = { "scratch", "artifacts", "memory", "diagnostics" };

eg_code eg_sm_new(const char *reducers, size_t len, eg_sm **out, eg_error *err) {
    eg_clear(err);
    cJSON *obj = NULL;
    eg_code rc = reducers && len ? eg_parse_value(reducers, len, EG_E_JSON, "the reducers", &obj, err) : EG_OK;
    if (rc) return rc;
    eg_sm *sm = eg_malloc(sizeof *sm);
    if (!sm) { cJSON_Delete(obj); return eg_nomem(err); }
    memset(sm, 0, sizeof *sm);
    rc = eg_reducers_parse(obj, "reducers", &sm->reducers, err);
    cJSON_Delete(obj);
    if (rc) { eg_sm_free(sm); return rc; }
    *out = sm;
    return EG_OK;
}

void eg_sm_free(eg_sm *sm) {
    if (!sm) return;
    eg_reducers_free(&sm->reducers);
    eg_buf_free(&sm->out);
    eg_free(sm);
}

/* Every call's end: print the new state (or report what failed) and free it. */
static eg_code hand_out(eg_sm *sm, eg_code rc, cJSON *state, const char **json, size_t *out_len, eg_error *err) {
    if (!rc) rc = eg_buf_print(&sm->out, state, json, out_len, err);
    cJSON_Delete(state);
    return rc;
}

static eg_code parse_state(const char *json, size_t len, const char *what, cJSON **out, eg_error *err) {
    return eg_parse_object(json, len, EG_E_INVALID_INPUT, what, out, err);
}

/* The object at state[name], created empty when missing. */
static eg_code partition(cJSON *state, const char *name, cJSON **out, eg_error *err) {
    cJSON *p = cJSON_GetObjectItemCaseSensitive(state, name);
    if (p && !cJSON_IsObject(p)) return eg_fail(err, EG_E_INVALID_INPUT, "state.%s must be an object", name);
    if (!p && !eg_set(state, name, cJSON_CreateObject())) return eg_nomem(err);
    *out = cJSON_GetObjectItemCaseSensitive(state, name);
    return EG_OK;
}

eg_code eg_sm_initialize(eg_sm *sm, const char *input, size_t len, const char **json, size_t *out_len, eg_error *err) {
    eg_clear(err);
    if (!sm) return eg_disposed(err, "state manager");
    cJSON *in;
    eg_code rc = eg_parse_value(input, len, EG_E_INVALID_INPUT, "the input", &in, err);
    if (rc) return rc;
    cJSON *s = cJSON_CreateObject();
    bool ok = s && eg_set(s, "input", in);
    if (!s) cJSON_Delete(in);
    for (size_t i = 0; ok && i < sizeof partitions / sizeof *partitions; i++) ok = eg_set(s, partitions[i], cJSON_CreateObject());
    ok = ok && eg_set(s, EG_KEY_CURRENT_NODE_ID, cJSON_CreateNull()) && eg_set(s, EG_KEY_VISITED_NODES, cJSON_CreateArray())
            && eg_set(s, EG_KEY_ITERATION, eg_number(0));
    return hand_out(sm, ok ? EG_OK : eg_nomem(err), s, json, out_len, err);
}

static eg_code check_partition(const char *name, eg_error *err) {
    if (name && strcmp(name, "input") == 0) return eg_fail(err, EG_E_READONLY, "state.input is read-only");
    for (size_t i = 0; name && i < sizeof partitions / sizeof *partitions; i++)
        if (strcmp(name, partitions[i]) == 0) return EG_OK;
    return eg_fail(err, EG_E_INVALID_INPUT, "'%s' is not a partition (scratch, artifacts, memory, diagnostics)", name ? name : "");
}

eg_code eg_sm_update(eg_sm *sm, const char *state, size_t len, const char *name,
                     const char *patch, size_t patch_len, const char **json, size_t *out_len, eg_error *err) {
    eg_clear(err);
    if (!sm) return eg_disposed(err, "state manager");
    cJSON *s = NULL, *p = NULL, *target = NULL;
    eg_code rc = check_partition(name, err);
    if (!rc) rc = parse_state(state, len, "the state", &s, err);
    if (!rc) rc = parse_state(patch, patch_len, "the patch", &p, err);
    if (!rc) rc = partition(s, name, &target, err);
    eg_path path = { { name }, 1 };
    char who[32];
    eg_snprintf(who, sizeof who, "update %s", name ? name : "");
    while (!rc && p->child) rc = eg_reduce_into(&sm->reducers, target, &path, cJSON_DetachItemViaPointer(p, p->child), NULL, who, err);
    cJSON_Delete(p);
    return hand_out(sm, rc, s, json, out_len, err);
}

eg_code eg_sm_visit(eg_sm *sm, const char *state, size_t len, const char *node,
                    size_t node_len, const char **json, size_t *out_len, eg_error *err) {
    eg_clear(err);
    if (!sm) return eg_disposed(err, "state manager");
    cJSON *s;
    eg_code rc = parse_state(state, len, "the state", &s, err);
    if (rc) return rc;
    cJSON *visited = cJSON_GetObjectItemCaseSensitive(s, EG_KEY_VISITED_NODES);
    if (visited && !cJSON_IsArray(visited))
        return hand_out(sm, eg_fail(err, EG_E_INVALID_INPUT, "state.visitedNodes must be a list"), s, json, out_len, err);
    char *id = eg_strndup(node, node_len);
    const char *names[] = { id };
    bool ok = id && eg_record_visits(s, names, 1, NULL);
    eg_free(id);
    return hand_out(sm, ok ? EG_OK : eg_nomem(err), s, json, out_len, err);
}

/* ---- merging parallel branches ---- */


typedef struct merge_ctx {
    const eg_reducers *rs;
    eg_lww_writes writes;   /* last-write-wins paths, for conflicts between branches */
    eg_error *err;
} merge_ctx;

static bool is_prefix(const cJSON *base, const cJSON *branch) {
    const cJSON *b = base->child, *v = branch->child;
    for (; b; b = b->next, v = v->next) if (!v || !eg_json_equal(b, v)) return false;
    return true;
}

/* What a branch wrote at one key, as the value to feed the reducer. */
static cJSON *delta(int kind, const cJSON *b, const cJSON *v) {
    if ((kind == EG_R_CONCAT || kind == EG_R_APPEND_UNIQUE || kind == EG_R_MESSAGES)
        && cJSON_IsArray(b) && cJSON_IsArray(v) && is_prefix(b, v)) {
        cJSON *items = cJSON_CreateArray();
        const cJSON *c = v->child;
        for (const cJSON *x = b->child; x; x = x->next) c = c->next;
        for (; items && c; c = c->next) {
            cJSON *copy = cJSON_Duplicate(c, true);
            if (!copy) { cJSON_Delete(items); return NULL; }
            cJSON_AddItemToArray(items, copy);
        }
        return items;
    }
    if (kind == EG_R_SUM && cJSON_IsNumber(b) && cJSON_IsNumber(v)) return eg_number(v->valuedouble - b->valuedouble);
    if ((kind == EG_R_MERGE || kind == EG_R_DEEP_MERGE) && cJSON_IsObject(b) && cJSON_IsObject(v)) {
        /* Only the members that changed: an untouched member must not undo
         * another branch's write to it. */
        cJSON *changed = cJSON_CreateObject();
        for (const cJSON *c = v->child; changed && c; c = c->next) {
            const cJSON *old = cJSON_GetObjectItemCaseSensitive(b, c->string);
            if (old && eg_json_equal(old, c)) continue;
            if (!eg_set(changed, c->string, cJSON_Duplicate(c, true))) { cJSON_Delete(changed); return NULL; }
        }
        return changed;
    }
    return cJSON_Duplicate(v, true);
}

static const cJSON *count_of(const cJSON *obj, const char *key, char *buf, size_t cap) {
    eg_snprintf(buf, cap, "%s" EG_AVG_COUNT_SUFFIX, key);
    return cJSON_GetObjectItemCaseSensitive(obj, buf);
}

/* avg across branches: combine sums and counts, so the mean stays exact. */
static int merge_avg(merge_ctx *m, cJSON *target, const cJSON *base, const cJSON *branch, const char *key) {
    char ck[300];
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(base, key), *v = cJSON_GetObjectItemCaseSensitive(branch, key);
    if (!cJSON_IsNumber(v)) return eg_fail(m->err, EG_E_REDUCER, "'%s': reducer 'avg' needs a number", key);
    const cJSON *bc = count_of(base, key, ck, sizeof ck), *vc = count_of(branch, key, ck, sizeof ck);
    double cb = cJSON_IsNumber(b) ? (cJSON_IsNumber(bc) ? bc->valuedouble : 1) : 0;
    double mb = cJSON_IsNumber(b) ? b->valuedouble : 0;
    double cv = cJSON_IsNumber(vc) ? vc->valuedouble : cb + 1;
    double dc = cv - cb, ds = v->valuedouble * cv - mb * cb;
    if (dc <= 0) return EG_OK;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(target, key), *tc = count_of(target, key, ck, sizeof ck);
    double ct = cJSON_IsNumber(t) ? (cJSON_IsNumber(tc) ? tc->valuedouble : 1) : 0;
    double mt = cJSON_IsNumber(t) ? t->valuedouble : 0;
    if (!eg_set(target, key, eg_number((mt * ct + ds) / (ct + dc)))) return eg_nomem(m->err);
    count_of(target, key, ck, sizeof ck);
    if (!eg_set(target, ck, eg_number(ct + dc))) return eg_nomem(m->err);
    return EG_OK;
}

static bool is_avg_count(const eg_reducers *rs, const eg_path *p, const char *key) {
    size_t n = strlen(key);
    const size_t k = EG_AVG_COUNT_SUFFIX_LEN;
    if (n <= k || strcmp(key + n - k, EG_AVG_COUNT_SUFFIX) != 0 || n - k >= 256) return false;
    char base[256];
    memcpy(base, key, n - k);
    base[n - k] = '\0';
    return eg_reducer_at(rs, p, base) == EG_R_AVG;
}

static int merge_into(merge_ctx *m, cJSON *target, eg_path *path, const cJSON *base, const cJSON *branch, const char *who) {
    for (const cJSON *v = branch->child; v; v = v->next) {
        const char *key = v->string;
        const cJSON *b = base ? cJSON_GetObjectItemCaseSensitive(base, key) : NULL;
        if (b && eg_json_equal(b, v)) continue; /* untouched by this branch */
        int kind = eg_reducer_at(m->rs, path, key);
        if (kind == EG_R_AVG) { int rc = merge_avg(m, target, base, branch, key); if (rc) return rc; continue; }
        if (is_avg_count(m->rs, path, key)) continue;
        if (kind < 0 && cJSON_IsObject(v) && (!b || cJSON_IsObject(b)) && eg_reducer_below(m->rs, path, key)
            && path->n + 2 < sizeof path->seg / sizeof *path->seg) {
            cJSON *child = cJSON_GetObjectItemCaseSensitive(target, key);
            if (!child) {
                if (!eg_set(target, key, cJSON_CreateObject())) return eg_nomem(m->err);
                child = cJSON_GetObjectItemCaseSensitive(target, key);
            }
            if (!cJSON_IsObject(child)) return eg_fail(m->err, EG_E_REDUCER, "'%s' wrote an object where the state has another type", who);
            path->seg[path->n++] = key;
            eg_code rc = merge_into(m, child, path, b, v, who);
            path->n--;
            if (rc) return rc;
            continue;
        }
        if (kind < 0) { int rc = eg_lww_record(&m->writes, path, key, v, who, m->err); if (rc) return rc; }
        cJSON *incoming = delta(kind, b, v);
        char *name = incoming ? eg_strdup(key) : NULL;
        if (!name) { cJSON_Delete(incoming); return eg_nomem(m->err); }
        if (incoming->string && !(incoming->type & cJSON_StringIsConst)) cJSON_free(incoming->string);
        incoming->type &= ~cJSON_StringIsConst;
        incoming->string = name;
        eg_code rc = eg_reduce_into(m->rs, target, path, incoming, NULL, who, m->err);
        if (rc) return rc;
    }
    return EG_OK;
}

eg_code eg_sm_merge(eg_sm *sm, const char *base, size_t len, const char *branches,
                    size_t branches_len, const char **json, size_t *out_len, eg_error *err) {
    eg_clear(err);
    if (!sm) return eg_disposed(err, "state manager");
    cJSON *b, *list = NULL, *result = NULL;
    eg_code rc = parse_state(base, len, "the base state", &b, err);
    if (rc) return rc;
    rc = eg_parse_value(branches, branches_len, EG_E_INVALID_INPUT, "the branch states", &list, err);
    if (!rc && !cJSON_IsArray(list)) rc = eg_fail(err, EG_E_INVALID_INPUT, "the branch states must be a list");
    if (!rc && !(result = cJSON_Duplicate(b, true))) rc = eg_nomem(err);
    merge_ctx m = { &sm->reducers, { NULL, 0, 0 }, err };
    int count = list && cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
    char (*names)[32] = eg_malloc(sizeof *names * (size_t)(count ? count : 1));
    if (!names && !rc) rc = eg_nomem(err);
    int index = 0;
    for (const cJSON *br = list ? list->child : NULL; br && !rc; br = br->next, index++) {
        /* Name a branch by the node it ran, for conflict messages. */
        const cJSON *node = cJSON_GetObjectItemCaseSensitive(br, EG_KEY_CURRENT_NODE_ID);
        const char *who = cJSON_IsString(node) ? node->valuestring : NULL;
        if (!who) { eg_snprintf(names[index], sizeof names[0], "branch %d", index); who = names[index]; }
        if (!cJSON_IsObject(br)) { rc = eg_fail(err, EG_E_INVALID_INPUT, "branch %d is not a state object", index); break; }
        if (!eg_json_equal(cJSON_GetObjectItemCaseSensitive(br, "input"), cJSON_GetObjectItemCaseSensitive(b, "input"))) {
            rc = eg_fail(err, EG_E_READONLY, "'%s' changed state.input, which is read-only", who);
            break;
        }
        for (size_t p = 0; p < 2 && !rc; p++) {  /* scratch and artifacts */
            const cJSON *bp = cJSON_GetObjectItemCaseSensitive(b, partitions[p]);
            const cJSON *vp = cJSON_GetObjectItemCaseSensitive(br, partitions[p]);
            if (!vp) continue;
            if (!cJSON_IsObject(vp)) { rc = eg_fail(err, EG_E_INVALID_INPUT, "%s: state.%s must be an object", who, partitions[p]); break; }
            cJSON *target;
            if ((rc = partition(result, partitions[p], &target, err))) break;
            eg_path path = { { partitions[p] }, 1 };
            rc = merge_into(&m, target, &path, cJSON_IsObject(bp) ? bp : NULL, vp, who);
        }
    }
    eg_lww_free(&m.writes);
    eg_free(names);
    cJSON_Delete(list);
    cJSON_Delete(b);
    return hand_out(sm, rc, result, json, out_len, err);
}
