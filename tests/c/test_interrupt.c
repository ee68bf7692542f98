/* test_interrupt.c: interrupts, resume goto and joins, driven as a host
 * would: tasks handed out, results, interrupts and answers handed back,
 * checkpoints taken and restored between each. */
#include "check.h"
#include "edgegraph.h"
#include "cJSON.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static eg_graph *graph_of(const char *json) {
    eg_error e;
    eg_graph *g = NULL;
    if (eg_graph_new(json, strlen(json), &g, &e)) fprintf(stderr, "  graph: %s\n", e.message);
    return g;
}

static cJSON *step(eg_run *r) {
    size_t len;
    const char *t = NULL;
    return eg_run_next(r, &t, &len, NULL) == EG_OK ? cJSON_ParseWithLength(t, len) : NULL;
}

static const char *field(const cJSON *o, const char *k) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The run through its checkpoint into a fresh run (the host's restart). */
static eg_run *reopen(eg_run *r, const eg_graph *g) {
    const char *cp;
    size_t len;
    CHECK(eg_run_checkpoint(r, &cp, &len, NULL) == EG_OK);
    char *copy = malloc(len + 1);
    memcpy(copy, cp, len + 1);
    eg_run_free(r);
    eg_run *fresh = NULL;
    eg_error e;
    if (eg_run_restore(g, copy, len, NULL, 0, &fresh, &e)) fprintf(stderr, "  restore: %s\n", e.message);
    free(copy);
    return fresh;
}

static const char parallel[] =
    "{\"nodes\":{\"s\":{},\"a\":{},\"b\":{},\"c\":{}},\"edges\":{\"s\":[\"a\",\"b\",\"c\"],\"a\":\"__end__\",\"b\":\"__end__\",\"c\":\"__end__\"},"
    "\"entryPoint\":\"s\",\"state\":{\"reducers\":{\"r\":\"concat\"}}}";

static int hand(eg_run *r, eg_code (*call)(eg_run *, uint32_t, const char *, size_t, eg_error *), unsigned i, const char *json, eg_error *e) {
    return call(r, i, json, strlen(json), e);
}

/* A run of `g` after its first task got `json` through `call` (submit, interrupt_task), and the next step. */
static eg_run *after_first(const eg_graph *g, eg_code (*call)(eg_run *, uint32_t, const char *, size_t, eg_error *), const char *json) {
    eg_run *r = NULL;
    eg_error e;
    CHECK(eg_run_new(g, "{}", 2, NULL, 0, &r, &e) == EG_OK);
    cJSON_Delete(step(r));
    CHECK(hand(r, call, 0, json, &e) == EG_OK);
    cJSON_Delete(step(r));
    return r;
}

/* A run of `parallel` at its second step, with tasks a, b and c handed out. */
static eg_run *at_the_fan_out(const eg_graph *g) { return after_first(g, eg_run_submit, "{}"); }

TEST(interrupts_pause_the_step_keep_finished_siblings_and_take_answers) {
    eg_graph *g = graph_of(parallel);
    eg_run *r = at_the_fan_out(g);
    eg_error e;
    CHECK(hand(r, eg_run_interrupt_task, 0, "{\"interrupts\":[{\"id\":\"a:2.0:0\",\"value\":\"a?\"}]}", &e) == EG_OK);
    CHECK(hand(r, eg_run_interrupt_task, 0, "{\"interrupts\":[{\"id\":\"x\",\"value\":1}]}", &e) == EG_E_BAD_TASK);
    CHECK(hand(r, eg_run_interrupt_task, 1, "{\"interrupts\":[{\"id\":\"a:2.0:0\",\"value\":1}]}", &e) == EG_E_INVALID_RESULT && strstr(e.message, "used twice"));
    CHECK(hand(r, eg_run_interrupt_task, 1, "{\"interrupts\":[]}", &e) == EG_E_INVALID_RESULT);
    CHECK(hand(r, eg_run_interrupt_task, 1, "{\"interrupts\":[{\"id\":\"b:2.1:0\",\"value\":{\"q\":2}}],\"keep\":{\"k\":1}}", &e) == EG_OK);
    CHECK(hand(r, eg_run_submit, 2, "{\"r\":[\"c\"]}", &e) == EG_OK);
    cJSON *o = step(r);
    CHECK_STR(field(o, "status"), "PAUSED");
    cJSON *list = cJSON_GetObjectItem(o, "interrupts");
    CHECK(cJSON_GetArraySize(list) == 2);
    CHECK_STR(field(cJSON_GetArrayItem(list, 1), "node"), "b");
    cJSON_Delete(o);
    r = reopen(r, g);
    if (!r) { eg_graph_free(g); return; }
    /* Bad answers change nothing. */
    CHECK(eg_run_answer(r, "{\"resume\":1}", 12, &e) == EG_E_MISSING_ANSWER && strstr(e.message, "'a:2.0:0', 'b:2.1:0'"));
    const char *partial = "{\"resume\":{\"a:2.0:0\":1}}", *unknown = "{\"resume\":{\"a:2.0:0\":1,\"b:2.1:0\":2,\"z:1.1:1\":3}}";
    CHECK(eg_run_answer(r, partial, strlen(partial), &e) == EG_E_MISSING_ANSWER && strstr(e.message, "'b:2.1:0' of node 'b'"));
    CHECK(eg_run_answer(r, unknown, strlen(unknown), &e) == EG_E_UNKNOWN_INTERRUPT && strstr(e.message, "'z:1.1:1'"));
    CHECK(eg_run_answer(r, "{}", 2, &e) == EG_E_INVALID_INPUT);
    const char *good = "{\"resume\":{\"a:2.0:0\":\"A\",\"b:2.1:0\":\"B\"}}";
    CHECK(eg_run_answer(r, good, strlen(good), &e) == EG_OK);
    CHECK(eg_run_answer(r, good, strlen(good), &e) == EG_E_UNKNOWN_INTERRUPT);   /* nothing pending now */
    r = reopen(r, g);
    CHECK(eg_run_resume(r, NULL, 0, &e) == EG_OK);
    o = step(r);
    cJSON *tasks = cJSON_GetObjectItem(o, "tasks");
    CHECK(cJSON_GetArraySize(tasks) == 2);                  /* c finished: it does not run again */
    CHECK_STR(field(cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, 0), "answers"), "a:2.0:0"), "A");
    CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, 1), "keep"), "k") != NULL);
    cJSON_Delete(o);
    CHECK(hand(r, eg_run_submit, 0, "{\"r\":[\"a\"]}", &e) == EG_OK);
    CHECK(hand(r, eg_run_submit, 1, "{\"r\":[\"b\"]}", &e) == EG_OK);
    cJSON_Delete(step(r));
    CHECK(eg_run_status(r) == EG_STATUS_FINISHED);
    const char *state;
    /* c's result, kept from before the pause, applies first; then a's and b's, in branch order. */
    CHECK(eg_run_state(r, &state, NULL, NULL) == EG_OK && strstr(state, "\"r\":[\"c\",\"a\",\"b\"]"));
    eg_run_free(r);
    eg_graph_free(g);
}

/* Answer a paused one-task run with `answer`, resume it, and check the answers its task is handed. */
static void answer_and_check(eg_run *r, const char *answer, const char *expect) {
    eg_error e;
    CHECK(eg_run_answer(r, answer, strlen(answer), &e) == EG_OK);
    CHECK(eg_run_resume(r, NULL, 0, &e) == EG_OK);
    cJSON *o = step(r);
    char *text = cJSON_PrintUnformatted(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "tasks"), 0), "answers"));
    CHECK_STR(text, expect);
    free(text);
    cJSON_Delete(o);
}

TEST(one_pending_interrupt_takes_a_value_or_its_id) {
    eg_graph *g = graph_of("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\"}");
    for (int round = 0; round < 2; round++) {
        eg_run *r = NULL;
        eg_error e;
        CHECK(eg_run_new(g, "{}", 2, NULL, 0, &r, &e) == EG_OK);
        cJSON_Delete(step(r));
        CHECK(hand(r, eg_run_interrupt_task, 0, "{\"interrupts\":[{\"id\":\"a:1.0:0\",\"value\":null}]}", &e) == EG_OK);
        cJSON_Delete(step(r));
        const char *pending;
        CHECK(eg_run_pending_interrupts(r, &pending, NULL, &e) == EG_OK && strstr(pending, "\"a:1.0:0\""));
        answer_and_check(r, round ? "{\"resume\":{\"a:1.0:0\":{\"x\":1}}}" : "{\"resume\":{\"x\":1}}", "{\"a:1.0:0\":{\"x\":1}}");
        eg_run_free(r);
    }
    eg_graph_free(g);
}

TEST(route_from_end_finishes_a_paused_run_dropping_its_interrupts) {
    eg_graph *g = graph_of("{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\"}");
    eg_run *r = after_first(g, eg_run_interrupt_task, "{\"interrupts\":[{\"id\":\"a:1.0:0\",\"value\":null}]}");
    eg_error e;
    CHECK(eg_run_status(r) == EG_STATUS_PAUSED);
    r = reopen(r, g);
    if (!r) { eg_graph_free(g); return; }
    /* As a node, refused mid-step; as END, the run finishes with the update applied. */
    CHECK(eg_run_route_from(r, "a", 1, &e) == EG_E_BAD_STATE);
    CHECK(eg_run_apply(r, "{\"x\":1}", 7, &e) == EG_OK);
    CHECK(eg_run_route_from(r, "__end__", 7, &e) == EG_OK);
    CHECK(eg_run_status(r) == EG_STATUS_FINISHED);
    const char *pending;
    CHECK(eg_run_pending_interrupts(r, &pending, NULL, &e) == EG_OK && strcmp(pending, "[]") == 0);
    r = reopen(r, g);
    if (!r) { eg_graph_free(g); return; }
    cJSON *o = step(r);
    CHECK_STR(field(o, "status"), "FINISHED");
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(o, "tasks")) == 0);
    cJSON_Delete(o);
    const char *state;
    CHECK(eg_run_state(r, &state, NULL, NULL) == EG_OK && strstr(state, "\"x\":1"));
    CHECK(eg_run_resume(r, NULL, 0, &e) == EG_E_NOT_RESUMABLE);
    CHECK(eg_run_route_from(r, "nope", 4, &e) == EG_E_UNKNOWN_NODE && strstr(e.message, "'nope'"));
    eg_run_free(r);
    eg_graph_free(g);
}

/* A run of `parallel` paused at the fan-out: task `asker` interrupted, the
 * others (a, b, c) finished writing r: ["<name>"]. */
static eg_run *paused_at_the_fan_out(const eg_graph *g, unsigned asker) {
    eg_run *r = at_the_fan_out(g);
    for (unsigned i = 0; i < 3; i++) {
        char json[80];
        if (i == asker) snprintf(json, sizeof json, "{\"interrupts\":[{\"id\":\"%c:2.%u:0\",\"value\":1}]}", 'a' + i, i);
        else snprintf(json, sizeof json, "{\"r\":[\"%c\"]}", 'a' + i);
        CHECK((i == asker ? eg_run_interrupt_task : eg_run_submit)(r, i, json, strlen(json), NULL) == EG_OK);
    }
    cJSON_Delete(step(r));
    CHECK(eg_run_status(r) == EG_STATUS_PAUSED);
    return r;
}

TEST(route_from_end_mid_step_keeps_the_writes_of_finished_siblings) {
    eg_graph *g = graph_of(parallel);
    eg_run *r = paused_at_the_fan_out(g, 1);
    eg_error e;
    r = reopen(r, g);
    if (!r) { eg_graph_free(g); return; }
    CHECK(eg_run_route_from(r, "__end__", 7, &e) == EG_OK);
    CHECK(eg_run_status(r) == EG_STATUS_FINISHED);
    const char *state;
    CHECK(eg_run_state(r, &state, NULL, NULL) == EG_OK && strstr(state, "\"r\":[\"a\",\"c\"]"));
    eg_run_free(r);
    eg_graph_free(g);
}

TEST(goto_on_resume_routes_like_a_router_and_names_unknown_nodes) {
    eg_graph *g = graph_of("{\"nodes\":{\"a\":{},\"b\":{},\"c\":{\"jumpTarget\":true}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\",\"c\":\"__end__\"},\"entryPoint\":\"a\",\"state\":{\"reducers\":{}}}");
    eg_run *r = after_first(g, eg_run_submit, "{\"shouldPause\":true}");
    eg_error e;
    CHECK(eg_run_goto(r, "\"nope\"", 6, &e) == EG_E_ROUTER_TARGET && strstr(e.message, "'nope'"));
    CHECK(eg_run_goto(r, "[]", 2, &e) == EG_E_INVALID_INPUT);
    const char *to = "[\"c\",{\"node\":\"b\",\"arg\":1}]";
    CHECK(eg_run_goto(r, to, strlen(to), &e) == EG_OK);
    r = reopen(r, g);
    CHECK(eg_run_resume(r, NULL, 0, &e) == EG_OK);
    cJSON *o = step(r);
    cJSON *tasks = cJSON_GetObjectItem(o, "tasks");
    CHECK(cJSON_GetArraySize(tasks) == 2);
    CHECK_STR(field(cJSON_GetArrayItem(tasks, 0), "node"), "c");
    CHECK_STR(field(cJSON_GetArrayItem(tasks, 1), "node"), "b");
    cJSON_Delete(o);
    eg_run_free(r);
    eg_graph_free(g);
}

/* Field `key` of task `i` of the run's next step, as text; caller frees. */
static char *task_field(eg_run *r, int i, const char *key) {
    cJSON *o = step(r);
    char *text = cJSON_PrintUnformatted(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "tasks"), i), key));
    cJSON_Delete(o);
    return text;
}

TEST(forget_answers_makes_a_paused_step_ask_again_and_keeps_finished_results) {
    eg_graph *g = graph_of(parallel);
    eg_run *r = at_the_fan_out(g);
    eg_error e;
    CHECK(hand(r, eg_run_submit, 0, "{\"r\":[\"a\"]}", &e) == EG_OK);
    CHECK(hand(r, eg_run_interrupt_task, 1, "{\"interrupts\":[{\"id\":\"b:2.1:0\",\"value\":1}],\"keep\":{\"answers\":{\"b:2.1:9\":0}}}", &e) == EG_OK);
    CHECK(hand(r, eg_run_interrupt_task, 2, "{\"interrupts\":[{\"id\":\"c:2.2:0\",\"value\":2}]}", &e) == EG_OK);
    cJSON_Delete(step(r));
    CHECK(eg_run_status(r) == EG_STATUS_PAUSED);
    eg_run_forget_answers(NULL);   /* no run: nothing */
    r = reopen(r, g);
    if (!r) { eg_graph_free(g); return; }
    eg_run_forget_answers(r);
    const char *pending;
    CHECK(eg_run_pending_interrupts(r, &pending, NULL, &e) == EG_OK && strcmp(pending, "[]") == 0);
    CHECK(eg_run_status(r) == EG_STATUS_PAUSED);
    CHECK(eg_run_answer(r, "{\"resume\":1}", 12, &e) == EG_E_UNKNOWN_INTERRUPT);
    /* Through a checkpoint: b and c run again with no answers and no keep; a's result stays. */
    r = reopen(r, g);
    if (!r) { eg_graph_free(g); return; }
    CHECK(eg_run_resume(r, NULL, 0, &e) == EG_OK);
    cJSON *o = step(r);
    cJSON *tasks = cJSON_GetObjectItem(o, "tasks");
    CHECK(cJSON_GetArraySize(tasks) == 2);
    for (int i = 0; i < 2; i++) {
        const cJSON *t = cJSON_GetArrayItem(tasks, i);
        CHECK(!cJSON_GetObjectItem(t, "keep") && !cJSON_GetObjectItem(t, "answers"));
    }
    cJSON_Delete(o);
    eg_run_forget_answers(r);   /* RUNNING: nothing changes */
    CHECK(hand(r, eg_run_interrupt_task, 1, "{\"interrupts\":[{\"id\":\"b:2.1:0\",\"value\":1}]}", &e) == EG_OK);
    CHECK(hand(r, eg_run_submit, 2, "{\"r\":[\"c\"]}", &e) == EG_OK);
    cJSON_Delete(step(r));
    CHECK(eg_run_pending_interrupts(r, &pending, NULL, &e) == EG_OK && strstr(pending, "\"b:2.1:0\""));
    /* Asked again, answered, done: a's result (kept through all of it) and c's apply first, then b's. */
    r = reopen(r, g);
    if (!r) { eg_graph_free(g); return; }
    CHECK(eg_run_answer(r, "{\"resume\":3}", 12, &e) == EG_OK && eg_run_resume(r, NULL, 0, &e) == EG_OK);
    char *answers = task_field(r, 0, "answers");
    CHECK_STR(answers, "{\"b:2.1:0\":3}");
    free(answers);
    CHECK(hand(r, eg_run_submit, 1, "{\"r\":[\"b\"]}", &e) == EG_OK);
    cJSON_Delete(step(r));
    const char *state;
    CHECK(eg_run_status(r) == EG_STATUS_FINISHED && eg_run_state(r, &state, NULL, NULL) == EG_OK && strstr(state, "\"r\":[\"a\",\"c\",\"b\"]"));
    eg_run_free(r);
    eg_graph_free(g);
}

TEST(a_failed_node_keeps_the_keep_it_failed_with_for_its_rerun) {
    eg_graph *g = graph_of("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\"}");
    eg_run *r = after_first(g, eg_run_fail, "{\"message\":\"down\",\"keep\":{\"answers\":{\"a:1.0:0\":\"v\"}}}");
    eg_error e;
    CHECK(eg_run_status(r) == EG_STATUS_ERROR);
    /* The keep is not part of the error the run reports. */
    const char *cp;
    CHECK(eg_run_checkpoint(r, &cp, NULL, NULL) == EG_OK && strstr(cp, "\"down\"") && strstr(cp, "\"keep\":{\"answers\":{\"a:1.0:0\":\"v\"}}"));
    r = reopen(r, g);
    if (!r) { eg_graph_free(g); return; }
    CHECK(eg_run_resume(r, NULL, 0, &e) == EG_OK);
    char *keep = task_field(r, 0, "keep");
    CHECK_STR(keep, "{\"answers\":{\"a:1.0:0\":\"v\"}}");
    free(keep);
    /* A failure without a keep leaves the task's. */
    CHECK(hand(r, eg_run_fail, 0, "{\"message\":\"again\"}", &e) == EG_OK);
    cJSON_Delete(step(r));
    CHECK(eg_run_resume(r, NULL, 0, &e) == EG_OK);
    keep = task_field(r, 0, "keep");
    CHECK_STR(keep, "{\"answers\":{\"a:1.0:0\":\"v\"}}");
    free(keep);
    eg_run_free(r);
    eg_graph_free(g);
}

TEST(a_task_stopped_with_the_run_and_a_keep_stays_to_run_and_its_rerun_takes_the_keep) {
    eg_graph *g = graph_of(parallel);
    eg_run *r = at_the_fan_out(g);
    eg_error e;
    CHECK(hand(r, eg_run_submit, 0, "{\"r\":[\"a\"]}", &e) == EG_OK);
    eg_run_interrupt(r);
    /* b stopped with the run, what it did kept (a subgraph's child); c stopped without one. */
    CHECK(hand(r, eg_run_fail, 1, "{\"keep\":{\"checkpoint\":\"b's child\"}}", &e) == EG_OK);
    cJSON *o = step(r);
    CHECK_STR(field(o, "status"), "INTERRUPTED");
    cJSON_Delete(o);
    const char *cp;
    CHECK(eg_run_checkpoint(r, &cp, NULL, NULL) == EG_OK && strstr(cp, "\"keep\":{\"checkpoint\":\"b's child\"}") && !strstr(cp, "\"failed\""));
    r = reopen(r, g);
    if (!r) { eg_graph_free(g); return; }
    CHECK(eg_run_resume(r, NULL, 0, &e) == EG_OK);
    o = step(r);
    /* b and c run again (a's result is kept); b's re-run takes its keep. */
    cJSON *tasks = cJSON_GetObjectItem(o, "tasks");
    CHECK(cJSON_GetArraySize(tasks) == 2);
    char *keep = cJSON_PrintUnformatted(cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, 0), "keep"));
    CHECK_STR(keep, "{\"checkpoint\":\"b's child\"}");
    free(keep);
    CHECK(!cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, 1), "keep"));
    cJSON_Delete(o);
    eg_run_free(r);
    eg_graph_free(g);
}

/* A run of `g` with `opts` whose first task (a routing node) finished: its routes are next. */
static eg_run *after_first_with(const eg_graph *g, const char *opts) {
    eg_run *r = NULL;
    CHECK(eg_run_new(g, "{}", 2, opts, strlen(opts), &r, NULL) == EG_OK);
    cJSON_Delete(step(r));
    CHECK(eg_run_submit(r, 0, "{}", 2, NULL) == EG_OK);
    return r;
}

/* interruptAfter a node whose router decides: the router answers first (the
 * pause shows where the run goes), then the run pauses; a checkpoint taken
 * while the router runs keeps that pause to come (restored without the
 * option), and resume goes where the router said without asking it again. */
TEST(interrupt_after_a_router_pauses_with_its_answer) {
    eg_graph *g = graph_of("{\"nodes\":{\"a\":{},\"x\":{},\"y\":{}},\"edges\":{\"a\":{\"router\":\"r\",\"targets\":[\"x\",\"y\"]},"
                           "\"x\":\"__end__\",\"y\":\"__end__\"},\"entryPoint\":\"a\",\"state\":{\"reducers\":{}}}");
    eg_run *r = after_first_with(g, "{\"interruptAfter\":[\"a\"]}");
    eg_error e;
    cJSON *o = step(r);
    CHECK_STR(field(o, "status"), "RUNNING");
    CHECK_STR(field(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "tasks"), 0), "kind"), "route");
    cJSON_Delete(o);
    r = reopen(r, g);
    o = step(r);
    CHECK_STR(field(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "tasks"), 0), "router"), "r");
    cJSON_Delete(o);
    CHECK(hand(r, eg_run_submit, 0, "\"y\"", &e) == EG_OK);
    o = step(r);
    CHECK_STR(field(o, "status"), "PAUSED");
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(o, "tasks")) == 0);
    cJSON_Delete(o);
    r = reopen(r, g);
    CHECK(eg_run_status(r) == EG_STATUS_PAUSED);
    CHECK(eg_run_resume(r, NULL, 0, &e) == EG_OK);
    o = step(r);
    cJSON *tasks = cJSON_GetObjectItem(o, "tasks");
    CHECK(cJSON_GetArraySize(tasks) == 1);
    CHECK_STR(field(cJSON_GetArrayItem(tasks, 0), "node"), "y");
    cJSON_Delete(o);
    CHECK(hand(r, eg_run_submit, 0, "{}", &e) == EG_OK);
    o = step(r);
    CHECK_STR(field(o, "status"), "FINISHED");
    cJSON_Delete(o);
    eg_run_free(r);
    eg_graph_free(g);
}

/* One pause a step boundary: resumed from interruptAfter's pause, the batch
 * the routes schedule runs though interruptBefore names it, and a
 * checkpoint taken while the router runs (restored with the same options)
 * keeps that; the next boundary pauses again. */
TEST(interrupt_before_after_a_pause_at_the_same_boundary_is_one_pause) {
    eg_graph *g = graph_of("{\"nodes\":{\"a\":{},\"b\":{},\"c\":{}},\"edges\":{\"a\":{\"router\":\"r\",\"targets\":[\"b\"]},"
                           "\"b\":\"c\",\"c\":\"__end__\"},\"entryPoint\":\"a\",\"state\":{\"reducers\":{}}}");
    const char *opts = "{\"interruptAfter\":[\"a\"],\"interruptBefore\":[\"b\",\"c\"]}";
    eg_run *r = after_first_with(g, opts);
    eg_error e;
    cJSON_Delete(step(r));                      /* the router's task */
    CHECK(hand(r, eg_run_submit, 0, "\"b\"", &e) == EG_OK);
    cJSON *o = step(r);
    CHECK_STR(field(o, "status"), "PAUSED");   /* after a, b chosen */
    cJSON_Delete(o);
    CHECK(eg_run_resume(r, NULL, 0, &e) == EG_OK);
    const char *cp;
    size_t len;
    CHECK(eg_run_checkpoint(r, &cp, &len, NULL) == EG_OK && strstr(cp, "\"boundary\":2"));
    char *copy = malloc(len + 1);
    memcpy(copy, cp, len + 1);
    eg_run_free(r);
    r = NULL;
    CHECK(eg_run_restore(g, copy, len, opts, strlen(opts), &r, &e) == EG_OK);
    free(copy);
    CHECK(eg_run_resume(r, NULL, 0, &e) == EG_OK);
    o = step(r);
    CHECK_STR(field(o, "status"), "RUNNING");
    CHECK_STR(field(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "tasks"), 0), "node"), "b");
    cJSON_Delete(o);
    CHECK(hand(r, eg_run_submit, 0, "{}", &e) == EG_OK);
    o = step(r);
    CHECK_STR(field(o, "status"), "PAUSED");   /* before c: b ran since */
    cJSON_Delete(o);
    eg_run_free(r);
    eg_graph_free(g);
}

/* An update of a run stopped in the middle of a step (eg_run_apply) comes
 * after the finished tasks' writes: they go into the state first and out of
 * their results, so the commit neither loses the update nor writes them
 * twice. A step that a resume runs again whole (a failure not a node's)
 * keeps its results as they were. */
TEST(apply_in_the_middle_of_a_step_comes_after_the_finished_tasks) {
    eg_graph *g = graph_of(parallel);
    eg_run *r = paused_at_the_fan_out(g, 0);
    eg_error e;
    cJSON *o;
    const char *edit = "{\"r\":[\"edit\"]}";
    CHECK(eg_run_apply(r, edit, strlen(edit), &e) == EG_OK);
    r = reopen(r, g);
    CHECK(eg_run_answer(r, "{\"resume\":1}", 12, &e) == EG_OK && eg_run_resume(r, NULL, 0, &e) == EG_OK);
    cJSON_Delete(step(r));
    CHECK(hand(r, eg_run_submit, 0, "{\"r\":[\"a\"]}", &e) == EG_OK);
    o = step(r);
    CHECK_STR(field(o, "status"), "FINISHED");
    cJSON_Delete(o);
    const char *text;
    size_t len;
    CHECK(eg_run_state(r, &text, &len, NULL) == EG_OK);
    cJSON *state = cJSON_ParseWithLength(text, len);
    char *list = cJSON_PrintUnformatted(cJSON_GetObjectItem(state, "r"));
    CHECK_STR(list, "[\"b\",\"c\",\"edit\",\"a\"]");
    free(list);
    cJSON_Delete(state);
    eg_run_free(r);

    /* A step whose commit was refused (a conflict) runs again whole: nothing settles. */
    r = at_the_fan_out(g);
    CHECK(hand(r, eg_run_submit, 0, "{\"x\":1}", &e) == EG_OK);
    CHECK(hand(r, eg_run_submit, 1, "{\"x\":2}", &e) == EG_OK);
    CHECK(hand(r, eg_run_submit, 2, "{\"r\":[\"c\"]}", &e) == EG_OK);
    o = step(r);
    CHECK_STR(field(o, "status"), "ERROR");
    cJSON_Delete(o);
    CHECK(eg_run_apply(r, edit, strlen(edit), &e) == EG_OK);
    CHECK(eg_run_state(r, &text, &len, NULL) == EG_OK);
    state = cJSON_ParseWithLength(text, len);
    list = cJSON_PrintUnformatted(cJSON_GetObjectItem(state, "r"));
    CHECK_STR(list, "[\"edit\"]");
    free(list);
    cJSON_Delete(state);
    eg_run_free(r);
    eg_graph_free(g);
}
