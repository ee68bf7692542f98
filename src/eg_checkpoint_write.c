/* eg_checkpoint_write.c: a run's checkpoint, written as text (the format is
 * in eg_checkpoint.c, which reads it back).
 *
 * A thread writes one of these per step, so the writer builds no tree: each
 * field is printed and its eg_json_hash added up at once (the hash a restore
 * computes over the parsed fields), and the state's part of the checksum is
 * the path sum the run keeps as it writes (eg_sum.c). A step's checkpoint
 * then costs its fields and tasks, never the whole state. */
#include "eg_run_internal.h"

#include <string.h>

#define FORMAT "edgegraph-checkpoint"

/* Text goes to `b`; `ok` turns false once memory runs out. While `mute`,
 * fields are hashed (the checksum covers them) but not printed. */
typedef struct writer { eg_buf *b; bool ok; bool mute; } writer;
/* An object being written: its members' hashes so far, and whether it has any. */
typedef struct fields { uint64_t sum; bool any; } fields;

static void key(writer *w, fields *f, const char *k) {
    if (w->mute) return;
    w->ok = w->ok && (!f->any || eg_buf_lit(w->b, ",")) && eg_buf_string(w->b, k) && eg_buf_lit(w->b, ":");
    f->any = true;
}

static uint64_t string_hash(const char *s) {
    cJSON v = { .type = cJSON_String, .valuestring = (char *)s };
    return eg_json_hash(&v);
}

static void put_string(writer *w, fields *f, const char *k, const char *s) {
    key(w, f, k);
    w->ok = w->ok && (w->mute || eg_buf_string(w->b, s));
    f->sum += eg_json_hash_member(k, string_hash(s));
}

static void put_int(writer *w, fields *f, const char *k, long long n) {
    key(w, f, k);
    w->ok = w->ok && (w->mute || eg_buf_int(w->b, n));
    cJSON v = { .type = cJSON_Number, .valuedouble = (double)n };
    f->sum += eg_json_hash_member(k, eg_json_hash(&v));
}

static void put_bool(writer *w, fields *f, const char *k, bool yes) {
    key(w, f, k);
    w->ok = w->ok && (w->mute || (yes ? eg_buf_lit(w->b, "true") : eg_buf_lit(w->b, "false")));
    cJSON v = { .type = yes ? cJSON_True : cJSON_False };
    f->sum += eg_json_hash_member(k, eg_json_hash(&v));
}

static void put_json(writer *w, fields *f, const char *k, const cJSON *value) {
    key(w, f, k);
    w->ok = w->ok && (w->mute || eg_buf_json(w->b, value));
    f->sum += eg_json_hash_member(k, eg_json_hash(value));
}

static const char *target_name(const eg_run *run, int target) {
    return target >= 0 ? run->graph->nodes[target].name : run->graph->end_name;
}

/* One task; defaults are left out (kind "node", state "pending"). Returns its hash. */
static uint64_t put_task(writer *w, const eg_run *run, const eg_task *t) {
    fields f = { 0, false };
    w->ok = w->ok && eg_buf_lit(w->b, "{");
    put_string(w, &f, "node", run->graph->nodes[t->node].name);
    if (t->kind != TASK_NODE) put_string(w, &f, "kind", eg_task_kind_name_(t->kind));
    if (t->state != T_PENDING) put_string(w, &f, "state", eg_task_state_name_(t->state));
    if (t->override != EG_TARGET_NONE && t->kind == TASK_ROUTE) put_string(w, &f, "override", target_name(run, t->override));
    if (t->result) put_json(w, &f, "result", t->result);
    if (t->arg) put_json(w, &f, "arg", t->arg);
    if (t->interrupts) put_json(w, &f, "interrupts", t->interrupts);
    if (t->answers) put_json(w, &f, "answers", t->answers);
    if (t->keep) put_json(w, &f, "keep", t->keep);
    if (t->n_targets) {
        key(w, &f, "targets");
        uint64_t h = eg_json_hash_array_start();
        w->ok = w->ok && eg_buf_lit(w->b, "[");
        for (size_t k = 0; k < t->n_targets; k++) {
            const char *name = target_name(run, t->targets[k]);
            w->ok = w->ok && (k == 0 || eg_buf_lit(w->b, ",")) && eg_buf_string(w->b, name);
            h = eg_json_hash_array_add(h, string_hash(name));
        }
        w->ok = w->ok && eg_buf_lit(w->b, "]");
        f.sum += eg_json_hash_member("targets", h);
    }
    w->ok = w->ok && eg_buf_lit(w->b, "}");
    return eg_json_hash_object(f.sum);
}

static void put_error(writer *w, fields *top, const eg_run *run) {
    fields f = { 0, false };
    key(w, top, "error");
    w->ok = w->ok && eg_buf_lit(w->b, "{");
    put_string(w, &f, "code", eg_code_name(run->error.code));
    put_string(w, &f, "message", run->error.message);
    if (run->error_node >= 0) put_string(w, &f, "node", run->graph->nodes[run->error_node].name);
    w->ok = w->ok && eg_buf_lit(w->b, "}");
    top->sum += eg_json_hash_member("error", eg_json_hash_object(f.sum));
}

bool eg_run_write_meta_(eg_run *run, eg_buf *b, bool from_status) {
    writer w = { b, true, from_status };
    fields top = { 0, false };
    w.ok = eg_buf_lit(w.b, "{");
    put_string(&w, &top, "format", FORMAT);
    put_int(&w, &top, "version", EG_CHECKPOINT_VERSION);
    put_string(&w, &top, "graph", run->graph->hash);
    put_int(&w, &top, "graphVersion", run->graph->version);
    if (run->run_id) put_string(&w, &top, "runId", run->run_id);
    w.mute = false;
    put_string(&w, &top, "status", eg_status_name(run->status));
    put_string(&w, &top, "phase", run->phase == PHASE_ROUTES ? "routes" : "nodes");
    put_int(&w, &top, "superstep", run->superstep);
    put_int(&w, &top, "stepsThisCall", run->steps_this_call);
    put_bool(&w, &top, "interrupt", run->interrupt);
    if (run->held) put_json(&w, &top, "held", run->held);
    if (run->error.code != EG_OK) put_error(&w, &top, run);
    key(&w, &top, "tasks");
    uint64_t tasks = eg_json_hash_array_start();
    w.ok = w.ok && eg_buf_lit(w.b, "[");
    for (size_t i = 0; i < run->n_tasks; i++) {
        w.ok = w.ok && (i == 0 || eg_buf_lit(w.b, ","));
        tasks = eg_json_hash_array_add(tasks, put_task(&w, run, &run->tasks[i]));
    }
    w.ok = w.ok && eg_buf_lit(w.b, "]");
    top.sum += eg_json_hash_member("tasks", tasks);
    if (!run->patch.summed) {
        /* Added up once (after a start, a restore of format 1 or a new
         * state); from here on each write keeps the sum. */
        run->patch.sum = eg_sum_state(run->state);
        run->patch.summed = true;
    }
    EG_ASSERT(run->patch.sum == eg_sum_state(run->state));
    char sum[17];
    eg_hex64(eg_sum_checksum(eg_json_hash_object(top.sum), run->patch.sum), sum);
    return w.ok && eg_buf_lit(w.b, ",\"checksum\":\"") && eg_buf_put(w.b, sum, 16) && eg_buf_lit(w.b, "\"");
}

static eg_code checkpoint(eg_run *run, bool with_state, const char **json, size_t *len, eg_error *err) {
    eg_clear(err);
    if (!run) return eg_disposed(err, "run");
    run->out.len = 0;
    bool ok = eg_run_write_meta_(run, &run->out, false);
    if (with_state) ok = ok && eg_buf_lit(&run->out, ",\"state\":") && eg_buf_json(&run->out, run->state);
    ok = ok && eg_buf_lit(&run->out, "}");
    return eg_buf_hand_out(&run->out, ok, json, len, err);
}

eg_code eg_run_checkpoint(eg_run *run, const char **json, size_t *len, eg_error *err) {
    return checkpoint(run, true, json, len, err);
}

/* The checkpoint without its state (the checksum still covers the state):
 * a store that keeps state changes as patches adds the state back. */
eg_code eg_run_checkpoint_meta(eg_run *run, const char **json, size_t *len, eg_error *err) {
    return checkpoint(run, false, json, len, err);
}
