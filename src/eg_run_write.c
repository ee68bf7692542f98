/* eg_run_write.c: the run's own writes to its state (status, nextNode,
 * error, the partitioned shape's visit bookkeeping) and stopping a run with
 * an error. Every change goes through the patch, as a node's result does. */
#include "eg_run_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- small state writers: every change goes through the patch ---- */

eg_path eg_run_root_ = { { NULL }, 0 };

/* A top-level write of the run's own (status, nextNode, error...): set in
 * the state and recorded in the patch, both or neither. Not through the
 * reducers: these keys have none. */
bool eg_run_put_(eg_run *run, const char *key, cJSON *value) {
    return eg_patch_put(&run->patch, run->state, &eg_run_root_, key, value);
}

/* Memory ran out while recording state: stop without allocating anything.
 * The state may now lack bookkeeping, so the error says OUT_OF_MEMORY (and
 * names the error it was recording, if any). */
void eg_run_fatal_nomem_(eg_run *run) {
    if (run->error.code != EG_E_NOMEM) {
        int was = run->status == EG_STATUS_ERROR ? run->error.code : EG_OK;
        eg_fail(&run->error, EG_E_NOMEM, was ? "out of memory while stopping with %s" : "out of memory", eg_code_name(was));
    }
    run->status = EG_STATUS_ERROR;
}

bool eg_run_del_(eg_run *run, const char *key) {
    cJSON *old = cJSON_GetObjectItemCaseSensitive(run->state, key);
    if (!old) return true;
    if (!eg_patch_op(&run->patch, "del", &eg_run_root_, key, -1, NULL)) return false;
    eg_sum_replace(&run->patch, &eg_run_root_, key, -1, old, NULL);
    cJSON_Delete(cJSON_DetachItemViaPointer(run->state, old));
    return true;
}

bool eg_run_write_status_(eg_run *run, int status) {
    cJSON *cur = eg_get(run->state, EG_KEY_STATUS);
    if (cJSON_IsString(cur) && strcmp(cur->valuestring, eg_status_name(status)) == 0) return true;
    return eg_run_put_(run, EG_KEY_STATUS, cJSON_CreateString(eg_status_name(status)));
}

void eg_run_set_status_(eg_run *run, int status) {
    run->status = status;
    if (!eg_run_write_status_(run, status)) eg_run_fatal_nomem_(run);
}

/* The header's promise for calls that write several things (resume, apply):
 * a failed call leaves the run as it was. The state is copied first and put
 * back, with the patch cut to where it was, when any write fails. */
bool eg_run_undo_begin_(const eg_run *run, eg_run_undo *u) {
    u->state = cJSON_Duplicate(run->state, true);
    u->patch_len = run->patch.text.len;
    u->patch_count = run->patch.count;
    u->sum = run->patch.sum;
    u->summed = run->patch.summed;
    return u->state != NULL;
}

int eg_run_undo_end_(eg_run *run, eg_run_undo *u, int rc) {
    if (rc) {
        cJSON_Delete(run->state);
        run->state = u->state;
        run->patch.text.len = u->patch_len;
        if (run->patch.text.data) run->patch.text.data[u->patch_len] = '\0';
        run->patch.count = u->patch_count;
        run->patch.sum = u->sum;
        run->patch.summed = u->summed;
    } else {
        cJSON_Delete(u->state);
    }
    u->state = NULL;
    return rc;
}

const char *eg_run_node_name_(const eg_run *run, int node) {
    return node >= 0 ? run->graph->nodes[node].name : run->graph->end_name;
}

/* state.nextNode: what runs when this run continues (a name, a list of
 * names, or null), so a bare state is enough to resume from. */
bool eg_run_record_next_(eg_run *run) {
    cJSON *names = cJSON_CreateArray();
    if (!names) return false;
    size_t count = 0;
    for (size_t i = 0; i < run->n_tasks; i++) {
        const eg_task *t = &run->tasks[i];
        int n = t->kind == TASK_NODE ? (t->state != T_DONE ? t->node : EG_TARGET_NONE) : t->override;
        if (n < 0) continue;
        cJSON *s = cJSON_CreateString(eg_run_node_name_(run, n));
        if (!s) { cJSON_Delete(names); return false; }
        cJSON_AddItemToArray(names, s);
        count++;
    }
    cJSON *value = names;
    if (count < 2) {
        value = count == 0 ? cJSON_CreateNull() : cJSON_CreateString(names->child->valuestring);
        cJSON_Delete(names);
    }
    cJSON *cur = eg_get(run->state, EG_KEY_NEXT_NODE);
    if (cur && value && eg_json_equal(cur, value)) { cJSON_Delete(value); return true; }
    return eg_run_put_(run, EG_KEY_NEXT_NODE, value);
}

cJSON *eg_run_error_json_(const eg_run *run) {
    cJSON *obj = cJSON_CreateObject();
    if (!obj) return NULL;
    if (!cJSON_AddStringToObject(obj, "code", eg_code_name(run->error.code))
        || !cJSON_AddStringToObject(obj, "message", run->error.message)
        || (run->error_node >= 0 && !cJSON_AddStringToObject(obj, "node", eg_run_node_name_(run, run->error_node)))) {
        cJSON_Delete(obj);
        return NULL;
    }
    return obj;
}

void eg_run_stop_with_error_(eg_run *run, int node, const eg_error *e) {
    run->error = *e;
    run->error_node = node;
    run->status = EG_STATUS_ERROR;
    /* The run is stopped already; these writes only inform the state. */
    if (!eg_run_put_(run, EG_KEY_ERROR, eg_run_error_json_(run)) || !eg_run_record_next_(run)) eg_run_fatal_nomem_(run);
    eg_run_set_status_(run, EG_STATUS_ERROR);
}

void eg_run_stop_nomem_(eg_run *run) {
    eg_error e;
    eg_nomem(&e);
    eg_run_stop_with_error_(run, -1, &e);
}

void eg_run_stop_(eg_run *run, int node, int code, const char *fmt, ...) {
    eg_error e;
    va_list ap;
    va_start(ap, fmt);
    eg_vfail(&e, code, fmt, ap);
    va_end(ap);
    eg_run_stop_with_error_(run, node, &e);
}

bool eg_run_is_engine_key_(const eg_run *run, const char *k) {
    return eg_is_engine_key(k, run->graph->partitioned);
}

/* Partitioned state: the step's nodes are visited, in task order. */
bool eg_run_record_visits_(eg_run *run) {
    const char **names = eg_malloc(sizeof(char *) * run->n_tasks);
    if (!names) return false;
    for (size_t i = 0; i < run->n_tasks; i++) names[i] = eg_run_node_name_(run, run->tasks[i].node);
    bool ok = eg_record_visits(run->state, names, run->n_tasks, &run->patch);
    eg_free(names);
    return ok;
}
