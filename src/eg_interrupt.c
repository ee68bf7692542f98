/* eg_interrupt.c: a node that pauses itself. The host runs a node; the node
 * calls interrupt(value) with no answer yet; the host hands the core the
 * interrupts instead of a result (eg_run_interrupt_task). When every task of
 * the step has finished or been interrupted, the run pauses there: finished
 * siblings keep their results (they do not run again) and the interrupted
 * tasks wait. eg_run_answer records the answers on the tasks; each re-run of
 * a task is handed every answer it has, and the step completes as usual.
 * The core only records: interrupt ids are the host's, unique per step. */
#include "eg_run_internal.h"

#include <stdio.h>
#include <string.h>

bool eg_run_has_interrupts_(const eg_run *run) {
    for (size_t i = 0; i < run->n_tasks; i++) if (run->tasks[i].state == T_INTERRUPTED) return true;
    return false;
}

cJSON *eg_run_interrupts_json_(const eg_run *run) {
    cJSON *list = cJSON_CreateArray();
    for (size_t i = 0; list && i < run->n_tasks; i++) {
        const eg_task *t = &run->tasks[i];
        if (t->state != T_INTERRUPTED) continue;
        for (const cJSON *in = t->interrupts->child; in; in = in->next) {
            cJSON *o = cJSON_Duplicate(in, true);
            if (!o || !cJSON_AddItemToArray(list, o) || !cJSON_AddStringToObject(o, "node", eg_run_node_name_(run, t->node))) {
                if (o && !o->prev) cJSON_Delete(o);
                cJSON_Delete(list);
                return NULL;
            }
        }
    }
    return list;
}

/* The id of an interrupt entry, or NULL when the entry is malformed. */
static const char *entry_id(const cJSON *entry) {
    const cJSON *id = eg_get(entry, "id");
    return cJSON_IsObject(entry) && cJSON_IsString(id) && *id->valuestring && eg_get(entry, "value") ? id->valuestring : NULL;
}

/* Whether `id` is pending in the run (skipping task `skip` entry `self`). */
static bool id_pending(const eg_run *run, const char *id, const cJSON *self) {
    for (size_t i = 0; i < run->n_tasks; i++) {
        const eg_task *t = &run->tasks[i];
        if (t->state != T_INTERRUPTED) continue;
        for (const cJSON *in = t->interrupts->child; in; in = in->next)
            if (in != self && strcmp(entry_id(in), id) == 0) return true;
    }
    return false;
}

eg_code eg_run_interrupt_task(eg_run *run, uint32_t index, const char *json, size_t len, eg_error *err) {
    eg_clear(err);
    if (!run) return eg_disposed(err, "run");
    if (run->status != EG_STATUS_RUNNING)
        return eg_fail(err, EG_E_BAD_STATE, "interrupt(%d): the run is %s, not RUNNING", (int)index, eg_status_name(run->status));
    if (index >= run->n_tasks || run->tasks[index].state != T_PENDING || run->tasks[index].kind != TASK_NODE)
        return eg_fail(err, EG_E_BAD_TASK, "interrupt(%d): no pending node task has that index", (int)index);
    eg_task *t = &run->tasks[index];
    const char *name = eg_run_node_name_(run, t->node);
    if (len > run->max_result_bytes)
        return eg_fail(err, EG_E_LIMIT, "node '%s' interrupted with %zu bytes, more than maxResultBytes (%zu)", name, len, run->max_result_bytes);
    cJSON *o;
    eg_code rc = eg_parse_object(json, len, EG_E_INVALID_RESULT, "an interrupt", &o, err);
    if (rc) return rc;
    cJSON *list = eg_get(o, "interrupts");
    if (!cJSON_IsArray(list) || !list->child) rc = eg_fail(err, EG_E_INVALID_RESULT, "node '%s' interrupted without interrupts ([{id, value}])", name);
    for (const cJSON *in = list ? list->child : NULL; !rc && in; in = in->next) {
        const char *id = entry_id(in);
        if (!id) rc = eg_fail(err, EG_E_INVALID_RESULT, "node '%s': an interrupt is {id, value} with a non-empty string id", name);
        else {
            bool twice = id_pending(run, id, NULL);
            for (const cJSON *k = list->child; k != in && !twice; k = k->next) twice = strcmp(entry_id(k), id) == 0;
            if (twice) rc = eg_fail(err, EG_E_INVALID_RESULT, "node '%s': interrupt id '%s' is used twice in this step", name, id);
        }
    }
    if (rc) { cJSON_Delete(o); return rc; }
    /* No allocation from here on. */
    cJSON_Delete(t->interrupts);
    t->interrupts = cJSON_DetachItemViaPointer(o, list);
    cJSON *keep = eg_get(o, "keep");
    if (keep) {
        cJSON_Delete(t->keep);
        t->keep = cJSON_DetachItemViaPointer(o, keep);
    }
    cJSON_Delete(o);
    t->state = T_INTERRUPTED;
    run->state_bytes_bound += len;
    return EG_OK;
}

/* How many interrupts are pending. */
static size_t count_pending(const eg_run *run) {
    size_t n = 0;
    for (size_t i = 0; i < run->n_tasks; i++) {
        const eg_task *t = &run->tasks[i];
        if (t->state != T_INTERRUPTED) continue;
        for (const cJSON *in = t->interrupts->child; in; in = in->next) n++;
    }
    return n;
}

/* The pending ids as text ("'a', 'b'"), cut to the buffer, for messages. */
static const char *pending_list(const eg_run *run, char *buf, size_t cap) {
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < run->n_tasks; i++) {
        const eg_task *t = &run->tasks[i];
        if (t->state != T_INTERRUPTED) continue;
        for (const cJSON *in = t->interrupts->child; in && at + 1 < cap; in = in->next) {
            int w = eg_snprintf(buf + at, cap - at, "%s'%s'", at ? ", " : "", entry_id(in));
            at = w < 0 ? cap : at + (size_t)w;
        }
    }
    return buf;
}

/* Whether `key` has an interrupt id's shape, "<node>:<step>.<task>:<call>"
 * (the host's ids; a subgraph's are nested with "/"): it ends in
 * ":<digits>.<digits>:<digits>". */
static bool looks_like_id(const char *key) {
    size_t n = strlen(key), i = n;
    const char seps[] = { ':', '.', ':' };
    for (int part = 2; part >= 0; part--) {
        size_t end = i;
        while (i > 0 && key[i - 1] >= '0' && key[i - 1] <= '9') i--;
        if (i == end || i == 0 || key[i - 1] != seps[part]) return false;
        i--;
    }
    return i > 0;
}

/* Is `value` a map id -> answer of the pending interrupts? With several
 * pending it must be; with one, it is when every key has an id's shape. */
static eg_code read_answers(const eg_run *run, const cJSON *value, bool *is_map, eg_error *err) {
    size_t n = count_pending(run);
    char ids[512];
    if (n == 0) return eg_fail(err, EG_E_UNKNOWN_INTERRUPT, "resume got an answer, but no interrupt is pending");
    bool all_ids = cJSON_IsObject(value) && value->child;
    for (const cJSON *k = all_ids ? value->child : NULL; k; k = k->next) all_ids &= looks_like_id(k->string);
    *is_map = n > 1 || all_ids;
    if (!*is_map) return EG_OK;
    if (!cJSON_IsObject(value))
        return eg_fail(err, EG_E_MISSING_ANSWER, "%d interrupts are pending (%s): resume with a map of interrupt id -> answer", (int)n, pending_list(run, ids, sizeof ids));
    for (const cJSON *k = value->child; k; k = k->next)
        if (!id_pending(run, k->string, NULL))
            return eg_fail(err, EG_E_UNKNOWN_INTERRUPT, "resume answers interrupt '%s', which is not pending (pending: %s)", k->string, pending_list(run, ids, sizeof ids));
    for (size_t i = 0; i < run->n_tasks; i++) {
        const eg_task *t = &run->tasks[i];
        if (t->state != T_INTERRUPTED) continue;
        for (const cJSON *in = t->interrupts->child; in; in = in->next)
            if (!eg_get(value, entry_id(in)))
                return eg_fail(err, EG_E_MISSING_ANSWER, "resume has no answer for interrupt '%s' of node '%s'", entry_id(in), eg_run_node_name_(run, t->node));
    }
    return EG_OK;
}

/* Task i's answers with the new ones added, or NULL when memory runs out. */
static cJSON *answers_after(const eg_task *t, const cJSON *value, bool is_map) {
    cJSON *a = t->answers ? cJSON_Duplicate(t->answers, true) : cJSON_CreateObject();
    for (const cJSON *in = t->interrupts->child; a && in; in = in->next) {
        const char *id = entry_id(in);
        if (!eg_set(a, id, cJSON_Duplicate(is_map ? eg_get(value, id) : value, true))) { cJSON_Delete(a); return NULL; }
    }
    return a;
}

eg_code eg_run_answer(eg_run *run, const char *json, size_t len, eg_error *err) {
    eg_clear(err);
    if (!run) return eg_disposed(err, "run");
    if (run->status != EG_STATUS_PAUSED && run->status != EG_STATUS_INTERRUPTED && run->status != EG_STATUS_ERROR)
        return eg_fail(err, EG_E_BAD_STATE, "answer() is for a paused run, not a %s one", eg_status_name(run->status));
    if (len > run->max_input_bytes)
        return eg_fail(err, EG_E_LIMIT, "the resume value is %zu bytes, more than maxInputBytes (%zu)", len, run->max_input_bytes);
    cJSON *o;
    eg_code rc = eg_parse_object(json, len, EG_E_INVALID_INPUT, "the answer ({\"resume\": value})", &o, err);
    if (rc) return rc;
    const cJSON *value = eg_get(o, "resume");
    bool is_map = false;
    if (!value) rc = eg_fail(err, EG_E_INVALID_INPUT, "the answer has no \"resume\" value");
    else rc = read_answers(run, value, &is_map, err);
    /* All or nothing: every task's new answers first, then swap them in. */
    cJSON **fresh = rc ? NULL : eg_malloc(sizeof(cJSON *) * (run->n_tasks ? run->n_tasks : 1));
    if (!rc && !fresh) rc = eg_nomem(err);
    for (size_t i = 0; !rc && i < run->n_tasks; i++) {
        fresh[i] = NULL;
        if (run->tasks[i].state == T_INTERRUPTED && !(fresh[i] = answers_after(&run->tasks[i], value, is_map))) {
            for (size_t k = 0; k < i; k++) cJSON_Delete(fresh[k]);
            rc = eg_nomem(err);
        }
    }
    for (size_t i = 0; !rc && i < run->n_tasks; i++) {
        eg_task *t = &run->tasks[i];
        if (t->state != T_INTERRUPTED) continue;
        cJSON_Delete(t->answers);
        t->answers = fresh[i];
        cJSON_Delete(t->interrupts);
        t->interrupts = NULL;
        t->state = T_PENDING;
    }
    eg_free(fresh);
    cJSON_Delete(o);
    if (!rc) run->state_bytes_bound += len;
    return rc;
}

void eg_run_forget_answers(eg_run *run) {
    for (size_t i = 0; run && run->status != EG_STATUS_RUNNING && i < run->n_tasks; i++) {
        eg_task *t = &run->tasks[i];
        if (t->state == T_DONE) continue;
        cJSON_Delete(t->interrupts);
        cJSON_Delete(t->answers);
        cJSON_Delete(t->keep);
        t->interrupts = t->answers = t->keep = NULL;
        if (t->state == T_INTERRUPTED) t->state = T_PENDING;
    }
}

eg_code eg_run_load_interrupts_(eg_task *t, const cJSON *task, eg_error *err) {
    const cJSON *list = eg_get(task, "interrupts"), *answers = eg_get(task, "answers"), *keep = eg_get(task, "keep");
    bool ok = t->state == T_INTERRUPTED ? cJSON_IsArray(list) && list->child : !list;
    for (const cJSON *in = list ? list->child : NULL; ok && in; in = in->next) ok = entry_id(in) != NULL;
    if (!ok || (answers && !cJSON_IsObject(answers)) || ((answers || keep || list) && t->kind != TASK_NODE))
        return eg_fail(err, EG_E_CHECKPOINT, "invalid checkpoint: a task's interrupts, answers or keep are not what the run wrote");
    if ((list && !(t->interrupts = cJSON_Duplicate(list, true))) || (answers && !(t->answers = cJSON_Duplicate(answers, true)))
        || (keep && !(t->keep = cJSON_Duplicate(keep, true))))
        return eg_nomem(err);
    return EG_OK;
}

eg_code eg_run_pending_interrupts(eg_run *run, const char **json, size_t *len, eg_error *err) {
    eg_clear(err);
    if (!run) return eg_disposed(err, "run");
    cJSON *list = eg_run_interrupts_json_(run);
    if (!list) return eg_nomem(err);
    eg_code rc = eg_buf_print(&run->out, list, json, len, err);
    cJSON_Delete(list);
    return rc;
}
