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

/* The members the writer prints, each as hashed and as printed with the
 * comma before it (`,"name":`): one copy a member, not an escaped string
 * between two punctuation marks, and each name hashed once a process. */
#define MEMBERS(X) \
    X(M_FORMAT, "format") X(M_VERSION, "version") X(M_GRAPH, "graph") X(M_GRAPH_VERSION, "graphVersion") \
    X(M_RUN_ID, "runId") X(M_STATUS, "status") X(M_PHASE, "phase") X(M_SUPERSTEP, "superstep") \
    X(M_STEPS, "stepsThisCall") X(M_INTERRUPT, "interrupt") X(M_HELD, "held") X(M_ERROR, "error") \
    X(M_TASKS, "tasks") X(M_CODE, "code") X(M_MESSAGE, "message") X(M_NODE, "node") X(M_KIND, "kind") \
    X(M_STATE, "state") X(M_OVERRIDE, "override") X(M_RESULT, "result") X(M_ARG, "arg") \
    X(M_INTERRUPTS, "interrupts") X(M_ANSWERS, "answers") X(M_KEEP, "keep") X(M_TARGETS, "targets") \
    X(M_BOUNDARY, "boundary")
#define AS_ENUM(id, k) id,
#define AS_NAME(id, k) { k, ",\"" k "\":", sizeof(",\"" k "\":") - 1 },
typedef enum { MEMBERS(AS_ENUM) N_MEMBERS } member;
static const struct { const char *key; const char *printed; size_t len; } names[N_MEMBERS] = { MEMBERS(AS_NAME) };
static uint64_t name_hashes[N_MEMBERS];
static bool names_hashed;

/* The hash of member `m` with a value of hash `value` (eg_json_hash_member_of). */
static uint64_t member_hash(member m, uint64_t value) {
    if (!names_hashed) {
        for (int i = 0; i < N_MEMBERS; i++) name_hashes[i] = eg_json_hash_key(names[i].key);
        names_hashed = true;
    }
    return eg_json_hash_member_of(name_hashes[m], value);
}

static void key(writer *w, fields *f, member k) {
    if (w->mute) return;
    size_t comma = f->any ? 0 : 1;   /* the first member has none */
    w->ok = w->ok && eg_buf_put(w->b, names[k].printed + comma, names[k].len - comma);
    f->any = true;
}

static void put_string(writer *w, fields *f, member k, const char *s) {
    key(w, f, k);
    w->ok = w->ok && (w->mute || eg_buf_string(w->b, s));
    f->sum += member_hash(k, eg_json_hash_string(s));
}

static void put_int(writer *w, fields *f, member k, long long n) {
    key(w, f, k);
    w->ok = w->ok && (w->mute || eg_buf_int(w->b, n));
    f->sum += member_hash(k, eg_json_hash_number((double)n));
}

static void put_bool(writer *w, fields *f, member k, bool yes) {
    key(w, f, k);
    w->ok = w->ok && (w->mute || (yes ? eg_buf_lit(w->b, "true") : eg_buf_lit(w->b, "false")));
    f->sum += member_hash(k, eg_json_hash_bool(yes));
}

static void put_json(writer *w, fields *f, member k, const cJSON *value) {
    key(w, f, k);
    w->ok = w->ok && (w->mute || eg_buf_json(w->b, value));
    f->sum += member_hash(k, eg_json_hash(value));
}

static const char *target_name(const eg_run *run, int target) {
    return target >= 0 ? run->graph->nodes[target].name : run->graph->end_name;
}

/* One task; defaults are left out (kind "node", state "pending"). Returns its hash. */
static uint64_t put_task(writer *w, const eg_run *run, const eg_task *t) {
    fields f = { 0, false };
    w->ok = w->ok && eg_buf_lit(w->b, "{");
    put_string(w, &f, M_NODE, run->graph->nodes[t->node].name);
    if (t->kind != TASK_NODE) put_string(w, &f, M_KIND, eg_task_kind_name_(t->kind));
    if (t->state != T_PENDING) put_string(w, &f, M_STATE, eg_task_state_name_(t->state));
    if (t->override != EG_TARGET_NONE && t->kind == TASK_ROUTE) put_string(w, &f, M_OVERRIDE, target_name(run, t->override));
    if (t->result) put_json(w, &f, M_RESULT, t->result);
    if (t->arg) put_json(w, &f, M_ARG, t->arg);
    if (t->interrupts) put_json(w, &f, M_INTERRUPTS, t->interrupts);
    if (t->answers) put_json(w, &f, M_ANSWERS, t->answers);
    if (t->keep) put_json(w, &f, M_KEEP, t->keep);
    if (t->n_targets) {
        key(w, &f, M_TARGETS);
        uint64_t h = eg_json_hash_array_start();
        w->ok = w->ok && eg_buf_lit(w->b, "[");
        for (size_t k = 0; k < t->n_targets; k++) {
            const char *name = target_name(run, t->targets[k]);
            w->ok = w->ok && (k == 0 || eg_buf_lit(w->b, ",")) && eg_buf_string(w->b, name);
            h = eg_json_hash_array_add(h, eg_json_hash_string(name));
        }
        w->ok = w->ok && eg_buf_lit(w->b, "]");
        f.sum += member_hash(M_TARGETS, h);
    }
    w->ok = w->ok && eg_buf_lit(w->b, "}");
    return eg_json_hash_object(f.sum);
}

static void put_error(writer *w, fields *top, const eg_run *run) {
    fields f = { 0, false };
    key(w, top, M_ERROR);
    w->ok = w->ok && eg_buf_lit(w->b, "{");
    put_string(w, &f, M_CODE, eg_code_name(run->error.code));
    put_string(w, &f, M_MESSAGE, run->error.message);
    if (run->error_node >= 0) put_string(w, &f, M_NODE, run->graph->nodes[run->error_node].name);
    w->ok = w->ok && eg_buf_lit(w->b, "}");
    top->sum += member_hash(M_ERROR, eg_json_hash_object(f.sum));
}

/* The fields before "status": the same all through a run. */
static void put_prefix(writer *w, fields *top, const eg_run *run) {
    put_string(w, top, M_FORMAT, FORMAT);
    put_int(w, top, M_VERSION, EG_CHECKPOINT_VERSION);
    put_string(w, top, M_GRAPH, eg_graph_hash(run->graph));
    put_int(w, top, M_GRAPH_VERSION, run->graph->version);
    if (run->run_id) put_string(w, top, M_RUN_ID, run->run_id);
}

bool eg_run_write_meta_(eg_run *run, eg_buf *b, bool from_status) {
    writer w = { b, true, false };
    fields top = { 0, false };
    w.ok = eg_buf_lit(w.b, "{");
    if (!from_status) put_prefix(&w, &top, run);
    else {
        /* Left out, and hashed once a run: a thread writes one of these a step. */
        if (!run->prefix_summed) {
            writer mute = { b, true, true };
            fields prefix = { 0, false };
            put_prefix(&mute, &prefix, run);
            run->prefix_sum = prefix.sum;
            run->prefix_summed = true;
        }
        top.sum = run->prefix_sum;
    }
    put_string(&w, &top, M_STATUS, eg_status_name(run->status));
    put_string(&w, &top, M_PHASE, run->phase == PHASE_ROUTES ? "routes" : "nodes");
    put_int(&w, &top, M_SUPERSTEP, run->superstep);
    put_int(&w, &top, M_STEPS, run->steps_this_call);
    put_bool(&w, &top, M_INTERRUPT, run->interrupt);
    if (run->boundary) put_int(&w, &top, M_BOUNDARY, run->boundary);
    if (run->held) put_json(&w, &top, M_HELD, run->held);
    if (run->error.code != EG_OK) put_error(&w, &top, run);
    key(&w, &top, M_TASKS);
    uint64_t tasks = eg_json_hash_array_start();
    w.ok = w.ok && eg_buf_lit(w.b, "[");
    for (size_t i = 0; i < run->n_tasks; i++) {
        w.ok = w.ok && (i == 0 || eg_buf_lit(w.b, ","));
        tasks = eg_json_hash_array_add(tasks, put_task(&w, run, &run->tasks[i]));
    }
    w.ok = w.ok && eg_buf_lit(w.b, "]");
    top.sum += member_hash(M_TASKS, tasks);
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
