/* replay.c: the C side of the shared fixtures. */
#include "replay.h"
#include "edgegraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The allocation-failure sweep arms its failing allocator only inside core
 * calls, so the harness's own allocations never fail. */
void (*replay_arm_hook)(bool on) = NULL;
static void arm(bool on) { if (replay_arm_hook) replay_arm_hook(on); }
#define CORE(expr) (arm(true), (expr))
#define DONE() arm(false)

cJSON *replay_load(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "cannot open %s\n", path); return NULL; }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    buf[got] = '\0';
    cJSON *j = cJSON_Parse(buf);
    free(buf);
    if (!j) fprintf(stderr, "cannot parse %s\n", path);
    return j;
}

/* Printed with the core's allocator (cJSON's hooks): freed with cJSON_free. */
static char *print(const cJSON *j) { return j ? cJSON_PrintUnformatted(j) : NULL; }

/* The next scripted answer for `key`; the last one repeats. */
static const cJSON *script_next(const cJSON *fixture, cJSON *counters, const char *key) {
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(fixture, "script"), key);
    if (!cJSON_IsArray(list) || !list->child) return NULL;
    cJSON *count = cJSON_GetObjectItemCaseSensitive(counters, key);
    int i = count ? (int)count->valuedouble : 0;
    if (count) cJSON_SetNumberValue(count, i + 1);
    else cJSON_AddNumberToObject(counters, key, 1);
    int n = cJSON_GetArraySize(list);
    return cJSON_GetArrayItem(list, i < n ? i : n - 1);
}

bool replay_flat = false;
int replay_echoes = 0;

static cJSON *item(const cJSON *a, int i) { return cJSON_GetArrayItem(a, i); }

/* The task at a[at..at+4] (eg_run_next_flat) as eg_run_next's object; `nodes` from eg_run_graph_nodes. */
static cJSON *unflatten_task(const cJSON *a, int at, const cJSON *nodes) {
    cJSON *t = cJSON_CreateObject();
    int index = (int)item(a, at)->valuedouble, superstep = (int)item(a, at + 1)->valuedouble;
    bool route = item(a, at + 2)->valuedouble != 0;
    const cJSON *node = item(nodes, (int)item(a, at + 3)->valuedouble);
    char id[48];
    snprintf(id, sizeof id, "%d.%s%d", superstep, route ? "r" : "", index);
    cJSON_AddNumberToObject(t, "index", index);
    cJSON_AddStringToObject(t, "id", id);
    cJSON_AddStringToObject(t, "kind", route ? "route" : "node");
    cJSON_AddItemToObject(t, "node", cJSON_Duplicate(item(node, 0), true));
    cJSON_AddItemToObject(t, route ? "router" : "handler", cJSON_Duplicate(item(node, route ? 2 : 1), true));
    for (const cJSON *f = item(a, at + 4)->child; f; f = f->next) cJSON_AddItemToObject(t, f->string, cJSON_Duplicate(f, true));
    return t;
}

/* An "e" op's items: where they are in the result task `task` was handed (`sent`: the step's results by task index). */
static cJSON *echoed(const cJSON *a, int at, int depth, cJSON *const *sent, int n_sent) {
    int task = (int)item(a, at + depth)->valuedouble, where = (int)item(a, at + depth + 1)->valuedouble;
    const cJSON *v = task >= 0 && task < n_sent ? sent[task] : NULL;
    for (int k = 0; k < depth && v; k++) v = cJSON_GetObjectItemCaseSensitive(v, item(a, at + k)->valuestring);
    if (!v) return NULL;
    if (where == -2) return cJSON_Duplicate(v, true);
    cJSON *list = cJSON_CreateArray();
    cJSON_AddItemToArray(list, cJSON_Duplicate(where == -1 ? v : item(v, where), true));
    return list;
}

/* Apply eg_run_next's patch ops to `mirror`, as a host does (js/patch.js). */
static void apply_patch(cJSON *mirror, const cJSON *patch) {
    for (const cJSON *o = patch->child; o; o = o->next) {
        const char *op = item(o, 0)->valuestring;
        const cJSON *path = item(o, 1), *value = item(o, 2);
        cJSON *parent = mirror;
        int depth = cJSON_GetArraySize(path);
        for (int k = 0; k + 1 < depth; k++) {
            const cJSON *seg = item(path, k);
            cJSON *next = cJSON_IsNumber(seg) ? item(parent, (int)seg->valuedouble) : cJSON_GetObjectItemCaseSensitive(parent, seg->valuestring);
            if (!next) next = cJSON_AddObjectToObject(parent, seg->valuestring);
            parent = next;
        }
        const cJSON *last = item(path, depth - 1);
        if (op[0] == 'd') {
            if (cJSON_IsNumber(last)) cJSON_DeleteItemFromArray(parent, (int)last->valuedouble);
            else cJSON_DeleteItemFromObjectCaseSensitive(parent, last->valuestring);
        } else if (cJSON_IsNumber(last)) {
            cJSON_ReplaceItemInArray(parent, (int)last->valuedouble, cJSON_Duplicate(value, true));
        } else if (op[0] == 's') {
            cJSON_DeleteItemFromObjectCaseSensitive(parent, last->valuestring);
            cJSON_AddItemToObject(parent, last->valuestring, cJSON_Duplicate(value, true));
        } else {
            cJSON *list = cJSON_GetObjectItemCaseSensitive(parent, last->valuestring);
            if (!list) list = cJSON_AddArrayToObject(parent, last->valuestring);
            for (const cJSON *v = value->child; v; v = v->next) cJSON_AddItemToArray(list, cJSON_Duplicate(v, true));
        }
    }
}

/* eg_run_next_flat's array as eg_run_next's object (edgegraph.h). */
static cJSON *unflatten(eg_run *run, const char *text, size_t len, cJSON *const *sent, int n_sent) {
    cJSON *a = cJSON_ParseWithLength(text, len);
    const char *nodes_text;
    size_t nodes_len;
    cJSON *nodes = a && eg_run_graph_nodes(run, &nodes_text, &nodes_len, NULL) == EG_OK ? cJSON_ParseWithLength(nodes_text, nodes_len) : NULL;
    if (!nodes) { cJSON_Delete(a); return NULL; }
    int size = cJSON_GetArraySize(a), at = 2, n = (int)item(a, 1)->valuedouble;
    const char *status = eg_status_name((int)item(a, 0)->valuedouble);
    cJSON *out = cJSON_CreateObject(), *patch = cJSON_AddArrayToObject(out, "patch");
    cJSON_AddStringToObject(out, "status", status);
    for (int i = 0; i < n; i++) {
        const char *op = item(a, at)->valuestring;
        int depth = (int)item(a, at + 1)->valuedouble;
        cJSON *o = cJSON_CreateArray(), *path = cJSON_CreateArray();
        cJSON_AddItemToArray(o, cJSON_CreateString(op[0] == 's' ? "set" : op[0] == 'd' ? "del" : "push"));
        for (int k = 0; k < depth; k++) cJSON_AddItemToArray(path, cJSON_Duplicate(item(a, at + 2 + k), true));
        cJSON_AddItemToArray(o, path);
        at += 2 + depth;
        if (op[0] == 'e') { cJSON_AddItemToArray(o, echoed(a, at - depth, depth, sent, n_sent)); at += 2; replay_echoes++; }
        else if (op[0] != 'd') cJSON_AddItemToArray(o, cJSON_Duplicate(item(a, at++), true));
        cJSON_AddItemToArray(patch, o);
    }
    if (strcmp(status, "RUNNING") == 0) {
        cJSON *tasks = cJSON_AddArrayToObject(out, "tasks");
        for (; at + 5 < size; at += 5) cJSON_AddItemToArray(tasks, unflatten_task(a, at, nodes));
    }
    for (const cJSON *f = item(a, size - 1)->child; f; f = f->next) cJSON_AddItemToObject(out, f->string, cJSON_Duplicate(f, true));
    cJSON_Delete(a);
    cJSON_Delete(nodes);
    return out;
}

static eg_run *reopen(eg_run *run, const eg_graph *g, const char *options, size_t olen, int *api_error) {
    size_t len;
    const char *cp;
    eg_error err;
    eg_code rc = CORE(eg_run_checkpoint(run, &cp, &len, &err)); DONE();
    if (rc) { *api_error = rc; return run; }
    char *copy = malloc(len + 1);
    memcpy(copy, cp, len + 1);
    eg_run *fresh;
    rc = CORE(eg_run_restore(g, copy, len, options, olen, &fresh, &err)); DONE();
    free(copy);
    if (rc) { *api_error = rc; return run; }
    eg_run_free(run);
    return fresh;
}

/* A restored run's host starts its mirror afresh from the run's state, as js/engine.js does. */
static void remirror(replay *r, eg_run *run) {
    const char *state;
    size_t len;
    if (!r->mirror || CORE(eg_run_state(run, &state, &len, NULL)) != EG_OK) { DONE(); return; }
    DONE();
    cJSON_Delete(r->mirror);
    r->mirror = cJSON_ParseWithLength(state, len);
}

bool replay_run(cJSON *fixture, bool restore_each_step, replay *r) {
    memset(r, 0, sizeof *r);
    r->fixture = fixture;
    r->trace = cJSON_CreateArray();
    cJSON *counters = cJSON_CreateObject();
    char *graph = print(cJSON_GetObjectItemCaseSensitive(fixture, "graph"));
    char *input = print(cJSON_GetObjectItemCaseSensitive(fixture, "input"));
    char *options = print(cJSON_GetObjectItemCaseSensitive(fixture, "options"));
    size_t olen = options ? strlen(options) : 0;
    const cJSON *resumes = cJSON_GetObjectItemCaseSensitive(fixture, "resume");
    int resumed = 0;
    eg_error err;
    eg_graph *g = NULL;
    eg_run *run = NULL;
    cJSON *sent[64] = { 0 };   /* the results handed to the current step's tasks, for its echo ops */
    if (!r->trace || !counters || !graph || !input) { r->api_error = EG_E_NOMEM; goto out; }
    r->api_error = CORE(eg_graph_new(graph, strlen(graph), &g, &err)); DONE();
    if (r->api_error) goto out;
    r->api_error = CORE(eg_run_new(g, input, strlen(input), options, olen, &run, &err)); DONE();
    if (r->api_error) goto out;
    if (replay_flat) r->mirror = cJSON_Parse(input);
    for (int guard = 0; guard < 10000; guard++) {
        if (restore_each_step) { run = reopen(run, g, options, olen, &r->api_error); if (r->api_error) goto out; remirror(r, run); }
        size_t len;
        const char *text;
        r->api_error = CORE((replay_flat ? eg_run_next_flat : eg_run_next)(run, &text, &len, &err)); DONE();
        if (r->api_error) goto out;
        cJSON *out = replay_flat ? unflatten(run, text, len, sent, 64) : cJSON_ParseWithLength(text, len);
        for (int k = 0; k < 64; k++) { cJSON_Delete(sent[k]); sent[k] = NULL; }
        if (r->mirror) apply_patch(r->mirror, cJSON_GetObjectItemCaseSensitive(out, "patch"));
        if (!out) { r->api_error = EG_E_NOMEM; goto out; }
        const char *status = cJSON_GetObjectItemCaseSensitive(out, "status")->valuestring;
        if (strcmp(status, "RUNNING") != 0) {
            char entry[96];
            const cJSON *e = cJSON_GetObjectItemCaseSensitive(out, "error");
            snprintf(entry, sizeof entry, "%s%s%s", status, e ? ":" : "", e ? cJSON_GetObjectItemCaseSensitive(e, "code")->valuestring : "");
            cJSON_AddItemToArray(r->trace, cJSON_CreateString(entry));
            cJSON_Delete(r->error);
            r->error = e ? cJSON_Duplicate(e, true) : NULL;
            cJSON_Delete(out);
            const cJSON *next = cJSON_GetArrayItem(resumes, resumed);
            if (!next) break;
            resumed++;
            char *msg = print(cJSON_GetObjectItemCaseSensitive(next, "input"));
            bool has = msg && strcmp(msg, "null") != 0;
            eg_code rc = CORE(eg_run_resume(run, has ? msg : NULL, has ? strlen(msg) : 0, &err)); DONE();
            cJSON_free(msg);
            if (rc) { r->api_error = rc; goto out; }
            continue;
        }
        if (restore_each_step) {
            run = reopen(run, g, options, olen, &r->api_error);
            if (r->api_error) { cJSON_Delete(out); goto out; }
        }
        for (const cJSON *t = cJSON_GetObjectItemCaseSensitive(out, "tasks")->child; t; t = t->next) {
            const char *kind = cJSON_GetObjectItemCaseSensitive(t, "kind")->valuestring;
            const char *node = cJSON_GetObjectItemCaseSensitive(t, "node")->valuestring;
            unsigned index = (unsigned)cJSON_GetObjectItemCaseSensitive(t, "index")->valuedouble;
            char key[160];
            snprintf(key, sizeof key, "%s%s", strcmp(kind, "route") == 0 ? "router:" : "", node);
            cJSON_AddItemToArray(r->trace, cJSON_CreateString(key));
            const cJSON *answer = script_next(fixture, counters, key);
            const cJSON *throws = cJSON_GetObjectItemCaseSensitive(answer, "$throw");
            eg_code rc;
            if (throws) {
                char msg[256];
                snprintf(msg, sizeof msg, "{\"message\":\"%s\"}", throws->valuestring);
                rc = CORE(eg_run_fail(run, index, msg, strlen(msg), &err)); DONE();
            } else {
                char *res = answer ? print(answer) : NULL;
                const char *send = res ? res : "{}";
                rc = (answer && !res) ? EG_E_NOMEM : CORE(eg_run_submit(run, index, send, strlen(send), &err)); DONE();
                if (index < 64 && answer) sent[index] = cJSON_Duplicate(answer, true);
                cJSON_free(res);
            }
            if (rc) { r->api_error = rc; cJSON_Delete(out); goto out; }
        }
        cJSON_Delete(out);
    }
    size_t len;
    const char *state;
    r->api_error = CORE(eg_run_state(run, &state, &len, &err)); DONE();
    if (r->api_error) goto out;
    r->state = cJSON_ParseWithLength(state, len);
    r->status = eg_status_name(eg_run_status(run));
    if (!r->state) r->api_error = EG_E_NOMEM;
out:
    for (int k = 0; k < 64; k++) cJSON_Delete(sent[k]);
    eg_run_free(run);
    eg_graph_free(g);
    cJSON_free(graph);
    cJSON_free(input);
    cJSON_free(options);
    cJSON_Delete(counters);
    return r->api_error == 0;
}

void replay_free(replay *r) {
    cJSON_Delete(r->trace);
    cJSON_Delete(r->state);
    cJSON_Delete(r->error);
    cJSON_Delete(r->mirror);
    memset(r, 0, sizeof *r);
}

static bool same(const char *what, const cJSON *want, const cJSON *got) {
    if (cJSON_Compare(want, got, true)) return true;
    char *w = print(want), *g = got ? print(got) : NULL;
    fprintf(stderr, "    %s: expected %s\n    %*s  got      %s\n", what, w, (int)strlen(what), "", g ? g : "(nothing)");
    cJSON_free(w);
    cJSON_free(g);
    return false;
}

bool replay_matches(const replay *r) {
    const cJSON *expect = cJSON_GetObjectItemCaseSensitive(r->fixture, "expect");
    bool ok = same("trace", cJSON_GetObjectItemCaseSensitive(expect, "trace"), r->trace);
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(expect, "status");
    if (status && strcmp(status->valuestring, r->status) != 0) {
        fprintf(stderr, "    status: expected %s, got %s\n", status->valuestring, r->status);
        ok = false;
    }
    const cJSON *state = cJSON_GetObjectItemCaseSensitive(expect, "state");
    for (const cJSON *k = state ? state->child : NULL; k; k = k->next)
        ok &= same(k->string, k, cJSON_GetObjectItemCaseSensitive(r->state, k->string));
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(expect, "error");
    for (const cJSON *k = error ? error->child : NULL; k; k = k->next)
        ok &= same(k->string, k, cJSON_GetObjectItemCaseSensitive(r->error, k->string));
    /* The host's mirror, patched step by step (echo ops resolved from the results it sent), is the run's state. */
    if (r->mirror) ok &= same("mirror", r->state, r->mirror);
    const cJSON *absent = cJSON_GetObjectItemCaseSensitive(expect, "absent");
    for (const cJSON *k = absent ? absent->child : NULL; k; k = k->next)
        if (cJSON_GetObjectItemCaseSensitive(r->state, k->valuestring)) {
            fprintf(stderr, "    %s: expected absent from the state\n", k->valuestring);
            ok = false;
        }
    return ok;
}
