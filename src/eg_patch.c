/* eg_patch.c: the patch a run hands its host after each step, as JSON text:
 * ["set"|"push"|"del", [path...], value?] ops, in the order the state changed.
 * The host applies them to its mirror, and a thread stores them as the
 * difference between two checkpoints. */
#include "eg_internal.h"

bool eg_patch_op(eg_patch *patch, const char *op, const eg_path *path,
                 const char *key, int index, const cJSON *value) {
    if (!patch) return true;
    eg_buf *b = &patch->text;
    size_t mark = b->len;  /* an op is appended whole or not at all */
    bool ok = (patch->count == 0 || eg_buf_lit(b, ",")) && eg_buf_lit(b, "[") && eg_buf_string(b, op) && eg_buf_lit(b, ",[");
    for (size_t i = 0; ok && i < path->n; i++) ok = (i == 0 || eg_buf_lit(b, ",")) && eg_buf_string(b, path->seg[i]);
    if (ok && key) ok = (path->n == 0 || eg_buf_lit(b, ",")) && eg_buf_string(b, key);
    if (ok && index >= 0) ok = (path->n == 0 && !key ? true : eg_buf_lit(b, ",")) && eg_buf_int(b, index);
    ok = ok && eg_buf_lit(b, "]");
    if (ok && value) ok = eg_buf_lit(b, ",") && eg_buf_json(b, value);
    ok = ok && eg_buf_lit(b, "]");
    if (!ok) {
        b->len = mark;
        if (b->data) b->data[mark] = '\0';
        return false;
    }
    patch->count++;
    return true;
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
