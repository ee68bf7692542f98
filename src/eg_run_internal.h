/* eg_run_internal.h: the run structure, shared by eg_run.c, eg_checkpoint.c
 * and eg_run_limits.c. */
#ifndef EG_RUN_INTERNAL_H
#define EG_RUN_INTERNAL_H

#include "eg_internal.h"

typedef enum { TASK_NODE, TASK_ROUTE } eg_task_kind;
/* UNRESOLVED: a route the core has not evaluated yet (a paused run routes on
 * resume, so that routers see the user's answer). */
typedef enum { T_PENDING, T_DONE, T_FAILED, T_UNRESOLVED } eg_task_state;
typedef enum { PHASE_NODES, PHASE_ROUTES } eg_phase;

typedef struct eg_task {
    int node;              /* NODE: node to run; ROUTE: node whose edge to follow */
    unsigned char kind;
    unsigned char state;
    int override;          /* ROUTE: nextNodeOverride target, or EG_TARGET_NONE */
    cJSON *result;         /* DONE: node result / router answer; FAILED: the error */
    cJSON *arg;            /* NODE: the item of a map fan-out or a Send, handed to the node */
    int *targets;          /* ROUTE resolved in C: where to go */
    size_t n_targets;
} eg_task;

struct eg_run {
    const eg_graph *graph;
    int status;
    eg_error error;
    int error_node;        /* node the error is about, or -1 */
    cJSON *state;
    eg_patch patch;
    eg_task *tasks;
    size_t n_tasks;
    eg_phase phase;
    uint32_t superstep;
    int max_steps;
    int steps_this_call;
    size_t max_result_bytes;   /* one node's result; default 16 MiB */
    size_t max_input_bytes;    /* an initial state, checkpoint or resume input; default 256 MiB */
    size_t max_state_bytes;    /* the whole state as JSON; default 256 MiB */
    size_t max_messages;       /* entries of the top-level `messages` list; default 100,000 */
    size_t state_bytes_bound;  /* >= the state's JSON size: inputs and results merged so far */
    bool interrupt;
    char *run_id;
    eg_buf out;            /* the last JSON handed out (next/state/checkpoint), reused */
};

eg_run *eg_run_alloc_(const eg_graph *g, const char *options, size_t len, eg_error *err);
void eg_run_clear_tasks_(eg_run *run);
int eg_status_parse_(const char *name);
const char *eg_task_kind_name_(int kind);
const char *eg_task_state_name_(int state);
/* Size limits (eg_run_limits.c). */
void eg_run_default_limits_(eg_run *run);
/* Read maxResultBytes, maxInputBytes, maxStateBytes and maxMessages from run options. */
int eg_run_read_limits_(eg_run *run, const cJSON *options, eg_error *err);
/* After a step merged: EG_OK, EG_E_NOMEM, or EG_E_LIMIT with *node the node at
 * fault (-1 for a parallel step). `writer` is the node that wrote `messages`, or -1. */
int eg_run_check_state_(eg_run *run, int writer, int *node, eg_error *err);
/* Hand out `value` printed as JSON in run->out; NULL when memory runs out. */
const char *eg_run_print_(eg_run *run, const cJSON *value, size_t *len);

#endif
