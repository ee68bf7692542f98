/* eg_patch.c: the patch a run hands its host after each step, as JSON text:
 * ["set"|"push"|"del", [path...], value?] ops, in the order the state changed.
 * The host applies them to its mirror, and a thread stores them as the
 * difference between two checkpoints. */
#include "eg_internal.h"

#include <string.h>

/* Room for one more mark. */
static bool reserve_mark(eg_patch *patch) {
    if (patch->count < patch->marks_cap) return true;
    size_t cap = patch->marks_cap ? patch->marks_cap * 2 : 8;
    eg_patch_mark *marks = eg_realloc(patch->marks, cap * sizeof *marks);
    if (!marks) return false;
    patch->marks = marks;
    patch->marks_cap = cap;
    return true;
}

/* eg_patch_op; `listed`: the value printed as a list of one ([value]). */
static bool put_op(eg_patch *patch, const char *op, const eg_path *path,
                   const char *key, int index, const cJSON *value, bool listed) {
    if (!patch) return true;
    eg_buf *b = &patch->text;
    size_t mark = b->len;  /* an op is appended whole or not at all */
    eg_patch_mark m = { .op = op[0], .depth = path->n + (key != NULL) + (index >= 0) };
    /* `,["set",[` in one piece (the first op without its comma): ops print a
     * step's every write. op is "set", "push" or "del" (its first letter is its
     * name in the flat form too). */
    const char *head = op[0] == 's' ? ",[\"set\",[" : op[0] == 'p' ? ",[\"push\",[" : ",[\"del\",[";
    size_t first = patch->count == 0;
    bool ok = reserve_mark(patch) && eg_buf_put(b, head + first, strlen(head) - first);
    m.path = b->len;
    for (size_t i = 0; ok && i < path->n; i++) ok = (i == 0 || eg_buf_lit(b, ",")) && eg_buf_string(b, path->seg[i]);
    if (ok && key) ok = (path->n == 0 || eg_buf_lit(b, ",")) && eg_buf_string(b, key);
    if (ok && index >= 0) ok = (path->n == 0 && !key ? true : eg_buf_lit(b, ",")) && eg_buf_int(b, index);
    m.path_end = b->len;
    m.value = b->len + 2;
    ok = ok && (value ? eg_buf_lit(b, "],") && (!listed || eg_buf_lit(b, "[")) && eg_buf_json(b, value) && (!listed || eg_buf_lit(b, "]"))
                      : eg_buf_lit(b, "]"));
    m.end = value ? b->len : m.value;
    ok = ok && eg_buf_lit(b, "]");
    if (!ok) {
        b->len = mark;
        if (b->data) b->data[mark] = '\0';
        return false;
    }
    patch->marks[patch->count++] = m;
    return true;
}

bool eg_patch_op(eg_patch *patch, const char *op, const eg_path *path,
                 const char *key, int index, const cJSON *value) {
    return put_op(patch, op, path, key, index, value, false);
}

bool eg_patch_push_one(eg_patch *patch, const eg_path *path, const cJSON *item) {
    return put_op(patch, "push", path, NULL, -1, item, true);
}

bool eg_patch_put_scalar(eg_patch *patch, cJSON *obj, const eg_path *path, const char *key, const cJSON *value) {
    cJSON *old = cJSON_GetObjectItemCaseSensitive(obj, key);
    bool number = cJSON_IsNumber(old) && cJSON_IsNumber(value), string = cJSON_IsString(old) && cJSON_IsString(value);
    if (!(number || string) || (old->type & cJSON_IsReference)) return eg_patch_put(patch, obj, path, key, cJSON_Duplicate(value, true));
    /* The same type: the member keeps its item (and name), and only its value changes. */
    char *text = string ? eg_strdup(value->valuestring) : NULL;
    if ((string && !text) || !eg_patch_op(patch, "set", path, key, -1, value)) { eg_free(text); return false; }
    /* No allocation from here on. */
    eg_sum_replace(patch, path, key, -1, old, value);
    if (number) old->valuedouble = value->valuedouble;   /* (a number's valueint: see eg_json_read.c's read_number) */
    else { cJSON_free(old->valuestring); old->valuestring = text; }
    return true;
}

bool eg_patch_flat(const eg_patch *patch, eg_buf *b) {
    const char *t = patch->text.data;
    bool ok = true;
    for (size_t i = 0; ok && i < patch->count; i++) {
        const eg_patch_mark *m = &patch->marks[i];
        char head[] = ",\"s\",";
        head[2] = m->op;
        ok = eg_buf_put(b, i ? head : head + 1, i ? sizeof head - 1 : sizeof head - 2) && eg_buf_int(b, (long long)m->depth)
             && (m->depth == 0 || (eg_buf_lit(b, ",") && eg_buf_put(b, t + m->path, m->path_end - m->path)))
             && (m->value == m->end || (eg_buf_lit(b, ",") && eg_buf_put(b, t + m->value, m->end - m->value)));
    }
    return ok;
}

void eg_patch_free(eg_patch *patch) {
    eg_buf_free(&patch->text);
    eg_free(patch->marks);
    patch->marks = NULL;
    patch->marks_cap = 0;
    patch->count = 0;
}

bool eg_patch_put(eg_patch *patch, cJSON *obj, const eg_path *path, const char *key, cJSON *value) {
    if (!value) return false;
    char *name = eg_strdup(key);
    if (!name || !eg_patch_op(patch, "set", path, key, -1, value)) {
        eg_free(name);
        cJSON_Delete(value);
        return false;
    }
    /* No allocation from here on. */
    if (value->string && !(value->type & cJSON_StringIsConst)) cJSON_free(value->string);
    value->string = name;
    value->type &= ~cJSON_StringIsConst;
    cJSON *old = cJSON_GetObjectItemCaseSensitive(obj, key);
    eg_sum_replace(patch, path, key, -1, old, value);
    if (old) cJSON_ReplaceItemViaPointer(obj, old, value);
    else cJSON_AddItemToArray(obj, value);
    return true;
}
