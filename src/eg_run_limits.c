/* eg_run_limits.c: a run's size limits: their defaults, reading them from the
 * run options, and the checks on the whole state after each step.
 *
 * The state checks stay off the per-step path: the message list is counted
 * only in steps that wrote it, and the state is printed (to measure it) only
 * when a running upper bound (inputs plus every merged result, kept in
 * state_bytes_bound) passes the limit; the bound then restarts from the
 * measured size. */
#include "eg_run_internal.h"

#define DEFAULT_MAX_RESULT_BYTES ((size_t)16 << 20)
#define DEFAULT_MAX_INPUT_BYTES ((size_t)256 << 20)
#define DEFAULT_MAX_STATE_BYTES ((size_t)256 << 20)
#define DEFAULT_MAX_MESSAGES ((size_t)100000)

void eg_run_default_limits_(eg_run *run) {
    run->max_result_bytes = DEFAULT_MAX_RESULT_BYTES;
    run->max_input_bytes = DEFAULT_MAX_INPUT_BYTES;
    run->max_state_bytes = DEFAULT_MAX_STATE_BYTES;
    run->max_messages = DEFAULT_MAX_MESSAGES;
}

static eg_code count_limit(const cJSON *o, const char *name, const char *unit, size_t *out, eg_error *err) {
    const cJSON *v = eg_get(o, name);
    if (!v || cJSON_IsNull(v)) return EG_OK;
    if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble > 4294967295.0)
        return eg_fail(err, EG_E_INVALID_OPTIONS, "options.%s must be a number of %s from 1 to 4294967295", name, unit);
    *out = (size_t)v->valuedouble;
    return EG_OK;
}

eg_code eg_run_read_limits_(eg_run *run, const cJSON *o, eg_error *err) {
    eg_code rc = count_limit(o, "maxResultBytes", "bytes", &run->max_result_bytes, err);
    if (!rc) rc = count_limit(o, "maxInputBytes", "bytes", &run->max_input_bytes, err);
    if (!rc) rc = count_limit(o, "maxStateBytes", "bytes", &run->max_state_bytes, err);
    if (!rc) rc = count_limit(o, "maxMessages", "messages", &run->max_messages, err);
    return rc;
}

eg_code eg_run_check_state_(eg_run *run, int writer, int *node, eg_error *err) {
    if (writer >= 0) {
        const cJSON *messages = eg_get(run->state, "messages");
        size_t n = 0;
        for (const cJSON *m = cJSON_IsArray(messages) ? messages->child : NULL; m; m = m->next) n++;
        if (n > run->max_messages) {
            *node = writer;
            return eg_fail(err, EG_E_LIMIT, "after node '%s' the state holds %zu messages, more than maxMessages (%zu)",
                           run->graph->nodes[writer].name, n, run->max_messages);
        }
    }
    if (run->state_bytes_bound <= run->max_state_bytes) return EG_OK;
    eg_buf measure = { 0 };
    bool ok = eg_buf_json(&measure, run->state);
    size_t size = measure.len;
    eg_buf_free(&measure);
    if (!ok) return eg_nomem(err);
    run->state_bytes_bound = size;
    if (size <= run->max_state_bytes) return EG_OK;
    int last = run->tasks[run->n_tasks - 1].node;
    *node = run->n_tasks == 1 ? last : -1;
    return eg_fail(err, EG_E_LIMIT, "after node '%s' the state is %zu bytes as JSON, more than maxStateBytes (%zu)",
                   run->graph->nodes[last].name, size, run->max_state_bytes);
}
