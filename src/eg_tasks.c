/* eg_tasks.c: a run's task batches: the nodes of a step (with the item or
 * Send each one gets), and the routes that follow them. */
#include "eg_run_internal.h"

#include <stdio.h>
#include <string.h>

void eg_run_task_reset_(eg_task *t) {
    cJSON_Delete(t->result);
    t->result = NULL;
    /* t->arg stays: a task re-run is the same task with the same input. */
    eg_free(t->targets);
    t->targets = NULL;
    t->n_targets = 0;
}

/* Free what the current batch's tasks own, and zero them. */
static void empty_tasks(eg_run *run) {
    for (size_t i = 0; i < run->n_tasks; i++) {
        eg_task *t = &run->tasks[i];
        eg_run_task_reset_(t);
        cJSON_Delete(t->arg);
        cJSON_Delete(t->interrupts);
        cJSON_Delete(t->answers);
        cJSON_Delete(t->keep);
    }
    if (run->n_tasks) memset(run->tasks, 0, sizeof(eg_task) * run->n_tasks);
}

void eg_run_clear_tasks_(eg_run *run) {
    empty_tasks(run);
    eg_free(run->tasks);
    run->tasks = NULL;
    run->n_tasks = 0;
}

/* Replace the current batch with `n` fresh tasks. */
bool eg_run_new_batch_(eg_run *run, size_t n, eg_phase phase) {
    if (n && n == run->n_tasks) {
        /* As many as now (a chain's every step): the same memory, emptied. */
        empty_tasks(run);
        run->phase = phase;
        return true;
    }
    eg_task *tasks = eg_malloc(sizeof(eg_task) * (n ? n : 1));
    if (!tasks) return false;
    memset(tasks, 0, sizeof(eg_task) * (n ? n : 1));
    eg_run_clear_tasks_(run);
    run->tasks = tasks;
    run->n_tasks = n;
    run->phase = phase;
    return true;
}

void eg_run_finish_(eg_run *run) {
    eg_run_clear_tasks_(run);
    if (!eg_run_record_next_(run)) { eg_run_fatal_nomem_(run); return; }
    eg_run_set_status_(run, EG_STATUS_FINISHED);
}

/* Start the next superstep with these nodes (END already removed). args[i]
 * (may be NULL, or NULL entries) is moved into task i. */
void eg_run_schedule_(eg_run *run, const int *targets, cJSON **args, size_t n) {
    bool paused_here = run->boundary == BOUNDARY_PAUSED;
    run->boundary = BOUNDARY_NONE;
    if (n == 0) { eg_run_finish_(run); return; }
    /* targets/args may point into the current batch's memory: copy first. */
    int *copy = eg_malloc(sizeof(int) * n);
    if (!copy) { eg_run_stop_nomem_(run); return; }
    memcpy(copy, targets, sizeof(int) * n);
    if (!eg_run_new_batch_(run, n, PHASE_NODES)) { eg_free(copy); eg_run_stop_nomem_(run); return; }
    for (size_t i = 0; i < n; i++) {
        eg_task *t = &run->tasks[i];
        t->node = copy[i];
        t->kind = TASK_NODE;
        t->state = T_PENDING;
        t->override = EG_TARGET_NONE;
        if (args) { t->arg = args[i]; args[i] = NULL; }
    }
    eg_free(copy);
    run->superstep++;
    if (run->steps_this_call + (int)n > run->max_steps)
        /* The batch stays scheduled: resume continues exactly here. */
        eg_run_stop_(run, -1, EG_E_MAX_STEPS, "maxSteps (%d) reached: %d node executions in this call; the run stops before '%s'",
             run->max_steps, run->steps_this_call, eg_run_node_name_(run, run->tasks[0].node));
    else if (!paused_here && eg_run_breaks_before_(run)) {
        /* interruptBefore: the batch stays scheduled, and resume runs it. */
        eg_run_halt_(run, EG_STATUS_PAUSED);
    }
}
