/* eg_json.c: small JSON utilities over cJSON. */
#include "eg_internal.h"
#include "eg_json_read.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* splitmix64's finalizer: a cheap, well-mixed 64-bit permutation. */
static uint64_t mix(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* A text's bytes up to its NUL (one pass: no strlen first). */
static uint64_t hash_bytes(uint64_t seed, const char *s) {
    uint64_t h = 0xcbf29ce484222325ULL ^ seed; /* FNV-1a */
    for (; *s; s++) { h ^= (unsigned char)*s; h *= 0x100000001b3ULL; }
    return mix(h);
}

uint64_t eg_json_hash_array_start(void) { return mix(6); }
uint64_t eg_json_hash_array_add(uint64_t h, uint64_t item) { return mix(h * 31 + item); }
uint64_t eg_json_hash_key(const char *key) { return hash_bytes(9, key); }
uint64_t eg_json_hash_member_of(uint64_t key_hash, uint64_t value) { return mix(key_hash ^ (value * 0x9e3779b97f4a7c15ULL)); }
uint64_t eg_json_hash_object(uint64_t members) { return mix(mix(7) + members); }

/* Objects hash as the sum of their members' hashes, so key order (which JS
 * engines change for integer-like keys) never changes the result. */
uint64_t eg_json_hash_bool(bool yes) { return mix(yes ? 3 : 2); }
uint64_t eg_json_hash_string(const char *s) { return hash_bytes(5, s); }
uint64_t eg_json_hash_number(double d) {
    if (d == 0) d = 0; /* -0 and 0 are the same JSON number */
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return mix(bits ^ 0x4e554d42ULL);
}

uint64_t eg_json_hash(const cJSON *item) {
    if (!item) return mix(11);
    switch (item->type & 0xFF) {
    case cJSON_NULL: return mix(1);
    case cJSON_False: return eg_json_hash_bool(false);
    case cJSON_True: return eg_json_hash_bool(true);
    case cJSON_Number: return eg_json_hash_number(item->valuedouble);
    case cJSON_String: case cJSON_Raw: return eg_json_hash_string(item->valuestring ? item->valuestring : "");
    case cJSON_Array: {
        uint64_t h = eg_json_hash_array_start();
        for (const cJSON *c = item->child; c; c = c->next) h = eg_json_hash_array_add(h, eg_json_hash(c));
        return h;
    }
    case cJSON_Object: {
        uint64_t sum = 0;
        for (const cJSON *c = item->child; c; c = c->next) sum += eg_json_hash_member_of(eg_json_hash_key(c->string ? c->string : ""), eg_json_hash(c));
        return eg_json_hash_object(sum);
    }
    default: return mix(13);
    }
}

void eg_hex64(uint64_t v, char out[17]) {
    static const char digits[] = "0123456789abcdef";
    for (int i = 15; i >= 0; i--) { out[i] = digits[v & 15]; v >>= 4; }
    out[16] = '\0';
}

/* cJSON_GetObjectItemCaseSensitive with the first two bytes compared inline:
 * a lookup is a scan of the members, and a new key in an object a run grows
 * (a reducer's merge) is looked for through every one of them. */
cJSON *eg_get(const cJSON *obj, const char *key) {
    if (!obj || !cJSON_IsObject(obj) || !key) return NULL;
    char k0 = key[0], k1 = k0 ? key[1] : 0;
    for (cJSON *c = obj->child; c; c = c->next) {
        const char *s = c->string;
        if (s && s[0] == k0 && (k0 == 0 || (s[1] == k1 && (k1 == 0 || strcmp(s + 2, key + 2) == 0)))) return c;
    }
    return NULL;
}

bool eg_set(cJSON *obj, const char *key, cJSON *value) {
    if (!value) return false;
    /* Not cJSON_ReplaceItemInObject: it ignores a failed key copy and would
     * leave a member without a name when memory runs out. */
    char *name = eg_strdup(key);
    if (!name) { cJSON_Delete(value); return false; }
    if (value->string && !(value->type & cJSON_StringIsConst)) cJSON_free(value->string);
    value->string = name;
    value->type &= ~cJSON_StringIsConst;
    cJSON *old = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (old) return cJSON_ReplaceItemViaPointer(obj, old, value);
    cJSON_AddItemToArray(obj, value); /* appends; keeps the name we set */
    return true;
}

bool eg_set_ref(cJSON *obj, const char *key, const cJSON *item) {
    /* Not cJSON_AddItemReferenceToObject: it leaks the reference when the
     * key cannot be copied. Deleting a reference never frees its target. */
    cJSON *ref = cJSON_IsArray(item) ? cJSON_CreateArrayReference(item->child)
               : cJSON_IsObject(item) ? cJSON_CreateObjectReference(item->child)
               : cJSON_Duplicate(item, true);
    return eg_set(obj, key, ref);
}

static uint64_t key_hash(const char *s) { return hash_bytes(17, s); }

/* Objects with few keys: compare pairwise; many keys: an open-addressing set. */
static bool dedupe_object(cJSON *obj) {
    size_t n = 0;
    for (cJSON *c = obj->child; c; c = c->next) n++;
    if (n < 2) return true;
    if (n <= 16) {
        for (cJSON *c = obj->child; c;) {
            cJSON *next = c->next;
            bool later = false;
            for (cJSON *d = next; d && !later; d = d->next) later = d->string && c->string && strcmp(c->string, d->string) == 0;
            if (later) cJSON_Delete(cJSON_DetachItemViaPointer(obj, c));
            c = next;
        }
        return true;
    }
    size_t cap = 32;
    while (cap < n * 2) cap *= 2;
    cJSON **slots = eg_malloc(cap * sizeof *slots);
    if (!slots) return false;
    memset(slots, 0, cap * sizeof *slots);
    /* Walk from the last member back: the first one seen of a name is the last written. */
    cJSON *last = obj->child->prev;
    for (cJSON *c = last; c;) {
        cJSON *prev = c == obj->child ? NULL : c->prev;
        const char *k = c->string ? c->string : "";
        size_t i = (size_t)key_hash(k) & (cap - 1);
        bool dup = false;
        while (slots[i]) {
            if (strcmp(slots[i]->string ? slots[i]->string : "", k) == 0) { dup = true; break; }
            i = (i + 1) & (cap - 1);
        }
        if (dup) cJSON_Delete(cJSON_DetachItemViaPointer(obj, c));
        else slots[i] = c;
        c = prev;
    }
    eg_free(slots);
    return true;
}

bool eg_json_dedupe(cJSON *item) {
    if (!item) return true;
    if (cJSON_IsObject(item) && !dedupe_object(item)) return false;
    for (cJSON *c = item->child; c; c = c->next) if ((cJSON_IsObject(c) || cJSON_IsArray(c)) && !eg_json_dedupe(c)) return false;
    return true;
}

/* ---- parsing: exactly len bytes, duplicate keys resolved as JSON.parse does ---- */

static cJSON *parse(const char *json, size_t len, bool *nomem, bool dedupe, eg_arena *arena, size_t *raw_len);

cJSON *eg_parse_ex(const char *json, size_t len, bool *nomem) { return parse(json, len, nomem, true, NULL, NULL); }
cJSON *eg_parse_keep_duplicates(const char *json, size_t len, bool *nomem) { return parse(json, len, nomem, false, NULL, NULL); }
cJSON *eg_parse_in_arena(const char *json, size_t len, bool *nomem, eg_arena *arena) { return parse(json, len, nomem, false, arena, NULL); }
cJSON *eg_parse_raw(const char *text, size_t len, bool *nomem, size_t *json_len) { return parse(text, len, nomem, true, NULL, json_len); }

/* raw_len: NULL, or the text may hold raw segments and its length as JSON goes there (eg_json_read). */
static cJSON *parse(const char *json, size_t len, bool *nomem, bool dedupe, eg_arena *arena, size_t *raw_len) {
    eg_init_json();
    eg_alloc_clear_failed();
    if (nomem) *nomem = false;
    if (!json) return NULL;
    /* Reads exactly len bytes: the text need not be NUL-terminated. Anything
     * but whitespace after the value makes the whole input invalid. */
    const char *end = NULL;
    cJSON *item = eg_json_read(json, len, &end, arena, raw_len);
    if (!item) { if (nomem) *nomem = eg_alloc_failed(); return NULL; }
    for (const char *p = end; p < json + len; p++) {
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') { if (!arena) cJSON_Delete(item); return NULL; }
    }
    if (dedupe && !eg_json_dedupe(item)) { if (nomem) *nomem = true; cJSON_Delete(item); return NULL; }
    return item;
}

cJSON *eg_parse(const char *json, size_t len) { return eg_parse_ex(json, len, NULL); }

eg_code eg_parse_value(const char *json, size_t len, eg_code code, const char *what, cJSON **out, eg_error *err) {
    bool nomem;
    *out = eg_parse_ex(json, len, &nomem);
    if (!*out) return nomem ? eg_nomem(err) : eg_fail(err, code, "%s is not valid JSON", what);
    return EG_OK;
}

eg_code eg_parse_object(const char *json, size_t len, eg_code code, const char *what, cJSON **out, eg_error *err) {
    eg_code rc = eg_parse_value(json, len, code, what, out, err);
    if (rc) return rc;
    if (!cJSON_IsObject(*out)) { cJSON_Delete(*out); *out = NULL; return eg_fail(err, code, "%s must be a JSON object", what); }
    return EG_OK;
}

/* cJSON_Compare(a, b, true), without the case-insensitive lookup its third argument keeps in the
 * .wasm (no caller asks for it): the same answers. Numbers are equal within cJSON's relative
 * DBL_EPSILON; objects when each member of either is in the other (its first of that name) with an
 * equal value; a node is equal to itself. */
bool eg_json_equal(const cJSON *a, const cJSON *b) {
    if (!a || !b || (a->type & 0xFF) != (b->type & 0xFF)) return false;
    int t = a->type & 0xFF;
    if (!t || (t & (t - 1))) return false;   /* not one of cJSON's types (each is one bit) */
    if (a == b) return true;
    switch (t) {
    case cJSON_Number: {
        double x = fabs(a->valuedouble), y = fabs(b->valuedouble);
        return fabs(a->valuedouble - b->valuedouble) <= (x > y ? x : y) * DBL_EPSILON;
    }
    case cJSON_String: case cJSON_Raw:
        return a->valuestring && b->valuestring && strcmp(a->valuestring, b->valuestring) == 0;
    case cJSON_Array: {
        const cJSON *x = a->child, *y = b->child;
        for (; x && y; x = x->next, y = y->next) if (!eg_json_equal(x, y)) return false;
        return x == y;
    }
    case cJSON_Object:
        for (const cJSON *x = a->child; x; x = x->next) if (!eg_json_equal(x, eg_get(b, x->string))) return false;
        for (const cJSON *y = b->child; y; y = y->next) if (!eg_json_equal(eg_get(a, y->string), y)) return false;
        return true;
    default:   /* false, true and null: the type is the value */
        return true;
    }
}

/* A number item: cJSON_CreateNumber without its clamped valueint, which nothing reads. */
cJSON *eg_number(double d) {
    cJSON *n = cJSON_CreateNull();
    if (n) { n->type = cJSON_Number; n->valuedouble = d; }
    return n;
}
