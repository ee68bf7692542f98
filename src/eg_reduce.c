/* eg_reduce.c: reducers keyed by dotted state path, and the patch that tells
 * a host mirror what changed. A reducer combines the value already in the
 * state with the one a node wrote; a path without a reducer is last-write-wins. */
#include "eg_internal.h"

#include <stdio.h>
#include <string.h>

static const struct { const char *name; eg_reducer_kind kind; } reducer_names[] = {
    { "last", EG_R_LAST }, { "first", EG_R_FIRST }, { "concat", EG_R_CONCAT },
    { "appendUnique", EG_R_APPEND_UNIQUE }, { "merge", EG_R_MERGE }, { "deepMerge", EG_R_DEEP_MERGE },
    { "sum", EG_R_SUM }, { "max", EG_R_MAX }, { "min", EG_R_MIN }, { "longest", EG_R_LONGEST },
    { "messages", EG_R_MESSAGES }, { "readonly", EG_R_READONLY }, { "avg", EG_R_AVG },
};

int eg_reducer_parse(const char *name, eg_reducer_kind *out) {
    for (size_t i = 0; i < sizeof reducer_names / sizeof *reducer_names; i++)
        if (strcmp(name, reducer_names[i].name) == 0) { *out = reducer_names[i].kind; return EG_OK; }
    return EG_E_DEFINITION;
}

eg_code eg_reducers_parse(const cJSON *obj, const char *where, eg_reducers *out, eg_error *err) {
    memset(out, 0, sizeof *out);
    if (obj && !cJSON_IsObject(obj)) return eg_fail(err, EG_E_DEFINITION, "%s must map dotted paths to reducer names", where);
    int n = obj ? cJSON_GetArraySize(obj) : 0;
    out->items = eg_malloc(sizeof(eg_reducer) * (size_t)(n ? n : 1));
    if (!out->items) return eg_nomem(err);
    for (const cJSON *r = obj ? obj->child : NULL; r; r = r->next) {
        eg_reducer *item = &out->items[out->n];
        if (!cJSON_IsString(r) || eg_reducer_parse(r->valuestring, &item->kind) != EG_OK)
            return eg_fail(err, EG_E_DEFINITION, "%s.%s: unknown reducer (expected last, first, concat, appendUnique, merge, deepMerge, sum, max, min, avg, longest, messages, readonly)", where, r->string);
        if (!*r->string || r->string[0] == '.' || r->string[strlen(r->string) - 1] == '.' || eg_contains(r->string, ".."))
            return eg_fail(err, EG_E_DEFINITION, "%s: '%s' is not a dotted path", where, r->string);
        if (!(item->path = eg_strdup(r->string))) return eg_nomem(err);
        out->n++;
    }
    return EG_OK;
}

void eg_reducers_free(eg_reducers *rs) {
    for (size_t i = 0; i < rs->n; i++) eg_free(rs->items[i].path);
    eg_free(rs->items);
    memset(rs, 0, sizeof *rs);
}

static const char *reducer_name(eg_reducer_kind k) {
    for (size_t i = 0; i < sizeof reducer_names / sizeof *reducer_names; i++)
        if (reducer_names[i].kind == k) return reducer_names[i].name;
    return "?";
}

static const char *type_name(const cJSON *v) {
    if (!v) return "nothing";
    switch (v->type & 0xFF) {
    case cJSON_NULL: return "null";
    case cJSON_True: case cJSON_False: return "a boolean";
    case cJSON_Number: return "a number";
    case cJSON_String: return "a string";
    case cJSON_Array: return "an array";
    case cJSON_Object: return "an object";
    default: return "an unknown value";
    }
}

/* Dotted text of path + key, cut to fit, for error messages. */
const char *eg_path_text(const eg_path *p, const char *key, char *buf, size_t cap) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i <= p->n && used + 1 < cap; i++) {
        const char *s = i < p->n ? p->seg[i] : key;
        if (!s) break;
        int w = eg_snprintf(buf + used, cap - used, "%s%s", used ? "." : "", s);
        if (w < 0) break;
        used += (size_t)w;
    }
    return buf;
}

/* 0: the reducer's path is unrelated; 1: it is exactly path+key;
 * 2: it lies below path+key (a reducer nested inside this value). */
static int match(const char *rpath, const eg_path *p, const char *key) {
    const char *r = rpath;
    for (size_t i = 0; i <= p->n; i++) {
        const char *s = i < p->n ? p->seg[i] : key;
        size_t n = strlen(s);
        if (strncmp(r, s, n) != 0) return 0;
        r += n;
        if (i < p->n) { if (*r != '.') return 0; r++; }
    }
    if (*r == '\0') return 1;
    return *r == '.' ? 2 : 0;
}

int eg_reducer_at(const eg_reducers *rs, const eg_path *p, const char *key) {
    int kind = -1;
    for (size_t i = 0; i < rs->n; i++) if (match(rs->items[i].path, p, key) == 1) kind = (int)rs->items[i].kind;
    return kind;
}

bool eg_reducer_below(const eg_reducers *rs, const eg_path *p, const char *key) {
    for (size_t i = 0; i < rs->n; i++) if (match(rs->items[i].path, p, key) == 2) return true;
    return false;
}

/* Put `item` (whose name is its key) into obj in place of `old`, obj's member
 * of that name (NULL: none), and keep the state's sum. Uses the item's own
 * name string: no allocation. The callers that looked `old` up pass it: a
 * lookup is a scan of obj's members, and an object a run merges into grows. */
static eg_code replace_value(cJSON *obj, eg_path *path, cJSON *item, cJSON *old, eg_patch *patch, eg_error *err) {
    if (!eg_patch_op(patch, "set", path, item->string, -1, item)) { cJSON_Delete(item); return eg_nomem(err); }
    eg_sum_replace(patch, path, item->string, -1, old, item);
    if (old) cJSON_ReplaceItemViaPointer(obj, old, item);
    else cJSON_AddItemToArray(obj, item);
    return EG_OK;
}

/* replace_value of whatever member of obj has the item's name. */
static eg_code set_value(cJSON *obj, eg_path *path, cJSON *item, eg_patch *patch, eg_error *err) {
    return replace_value(obj, path, item, eg_get(obj, item->string), patch, err);
}

int eg_reducer_type_error_(const eg_path *path, const char *key, eg_reducer_kind k, const char *who,
                           const char *want, const cJSON *got, eg_error *err) {
    char buf[128];
    return eg_fail(err, EG_E_REDUCER, "node '%s' wrote '%s': reducer '%s' needs %s, got %s", who,
                   eg_path_text(path, key, buf, sizeof buf), reducer_name(k), want, type_name(got));
}

cJSON *eg_reducer_items_(cJSON *item) {
    if (cJSON_IsArray(item)) return item;
    cJSON *wrap = cJSON_CreateArray();
    if (!wrap) return NULL;
    cJSON_AddItemToArray(wrap, item);
    return wrap;
}

static bool contains(const cJSON *array, const cJSON *v) {
    for (const cJSON *c = array->child; c; c = c->next) if (eg_json_equal(c, v)) return true;
    return false;
}

/* concat / appendUnique / messages when the target does not exist yet (`old`: NULL or a null). */
static eg_code set_items(cJSON *obj, eg_path *path, cJSON *item, cJSON *old, eg_patch *patch, eg_error *err) {
    char *key = item->string;
    item->string = NULL;
    cJSON *items = eg_reducer_items_(item);
    if (!items) { cJSON_free(key); cJSON_Delete(item); return eg_nomem(err); }
    items->string = key;
    items->type &= ~cJSON_StringIsConst;
    return replace_value(obj, path, items, old, patch, err);
}

static eg_code append(cJSON *existing, eg_path *path, cJSON *item, bool unique, eg_patch *patch, eg_error *err) {
    char *key = item->string;        /* the array's name; freed at the end */
    item->string = NULL;
    cJSON *fresh = cJSON_CreateArray();
    if (!fresh) { cJSON_free(key); cJSON_Delete(item); return eg_nomem(err); }
    /* Collect the new elements in `fresh` first: nothing touches the state
     * until the patch entry exists, so a failed allocation changes nothing. */
    if (cJSON_IsArray(item)) {
        while (item->child) {
            cJSON *c = cJSON_DetachItemViaPointer(item, item->child);
            if (unique && (contains(existing, c) || contains(fresh, c))) { cJSON_Delete(c); continue; }
            cJSON_AddItemToArray(fresh, c);
        }
        cJSON_Delete(item);
    } else if (unique && contains(existing, item)) {
        cJSON_Delete(item);
    } else {
        cJSON_AddItemToArray(fresh, item);
    }
    eg_code rc = EG_OK;
    const cJSON *first = fresh->child;
    if (fresh->child && !eg_patch_op(patch, "push", path, key, -1, fresh)) rc = eg_nomem(err);
    else while (fresh->child) cJSON_AddItemToArray(existing, cJSON_DetachItemViaPointer(fresh, fresh->child));
    if (!rc) eg_sum_appended(patch, path, key, existing, first);
    cJSON_Delete(fresh);
    cJSON_free(key);
    return rc;
}

static int reduce(const eg_reducers *rs, cJSON *obj, eg_path *path, cJSON *item, cJSON *existing,
                  eg_patch *patch, const char *who, eg_error *err);

static int merge_object(const eg_reducers *rs, cJSON *existing, eg_path *path, cJSON *item, bool deep,
                        eg_patch *patch, const char *who, eg_error *err) {
    if (path->n + 2 >= sizeof path->seg / sizeof *path->seg) {
        cJSON_Delete(item);
        return eg_fail(err, EG_E_LIMIT, "node '%s' wrote a value nested deeper than 32 levels under a reducer", who);
    }
    eg_code rc = EG_OK;
    path->seg[path->n++] = item->string;
    while (item->child) {
        cJSON *c = cJSON_DetachItemViaPointer(item, item->child);
        if (rc) { cJSON_Delete(c); continue; }
        cJSON *old = eg_get(existing, c->string);
        if (deep && cJSON_IsObject(old) && cJSON_IsObject(c)) rc = merge_object(rs, old, path, c, true, patch, who, err);
        else rc = reduce(rs, existing, path, c, old, patch, who, err);
    }
    path->n--;
    cJSON_Delete(item);
    return rc;
}

static size_t utf16_length(const char *s) {
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p & 0xC0) != 0x80) n++;      /* a code point starts here */
        if ((*p & 0xF8) == 0xF0) n++;      /* 4-byte UTF-8: a surrogate pair in JS */
    }
    return n;
}

static size_t value_length(const cJSON *v) {
    if (cJSON_IsString(v)) return utf16_length(v->valuestring);
    size_t n = 0;
    for (const cJSON *c = v->child; c; c = c->next) n++;
    return n;
}

/* avg keeps a true running mean: the count of values seen lives beside the
 * mean as "<key>__count", so a mean of three values is not a mean of pairs. */
static eg_code running_mean(cJSON *obj, eg_path *path, const cJSON *existing, cJSON *item, eg_patch *patch, eg_error *err) {
    size_t klen = strlen(item->string);
    char *count_key = eg_malloc(klen + sizeof EG_AVG_COUNT_SUFFIX);
    if (!count_key) { cJSON_Delete(item); return eg_nomem(err); }
    memcpy(count_key, item->string, klen);
    memcpy(count_key + klen, EG_AVG_COUNT_SUFFIX, sizeof EG_AVG_COUNT_SUFFIX);
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(obj, count_key);
    double n = existing && cJSON_IsNumber(existing) ? (cJSON_IsNumber(c) && c->valuedouble >= 1 ? c->valuedouble : 1) : 0;
    double mean = n > 0 ? existing->valuedouble + (item->valuedouble - existing->valuedouble) / (n + 1) : item->valuedouble;
    item->valuedouble = mean;   /* (a number's valueint: see eg_json_read.c's read_number) */
    cJSON *count = eg_number(n + 1);
    if (!count) { eg_free(count_key); cJSON_Delete(item); return eg_nomem(err); }
    count->string = count_key;
    eg_code rc = set_value(obj, path, item, patch, err);
    if (rc) { cJSON_Delete(count); return rc; }
    return set_value(obj, path, count, patch, err);
}

int eg_reduce_into(const eg_reducers *rs, cJSON *obj, eg_path *path, cJSON *item,
                   eg_patch *patch, const char *who, eg_error *err) {
    return reduce(rs, obj, path, item, eg_get(obj, item->string), patch, who, err);
}

/* eg_reduce_into with obj's member of the item's name (`existing`, NULL:
 * none) looked up already: every write below goes in its place. */
static int reduce(const eg_reducers *rs, cJSON *obj, eg_path *path, cJSON *item, cJSON *existing,
                  eg_patch *patch, const char *who, eg_error *err) {
    const char *key = item->string;
    eg_reducer_kind kind = EG_R_LAST;
    bool exact = false, nested = false;
    for (size_t i = 0; i < rs->n; i++) {
        int m = match(rs->items[i].path, path, key);
        if (m == 1) { exact = true; kind = rs->items[i].kind; }
        else if (m == 2) nested = true;
    }
    bool absent = !existing || cJSON_IsNull(existing);
    /* Written into, member by member: an object under a nested reducer's path (merged as last-write-wins,
     * each member through its own reducer), or the list of the messages reducer. */
    bool into = exact ? kind == EG_R_MESSAGES : nested && cJSON_IsObject(item) && (absent || cJSON_IsObject(existing));
    if (!exact && !into) return replace_value(obj, path, item, existing, patch, err);
    eg_code rc = EG_OK;
    if (into && absent) {
        /* (One block for both: a new empty container of the key's name, in the state and the patch.) */
        cJSON *fresh = exact ? cJSON_CreateArray() : cJSON_CreateObject();
        char *name = fresh ? eg_strdup(key) : NULL;
        if (!name) { cJSON_Delete(fresh); cJSON_Delete(item); return eg_nomem(err); }
        fresh->string = name;
        if ((rc = replace_value(obj, path, fresh, existing, patch, err))) { cJSON_Delete(item); return rc; }
        existing = fresh;
    }
    if (!exact) return merge_object(rs, existing, path, item, false, patch, who, err);
    switch (kind) {
    case EG_R_LAST:
        return replace_value(obj, path, item, existing, patch, err);
    case EG_R_READONLY: {
        char buf[128];
        rc = eg_fail(err, EG_E_READONLY, "node '%s' wrote '%s', which is read-only", who, eg_path_text(path, key, buf, sizeof buf));
        break;
    }
    case EG_R_FIRST:
        if (absent) return replace_value(obj, path, item, existing, patch, err);
        break;
    case EG_R_CONCAT: case EG_R_APPEND_UNIQUE: case EG_R_MESSAGES:
        /* (The messages reducer's absent list was made above.) */
        if (absent && kind != EG_R_MESSAGES) return set_items(obj, path, item, existing, patch, err);
        if (!cJSON_IsArray(existing)) { rc = eg_reducer_type_error_(path, key, kind, who, "an array in the state", existing, err); break; }
        if (kind == EG_R_MESSAGES) return eg_reduce_messages_(existing, path, item, patch, who, err);
        return append(existing, path, item, kind == EG_R_APPEND_UNIQUE, patch, err);
    case EG_R_MERGE: case EG_R_DEEP_MERGE:
        if (!cJSON_IsObject(item)) { rc = eg_reducer_type_error_(path, key, kind, who, "an object", item, err); break; }
        if (absent) return replace_value(obj, path, item, existing, patch, err);
        if (!cJSON_IsObject(existing)) { rc = eg_reducer_type_error_(path, key, kind, who, "an object in the state", existing, err); break; }
        {
            /* Merge members as last-write-wins (deep: recursively): reducers
             * registered below this path still apply through eg_reduce_into. */
            return merge_object(rs, existing, path, item, kind == EG_R_DEEP_MERGE, patch, who, err);
        }
    case EG_R_SUM: case EG_R_MAX: case EG_R_MIN: case EG_R_AVG:
        if (!cJSON_IsNumber(item)) { rc = eg_reducer_type_error_(path, key, kind, who, "a number", item, err); break; }
        if (!absent && !cJSON_IsNumber(existing)) { rc = eg_reducer_type_error_(path, key, kind, who, "a number in the state", existing, err); break; }
        if (kind == EG_R_AVG) return running_mean(obj, path, existing, item, patch, err);
        if (absent) return replace_value(obj, path, item, existing, patch, err);
        {
            double a = existing->valuedouble, b = item->valuedouble;
            double r = kind == EG_R_SUM ? a + b : kind == EG_R_MAX ? (a > b ? a : b) : (a < b ? a : b);
            item->valuedouble = r;
            return replace_value(obj, path, item, existing, patch, err);
        }
    case EG_R_LONGEST:
        if (!cJSON_IsString(item) && !cJSON_IsArray(item)) { rc = eg_reducer_type_error_(path, key, kind, who, "a string or an array", item, err); break; }
        if (absent) return replace_value(obj, path, item, existing, patch, err);
        if ((existing->type & 0xFF) != (item->type & 0xFF)) { rc = eg_reducer_type_error_(path, key, kind, who, type_name(existing), item, err); break; }
        if (value_length(item) > value_length(existing)) return replace_value(obj, path, item, existing, patch, err);
        break;
    }
    cJSON_Delete(item);
    return rc;
}

