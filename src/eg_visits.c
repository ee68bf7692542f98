/* eg_visits.c: seed 002's recordNodeVisit, for a run's step (several nodes
 * at once, each change recorded in the run's patch) and for the state
 * manager (one node, no patch). */
#include "eg_internal.h"

static const eg_path root = { { NULL }, 0 };

bool eg_record_visits(cJSON *state, const char *const *names, size_t n, eg_patch *patch) {
    if (n == 0) return true;
    cJSON *items = cJSON_CreateArray();
    if (!items) return false;
    for (size_t i = 0; i < n; i++) {
        cJSON *name = cJSON_CreateString(names[i]);
        if (!name) { cJSON_Delete(items); return false; }
        cJSON_AddItemToArray(items, name);
    }
    cJSON *visited = cJSON_GetObjectItemCaseSensitive(state, EG_KEY_VISITED_NODES);
    bool ok;
    if (cJSON_IsArray(visited)) {
        ok = eg_patch_op(patch, "push", &root, EG_KEY_VISITED_NODES, -1, items);
        const cJSON *first = items->child;
        /* Moving the names over allocates nothing. */
        while (ok && items->child) cJSON_AddItemToArray(visited, cJSON_DetachItemViaPointer(items, items->child));
        if (ok) eg_sum_appended(patch, &root, EG_KEY_VISITED_NODES, visited, first);
        cJSON_Delete(items);
    } else {
        ok = eg_patch_put(patch, state, &root, EG_KEY_VISITED_NODES, items);
    }
    const cJSON *iteration = cJSON_GetObjectItemCaseSensitive(state, EG_KEY_ITERATION);
    double next = (cJSON_IsNumber(iteration) ? iteration->valuedouble : 0) + (double)n;
    return ok && eg_patch_put(patch, state, &root, EG_KEY_ITERATION, eg_number(next))
              && eg_patch_put(patch, state, &root, EG_KEY_CURRENT_NODE_ID, cJSON_CreateString(names[n - 1]));
}
