/* eg_checkpoint.c: a run back from its checkpoint (eg_checkpoint_write.c writes it).
 *
 * {"format":"edgegraph-checkpoint","version":3,"graph":"<hash>","graphVersion":0,"runId":...,
 *  "status":"PAUSED","phase":"nodes"|"routes","superstep":3,"stepsThisCall":2,
 *  "boundary":1|2?, "error":{...}?, "tasks":[{"node":"a","kind":"node","state":"done","result":{...}}, ...],
 *  "checksum":"<hash of everything else>", "state":{...}}
 *
 * The checksum is over the parsed values, not over the bytes, so a checkpoint
 * may be re-serialized by any JSON library (whitespace, key order, number
 * spelling) and still restore; a changed value does not. Format 3 combines
 * eg_json_hash of the fields with the state's path sum (eg_sum.c), which the
 * run keeps up to date as it writes; format 2 (the same sum with a slower
 * string hash) and format 1 (eg_json_hash of the whole) are still read.
 * Restore is pure data: nothing in a checkpoint names code to run except node
 * names, and those are looked up in the graph the host supplies: another
 * graph than the one it was taken on will do when it has every node the
 * run's work needs (renamedNodes maps old names). */
#include "eg_run_internal.h"

#include <stdio.h>
#include <string.h>

#define FORMAT "edgegraph-checkpoint"

static eg_code bad(eg_error *err, const char *why) {
    return eg_fail(err, EG_E_CHECKPOINT, "invalid checkpoint: %s", why);
}

/* The names a checkpoint needs that this graph lacks, quoted, each once: a
 * graph edited since the checkpoint restores when this stays empty. */
typedef struct missing { eg_buf names; size_t n; } missing;

static bool note_missing(missing *m, const char *name) {
    char quoted[80];
    eg_snprintf(quoted, sizeof quoted, "'%.60s'", name);
    if (m->names.data && eg_contains(m->names.data, quoted)) return true;
    m->n++;
    return (m->names.len == 0 || eg_buf_lit(&m->names, ", ")) && eg_buf_put(&m->names, quoted, strlen(quoted));
}

/* A node (or END) by the name a checkpoint gives: 0 found, 1 missing (noted),
 * -1 not a name at all or out of memory (*nomem says which). */
static int find_node(const eg_graph *g, const cJSON *name, int *out, missing *m, bool *nomem) {
    if (!cJSON_IsString(name)) return -1;
    if (strcmp(name->valuestring, g->end_name) == 0) { *out = EG_TARGET_END; return 0; }
    int i = eg_graph_find_former(g, name->valuestring);
    if (i >= 0) { *out = i; return 0; }
    *out = EG_TARGET_NONE;
    if (!note_missing(m, name->valuestring)) { *nomem = true; return -1; }
    return 1;
}

static eg_code load_task(eg_run *run, const cJSON *j, eg_task *t, missing *m, eg_error *err) {
    const eg_graph *g = run->graph;
    const cJSON *kind = eg_get(j, "kind"), *state = eg_get(j, "state"), *result = eg_get(j, "result");
    const cJSON *override = eg_get(j, "override"), *targets = eg_get(j, "targets");
    bool nomem = false;
    t->override = EG_TARGET_NONE;
    int found = find_node(g, eg_get(j, "node"), &t->node, m, &nomem);
    if (found == 0 && t->node < 0) found = -1;  /* END runs no task */
    if (found == 1) t->node = 0;                /* never used: the restore fails */
    if (found < 0) return nomem ? eg_nomem(err) : bad(err, "a task does not name a node");
    if ((kind && !cJSON_IsString(kind)) || (state && !cJSON_IsString(state))) return bad(err, "a task's kind or state is not a string");
    t->kind = kind && strcmp(kind->valuestring, "route") == 0 ? TASK_ROUTE : TASK_NODE;
    const char *s = state ? state->valuestring : "pending";
    t->state = strcmp(s, "done") == 0 ? T_DONE : strcmp(s, "failed") == 0 ? T_FAILED
             : strcmp(s, "unresolved") == 0 ? T_UNRESOLVED : strcmp(s, "interrupted") == 0 ? T_INTERRUPTED : T_PENDING;
    t->kept = t->kind == TASK_NODE && t->state == T_DONE;
    if (override && find_node(g, override, &t->override, m, &nomem) < 0)
        return nomem ? eg_nomem(err) : bad(err, "a route override is not a node name");
    if (result && !(t->result = cJSON_Duplicate(result, true))) return eg_nomem(err);
    const cJSON *arg = eg_get(j, "arg");
    if (arg && !(t->arg = cJSON_Duplicate(arg, true))) return eg_nomem(err);
    eg_code loaded = eg_run_load_interrupts_(t, j, err);
    if (loaded) return loaded;
    if (cJSON_IsArray(targets)) {
        int n = cJSON_GetArraySize(targets);
        t->targets = eg_malloc(sizeof(int) * (size_t)(n ? n : 1));
        if (!t->targets) return eg_nomem(err);
        for (const cJSON *c = targets->child; c; c = c->next) {
            int target, rc = find_node(g, c, &target, m, &nomem);
            if (rc < 0) return nomem ? eg_nomem(err) : bad(err, "a route target is not a node name");
            if (rc == 0) t->targets[t->n_targets++] = eg_graph_target(g, target);
        }
    }
    /* A host router was asked under the old edge; an edge that is no longer
     * a router's is evaluated afresh. */
    if (t->kind == TASK_ROUTE && t->state == T_PENDING && !t->result && g->nodes[t->node].edge.kind != EG_EDGE_ROUTER)
        t->state = T_UNRESOLVED;
    return EG_OK;
}

/* The node a paused run stopped on (state.currentNode, or currentNodeId in
 * the partitioned shape) is part of the work it points at. */
static int check_current_node(eg_run *run, const cJSON *state, missing *m, bool *nomem) {
    if (run->status != EG_STATUS_PAUSED) return 0;
    const cJSON *cur = eg_get(state, run->graph->partitioned ? EG_KEY_CURRENT_NODE_ID : EG_KEY_CURRENT_NODE);
    int node;
    return cJSON_IsString(cur) ? find_node(run->graph, cur, &node, m, nomem) : 0;
}

/* Formats 2 and 3 sum the state over their paths (eg_sum.c); format 1 hashed
 * the whole value. All read: threads stored before an upgrade still resume. */
static bool intact(eg_run *run, cJSON *cp, int format) {
    cJSON *sum = cJSON_DetachItemFromObjectCaseSensitive(cp, "checksum");
    char expect[17];
    if (format == 1) {
        eg_hex64(eg_json_hash(cp), expect);
    } else {
        cJSON *state = cJSON_DetachItemFromObjectCaseSensitive(cp, "state");
        uint64_t total = format == 2 ? eg_sum_state_format2(state) : eg_sum_state(state);
        /* A format 2 sum is not this build's: added up afresh at the next checkpoint. */
        run->patch.sum = total;
        run->patch.summed = format == 3 && cJSON_IsObject(state);
        eg_hex64(eg_sum_checksum(eg_json_hash(cp), total), expect);
        if (state) cJSON_AddItemToArray(cp, state);  /* back, keeping its name: no allocation */
    }
    bool ok = cJSON_IsString(sum) && strcmp(sum->valuestring, expect) == 0;
    cJSON_Delete(sum);
    return ok;
}

/* The sources that reached a join, added to `to` under this graph's names:
 * false when one is not a node name or memory runs out (*nomem). */
static bool load_sources(const eg_graph *g, cJSON *to, const cJSON *list, missing *m, bool *nomem) {
    for (const cJSON *s = list->child; s; s = s->next) {
        int node, rc = find_node(g, s, &node, m, nomem);
        if (rc < 0 || node < 0) return false;
        cJSON *name = rc == 0 ? cJSON_CreateString(g->nodes[node].name) : NULL;
        if (rc == 0 && !(name && cJSON_AddItemToArray(to, name))) { cJSON_Delete(name); *nomem = true; return false; }
    }
    return true;
}

/* What waits at joins, {"node": ["source", ...]}, under this graph's names:
 * a join or a source renamed since the checkpoint is found by its former
 * name (renamedNodes); one that is gone is noted, and the restore names it. */
static eg_code load_held(eg_run *run, const cJSON *held, missing *m, eg_error *err) {
    const eg_graph *g = run->graph;
    cJSON *now = cJSON_CreateObject();
    bool nomem = !now, ok = cJSON_IsObject(held);
    for (const cJSON *h = ok && now ? held->child : NULL; h && ok; h = h->next) {
        cJSON former = { .type = cJSON_String, .valuestring = h->string };
        int join, rc = find_node(g, &former, &join, m, &nomem);
        ok = rc >= 0 && cJSON_IsArray(h) && (rc == 1 || (join >= 0 && !eg_get(now, g->nodes[join].name)));
        if (!ok || rc == 1) continue;
        cJSON *sources = cJSON_AddArrayToObject(now, g->nodes[join].name);
        if (!sources) nomem = true;
        ok = sources && load_sources(g, sources, h, m, &nomem);
    }
    if (nomem) { cJSON_Delete(now); return eg_nomem(err); }
    if (!ok || !eg_run_held_valid_(g, now)) { cJSON_Delete(now); return bad(err, "its held joins are not {node: [source, ...]} of this graph"); }
    run->held = now;
    return EG_OK;
}

/* The names the checkpoint needs and this graph lacks: the graph's hash
 * differs, and the work the run points at is gone. */
static eg_code mismatch(const eg_run *run, const cJSON *graph, missing *m, eg_error *err) {
    return eg_fail(err, EG_E_CHECKPOINT_GRAPH, "the checkpoint was taken on graph %s; this graph (%s) has no node %S, which it needs "
                   "(a renamed node: list its old name in renamedNodes)", cJSON_IsString(graph) ? graph->valuestring : "?",
                   eg_graph_hash(run->graph), m->names.data);
}

static eg_code load(eg_run *run, cJSON *cp, missing *m, eg_error *err) {
    if (!cJSON_IsObject(cp) || !cJSON_IsString(eg_get(cp, "format")) || strcmp(eg_get(cp, "format")->valuestring, FORMAT) != 0)
        return bad(err, "not an edgegraph checkpoint (no \"format\": \"" FORMAT "\")");
    const cJSON *version = eg_get(cp, "version");
    double number = cJSON_IsNumber(version) ? version->valuedouble : 0;
    int format = number == 1 || number == 2 || number == 3 ? (int)number : 0;
    if (!format) {
        /* Formatted as text: casting an arbitrary double to int is undefined. */
        char v[32];
        eg_number_format(v, sizeof v, cJSON_IsNumber(version) ? version->valuedouble : -1.0, 6);
        return eg_fail(err, EG_E_CHECKPOINT_VERSION, "checkpoint format version %s is not supported (this build reads versions 1 to %d)", v, EG_CHECKPOINT_VERSION);
    }
    if (!intact(run, cp, format)) return bad(err, "its checksum does not match its content (edited or damaged)");
    const cJSON *graph = eg_get(cp, "graph");
    if (!cJSON_IsString(graph)) return bad(err, "it names no graph");
    const cJSON *status = eg_get(cp, "status"), *phase = eg_get(cp, "phase"), *tasks = eg_get(cp, "tasks");
    const cJSON *superstep = eg_get(cp, "superstep"), *steps = eg_get(cp, "stepsThisCall"), *id = eg_get(cp, "runId");
    run->status = cJSON_IsString(status) ? eg_status_parse(status->valuestring) : -1;
    if (run->status < 0 || !cJSON_IsString(phase) || !cJSON_IsArray(tasks) || !cJSON_IsNumber(superstep) || !cJSON_IsNumber(steps))
        return bad(err, "a required field is missing or of the wrong type");
    /* A checkpoint may be forged with a valid checksum: check ranges before converting. */
    if (!(superstep->valuedouble >= 0 && superstep->valuedouble <= 4294967295.0) || !(steps->valuedouble >= 0 && steps->valuedouble <= 1e9))
        return bad(err, "superstep or stepsThisCall is out of range");
    run->phase = strcmp(phase->valuestring, "routes") == 0 ? PHASE_ROUTES : PHASE_NODES;
    run->superstep = (uint32_t)superstep->valuedouble;
    run->steps_this_call = (int)steps->valuedouble;
    run->interrupt = cJSON_IsTrue(eg_get(cp, "interrupt"));
    const cJSON *boundary = eg_get(cp, "boundary");
    if (cJSON_IsNumber(boundary)) run->boundary = boundary->valuedouble == 1 ? BOUNDARY_PAUSE_AFTER_ROUTES : boundary->valuedouble == 2 ? BOUNDARY_PAUSED : BOUNDARY_NONE;
    const cJSON *held = eg_get(cp, "held");
    if (held) {
        eg_code rc = load_held(run, held, m, err);
        if (rc) return rc;
    }
    if (cJSON_IsString(id) && !run->run_id && !(run->run_id = eg_strdup(id->valuestring))) return eg_nomem(err);
    const cJSON *e = eg_get(cp, "error");
    if (e) {
        const cJSON *code = eg_get(e, "code"), *msg = eg_get(e, "message");
        run->error.code = EG_E_NODE_FAILED;
        for (int c = 0; c < EG_CODE_COUNT_; c++)
            if (cJSON_IsString(code) && strcmp(code->valuestring, eg_code_name(c)) == 0) run->error.code = c;
        /* %S: the message as the run had it (a node's text is not cut like a name). */
        eg_fail(&run->error, run->error.code, "%S", cJSON_IsString(msg) ? msg->valuestring : "");
        /* Which node failed is for the message; a node renamed or gone since leaves it out. */
        const cJSON *node = eg_get(e, "node");
        if (cJSON_IsString(node)) run->error_node = eg_graph_find_former(run->graph, node->valuestring);
    }
    int n = cJSON_GetArraySize(tasks);
    run->tasks = eg_malloc(sizeof(eg_task) * (size_t)(n ? n : 1));
    if (!run->tasks) return eg_nomem(err);
    memset(run->tasks, 0, sizeof(eg_task) * (size_t)(n ? n : 1));
    for (const cJSON *t = tasks->child; t; t = t->next) {
        eg_code rc = load_task(run, t, &run->tasks[run->n_tasks], m, err);
        run->n_tasks++;
        if (rc) return rc;
    }
    bool nomem = false;
    cJSON *state = cJSON_DetachItemFromObjectCaseSensitive(cp, "state");
    if (!cJSON_IsObject(state)) { cJSON_Delete(state); return bad(err, "its state is not an object"); }
    run->state = state;
    if (check_current_node(run, state, m, &nomem) < 0 && nomem) return eg_nomem(err);
    return m->n ? mismatch(run, graph, m, err) : EG_OK;
}

static eg_code restore(eg_run *run, const char *checkpoint, size_t len, eg_error *err) {
    if (len > run->max_input_bytes)
        return eg_fail(err, EG_E_LIMIT, "the checkpoint is %zu bytes, more than maxInputBytes (%zu)", len, run->max_input_bytes);
    bool nomem;
    cJSON *cp = eg_parse_ex(checkpoint, len, &nomem);
    missing m = { { 0 }, 0 };
    eg_code rc = cp ? load(run, cp, &m, err) : nomem ? eg_nomem(err) : bad(err, "it is not valid JSON (truncated?)");
    eg_buf_free(&m.names);
    cJSON_Delete(cp);
    run->state_bytes_bound = len; /* the state and any finished tasks' results are inside */
    return rc;
}

eg_code eg_run_restore(const eg_graph *g, const char *checkpoint, size_t len,
                       const char *options, size_t options_len, eg_run **out, eg_error *err) {
    return eg_run_create_(g, options, options_len, restore, checkpoint, len, out, err);
}

eg_code eg_run_set_state(eg_run *run, const char *state, size_t len, eg_error *err) {
    eg_clear(err);
    if (!run) return eg_disposed(err, "run");
    if (len > run->max_input_bytes)
        return eg_fail(err, EG_E_LIMIT, "the migrated state is %zu bytes, more than maxInputBytes (%zu)", len, run->max_input_bytes);
    cJSON *s;
    eg_code rc = eg_parse_object(state, len, EG_E_INVALID_INPUT, "the migrated state", &s, err);
    if (rc) return rc;
    cJSON_Delete(run->state);
    run->state = s;
    run->state_bytes_bound += len;
    run->patch.text.len = 0;
    if (run->patch.text.data) run->patch.text.data[0] = '\0';
    run->patch.count = 0;
    run->patch.summed = false;  /* added up afresh at the next checkpoint */
    return EG_OK;
}
