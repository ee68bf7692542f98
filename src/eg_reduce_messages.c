/* eg_reduce_messages.c: the messages reducer (LangGraph's add_messages): each
 * message of a write is appended, or replaces the message of its id, or with
 * "type": "remove" removes it; a removal of an id that is not there does
 * nothing. Its patch ops push, set or delete one message at a time. */
#include "eg_internal.h"

#include <string.h>

/* A message object's id, tagged on the object itself: a message the reducer
 * put into a list keeps a 32-bit hash of its "id" (odd, so never 0) in its
 * valueint, which cJSON leaves unused on objects (0 when parsed or created,
 * copied by cJSON_Duplicate, read by nothing else). A new message's id is
 * looked for through the whole list on every push; with the tags, a message
 * of another id costs one comparison instead of a walk of its members. A
 * message without a tag (restored, set as a whole) is looked at in full. A
 * message's "id" never changes in place: the reducer replaces the object. */
static int id_tag(const char *id) {
    uint32_t h = 2166136261u;   /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)id; *p; p++) { h ^= *p; h *= 16777619u; }
    return (int)(h | 1u);
}

/* The message of `list` whose "id" is `id` (tagged `tag`), and its index; or
 * NULL, and the number of messages in the list (the index of one pushed next). */
static cJSON *find_by_id(cJSON *list, const char *id, int tag, int *index) {
    int i = 0;
    for (cJSON *c = list->child; c; c = c->next, i++) {
        if ((c->type & 0xFF) != cJSON_Object || (c->valueint && c->valueint != tag)) continue;
        for (const cJSON *k = c->child; k; k = k->next) {
            const char *s = k->string;
            if (!s || s[0] != 'i' || s[1] != 'd' || s[2]) continue;
            /* The first "id" member, as eg_get finds it. */
            if ((k->type & 0xFF) == cJSON_String && k->valuestring && strcmp(k->valuestring, id) == 0) { *index = i; return c; }
            break;
        }
    }
    *index = i;
    return NULL;
}

int eg_reduce_messages_(cJSON *existing, eg_path *path, cJSON *item, eg_patch *patch, const char *who, eg_error *err) {
    char *key = item->string;
    item->string = NULL;
    /* Where each message was in the result: its index in the list, or -1 (one message, no list). */
    int at = cJSON_IsArray(item) ? 0 : -1;
    cJSON *items = eg_reducer_items_(item);
    if (!items) { cJSON_free(key); cJSON_Delete(item); return eg_nomem(err); }
    /* eg_reduce_into guarantees room: merge_object stops two levels early. */
    path->seg[path->n++] = key;  /* the array's own path, for patch entries */
    eg_code rc = EG_OK;
    for (; items->child && !rc; at += at >= 0) {
        cJSON *m = cJSON_DetachItemViaPointer(items, items->child);
        if (!cJSON_IsObject(m)) {
            path->n--;
            rc = eg_reducer_type_error_(path, key, EG_R_MESSAGES, who, "message objects", m, err);
            path->n++;
            cJSON_Delete(m);
            break;
        }
        const cJSON *id = eg_get(m, "id"), *type = eg_get(m, "type");
        int index = 0, tag = cJSON_IsString(id) ? id_tag(id->valuestring) : 0;
        cJSON *found = tag ? find_by_id(existing, id->valuestring, tag, &index) : NULL;
        m->valueint = tag;   /* what find_by_id reads: m is the list's from here on, or freed */
        bool removal = cJSON_IsString(type) && strcmp(type->valuestring, "remove") == 0;
        if (removal) {
            /* Removing an id that is not there is a no-op, so a retried
             * step that removes twice stays correct. */
            if (found) {
                if (!eg_patch_op(patch, "del", path, NULL, index, NULL)) rc = eg_nomem(err);
                else {
                    /* The later messages move up one index: their terms change. Rare: add them up afresh. */
                    if (patch) patch->summed = false;
                    cJSON_Delete(cJSON_DetachItemViaPointer(existing, found));
                }
            }
            cJSON_Delete(m);
        } else if (found) {
            if (!eg_patch_op(patch, "set", path, NULL, index, m)) { rc = eg_nomem(err); cJSON_Delete(m); }
            else { eg_sum_replace(patch, path, NULL, index, found, m); cJSON_ReplaceItemViaPointer(existing, found, m); }
        } else {
            if (!eg_patch_push_echo(patch, path, NULL, m, true, at)) { rc = eg_nomem(err); cJSON_Delete(m); }
            else {
                cJSON_AddItemToArray(existing, m);
                /* find_by_id counted the list: no second walk to find m's index. */
                if (tag) eg_sum_replace(patch, path, NULL, index, NULL, m);
                else eg_sum_appended(patch, path, NULL, existing, m);
            }
        }
    }
    path->n--;
    items->string = key;
    cJSON_Delete(items);
    return rc;
}

