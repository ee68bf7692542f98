/* eg_sum.c: the state's checksum, as a sum over its paths.
 *
 * Every value in the state contributes one term: a hash of its path (the keys
 * and indexes that lead to it) and of what it is (a scalar's value, or that it
 * is an object or an array). The checksum is the sum of the terms (mod 2^64).
 * So a write replaces only the terms under the path it touched: the run keeps
 * the sum beside its patch, and a checkpoint after a step that wrote one key
 * costs the size of that key, not the size of the state. A restore adds up
 * the whole state once and compares.
 *
 * Key order does not count (a sum), so any JSON library may re-serialize a
 * checkpoint; array order does (indexes are in the paths), and so does every
 * value, key and nesting level. This catches edits and damage, as the whole-
 * value hash of format 1 did; neither is a signature. */
#include "eg_internal.h"

#include <string.h>

static uint64_t mix(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* A string value's hash in format 3: eight bytes a multiply, not one (FNV-1a,
 * format 2's, costs a multiply's latency a byte: 3.2 KB of tool result was a
 * few microseconds at every write of a run with a checkpointer). */
static uint64_t string_hash(const char *s) {
    size_t n = strlen(s);
    uint64_t h = 0x736f6d6570736575ULL ^ n, w;
    for (; n >= 8; n -= 8, s += 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
    }
    w = 0;
    memcpy(&w, s, n);
    return mix(h ^ w ^ 0x5354ULL);
}

static uint64_t text_hash(const char *s) {
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (; *s; s++) { h ^= (unsigned char)*s; h *= 0x100000001b3ULL; }
    return h;
}

#define ROOT 0x726f6f74ULL
#define TAG_OBJECT 0x6f626aULL
#define TAG_ARRAY 0x617272ULL

static uint64_t key_path(uint64_t path, const char *key) { return mix(path * 0x9e3779b97f4a7c15ULL + text_hash(key) + 1); }
static uint64_t index_path(uint64_t path, size_t i) { return mix(path * 0xc2b2ae3d27d4eb4fULL + mix((uint64_t)i + 0x1d)); }

/* The terms of v and of everything below it, v being at `path`. */
/* (`format2`: a string's term as format 2 made it, FNV-1a: to check a format 2 checkpoint.) */
static uint64_t terms(uint64_t path, const cJSON *v, bool format2) {
    if (cJSON_IsObject(v)) {
        uint64_t sum = mix(path ^ TAG_OBJECT);
        for (const cJSON *c = v->child; c; c = c->next) sum += terms(key_path(path, c->string ? c->string : ""), c, format2);
        return sum;
    }
    if (cJSON_IsArray(v)) {
        uint64_t sum = mix(path ^ TAG_ARRAY);
        size_t i = 0;
        for (const cJSON *c = v->child; c; c = c->next) sum += terms(index_path(path, i++), c, format2);
        return sum;
    }
    /* A scalar: eg_json_hash tells the type and value apart (-0 is 0); a
     * string's own hash (format 3) differs from every other type's there. */
    uint64_t h = cJSON_IsString(v) && !format2 ? string_hash(v->valuestring) : eg_json_hash(v);
    return mix(path + h * 0xff51afd7ed558ccdULL);
}

uint64_t eg_sum_state(const cJSON *state) { return terms(ROOT, state, false); }

uint64_t eg_sum_state_format2(const cJSON *state) { return terms(ROOT, state, true); }

uint64_t eg_sum_checksum(uint64_t meta_hash, uint64_t state_sum) {
    return mix(meta_hash ^ mix(state_sum + 0x5354415445ULL));
}

static uint64_t path_of(const eg_path *path, const char *key, int index) {
    uint64_t h = ROOT;
    for (size_t i = 0; i < path->n; i++) h = key_path(h, path->seg[i]);
    if (key) h = key_path(h, key);
    if (index >= 0) h = index_path(h, (size_t)index);
    return h;
}

void eg_sum_replace(eg_patch *patch, const eg_path *path, const char *key, int index, const cJSON *old, const cJSON *now) {
    if (!patch || !patch->summed) return;
    uint64_t at = path_of(path, key, index);
    if (old) patch->sum -= terms(at, old, false);
    if (now) patch->sum += terms(at, now, false);
}

void eg_sum_appended(eg_patch *patch, const eg_path *path, const char *key, const cJSON *array, const cJSON *first) {
    if (!patch || !patch->summed || !first) return;
    uint64_t at = path_of(path, key, -1);
    size_t i = 0;
    for (const cJSON *c = array->child; c && c != first; c = c->next) i++;
    for (const cJSON *c = first; c; c = c->next) patch->sum += terms(index_path(at, i++), c, false);
}
