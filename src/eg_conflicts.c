/* eg_conflicts.c: parallel branches that write one path without a reducer.
 * The same value from two branches is fine; different values are a
 * PARALLEL_CONFLICT naming both writers and the path. One table serves a
 * run's parallel step and the state manager's branch merge. */
#include "eg_internal.h"

#include <string.h>

struct eg_lww_write {
    char *path;
    const cJSON *value;   /* borrowed: lives as long as the results being merged */
    const char *who;
};

eg_code eg_lww_record(eg_lww_writes *w, const eg_path *p, const char *key, const cJSON *value, const char *who, eg_error *err) {
    char buf[512];
    eg_path_text(p, key, buf, sizeof buf);
    /* One writer writes a path once (keys are unique): an earlier entry is another branch's. */
    for (size_t i = 0; i < w->n; i++)
        if (strcmp(w->items[i].path, buf) == 0 && !eg_json_equal(w->items[i].value, value))
            return eg_fail(err, EG_E_CONFLICT, "'%s' and '%s' wrote different values to '%s' in the same step; give it a reducer (e.g. concat, merge, last)",
                           w->items[i].who, who, buf);
    if (w->n == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        struct eg_lww_write *items = eg_realloc(w->items, cap * sizeof *items);
        if (!items) return eg_nomem(err);
        w->items = items;
        w->cap = cap;
    }
    char *text = eg_strdup(buf);
    if (!text) return eg_nomem(err);
    w->items[w->n++] = (struct eg_lww_write){ text, value, who };
    return EG_OK;
}

void eg_lww_free(eg_lww_writes *w) {
    for (size_t i = 0; i < w->n; i++) eg_free(w->items[i].path);
    eg_free(w->items);
    w->items = NULL;
    w->n = w->cap = 0;
}

/* Record the paths `obj` writes last-write-wins, the way eg_reduce_into
 * would apply it. Combining reducers (concat, sum, ...) cannot conflict. */
static eg_code collect(const eg_reducers *rs, eg_path *p, const cJSON *obj, bool deep, const char *who, eg_lww_writes *w, eg_error *err) {
    for (const cJSON *c = obj->child; c; c = c->next) {
        if (p->n == 0 && eg_is_control_key(c->string)) continue;
        int exact_kind = eg_reducer_at(rs, p, c->string);
        bool exact = exact_kind >= 0, nested = eg_reducer_below(rs, p, c->string);
        eg_reducer_kind kind = exact ? (eg_reducer_kind)exact_kind : EG_R_LAST;
        bool descend = cJSON_IsObject(c) && p->n + 2 < sizeof p->seg / sizeof *p->seg
                       && ((exact && (kind == EG_R_MERGE || kind == EG_R_DEEP_MERGE)) || (!exact && (nested || deep)));
        eg_code rc = EG_OK;
        if (descend) {
            p->seg[p->n++] = c->string;
            rc = collect(rs, p, c, exact ? kind == EG_R_DEEP_MERGE : deep, who, w, err);
            p->n--;
        } else if (!exact) {
            /* An explicit 'last' reducer accepts last-write-wins by branch index. */
            rc = eg_lww_record(w, p, c->string, c, who, err);
        }
        if (rc) return rc;
    }
    return EG_OK;
}

int eg_check_conflicts(const eg_reducers *rs, cJSON *const *results, const char *const *who,
                       size_t n, eg_error *err) {
    eg_lww_writes w = { NULL, 0, 0 };
    eg_code rc = EG_OK;
    for (size_t t = 0; t < n && !rc; t++) {
        eg_path p = { { NULL }, 0 };
        if (cJSON_IsObject(results[t])) rc = collect(rs, &p, results[t], false, who[t], &w, err);
    }
    eg_lww_free(&w);
    return rc;
}
