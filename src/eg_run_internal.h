/* eg_run_internal.h: the run structure, shared by the files of the step
 * machine: eg_run.c (the API), eg_step.c (one step), eg_route.c (routing),
 * eg_tasks.c (task batches), eg_run_write.c (the run's own state writes),
 * eg_run_limits.c (size limits) and eg_checkpoint.c. Naming: the step
 * machine's private functions are eg_run_* (eg_task_* for task names) and
 * end in an underscore; the core's shared internals (eg_internal.h) have a
 * module prefix and no underscore; file-local functions are static with no
 * prefix. */
#ifndef EG_RUN_INTERNAL_H
#define EG_RUN_INTERNAL_H

#include "eg_internal.h"

typedef enum { TASK_NODE, TASK_ROUTE } eg_task_kind;
/* UNRESOLVED: a route the core has not evaluated yet (a paused run routes on
 * resume, so that routers see the user's answer). */
/* INTERRUPTED: the node called interrupt(); it runs again, from the top, once
 * its interrupts are answered (eg_interrupt.c). */
typedef enum { T_PENDING, T_DONE, T_FAILED, T_UNRESOLVED, T_INTERRUPTED } eg_task_state;
typedef enum { PHASE_NODES, PHASE_ROUTES } eg_phase;

typedef struct eg_task {
    int node;              /* NODE: node to run; ROUTE: node whose edge to follow */
    unsigned char kind;
    unsigned char state;
    bool kept;             /* NODE: done before the checkpoint it was restored from (its result applies first) */
    int override;          /* ROUTE: nextNodeOverride target, or EG_TARGET_NONE */
    cJSON *result;         /* DONE: node result / router answer; FAILED: the error */
    cJSON *arg;            /* NODE: the item of a map fan-out or a Send, handed to the node */
    int *targets;          /* ROUTE resolved in C: where to go */
    size_t n_targets;
    cJSON *interrupts;     /* NODE, INTERRUPTED: [{"id","value"}] waiting for answers */
    cJSON *answers;        /* NODE: {"<interrupt id>": answer}, handed to each re-run */
    cJSON *keep;           /* NODE: host data kept with an interrupted task (a subgraph's checkpoint) */
} eg_task;

/* A breakpoint at the step boundary a run is routing (kept in its checkpoint
 * while routers run): interruptAfter's pause, taken once the routes have
 * chosen (eg_step.c); or a pause taken there already, so the batch the
 * routes schedule runs without interruptBefore's (eg_tasks.c): one pause a
 * boundary, as LangGraph's resume. */
enum { BOUNDARY_NONE, BOUNDARY_PAUSE_AFTER_ROUTES, BOUNDARY_PAUSED };

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
    unsigned char boundary;    /* BOUNDARY_*: a breakpoint at the step boundary being routed */
    cJSON *held;           /* joins and deferred nodes waiting: {"node": ["source", ...]} (eg_join.c) */
    unsigned char *breaks; /* per node: interruptBefore / interruptAfter bits (eg_breakpoints.c) */
    bool has_breaks;
    char *run_id;
    eg_buf out;            /* the last JSON handed out (next/state/checkpoint), reused */
    bool recording;        /* a thread records the run: next() keeps its patch ops for the record */
    eg_buf record_patch;   /* the ops next() handed out since the last record, comma-separated (eg_record.c) */
    uint64_t prefix_sum;   /* when prefix_summed: the hash sum of the checkpoint's fields before "status" */
    bool prefix_summed;
};

/* Creation: allocate a run with `options`, fill it from `text` with `setup`
 * (a start, a restore, a bare state), and hand it out; on any error the
 * half-made run is freed and *out is untouched. */
typedef eg_code (*eg_run_setup_)(eg_run *run, const char *text, size_t len, eg_error *err);
eg_code eg_run_create_(const eg_graph *g, const char *options, size_t options_len, eg_run_setup_ setup,
                       const char *text, size_t len, eg_run **out, eg_error *err);
void eg_run_clear_tasks_(eg_run *run);
const char *eg_task_kind_name_(int kind);
const char *eg_task_state_name_(int state);
/* Size limits (eg_run_limits.c). */
void eg_run_default_limits_(eg_run *run);
/* Read maxResultBytes, maxInputBytes, maxStateBytes and maxMessages from run options. */
eg_code eg_run_read_limits_(eg_run *run, const cJSON *options, eg_error *err);
/* After a step merged: EG_OK, EG_E_NOMEM, or EG_E_LIMIT with *node the node at
 * fault (-1 for a parallel step). `writer` is the node that wrote `messages`, or -1. */
eg_code eg_run_check_state_(eg_run *run, int writer, int *node, eg_error *err);
/* The run's own state writes (eg_run_write.c). Each records a patch op;
 * false means memory ran out and the state is unchanged. */
extern eg_path eg_run_root_;                 /* the state's top level */
bool eg_run_put_(eg_run *run, const char *key, cJSON *value);   /* takes value */
bool eg_run_del_(eg_run *run, const char *key);
void eg_run_set_status_(eg_run *run, int status);      /* memory running out stops the run */
bool eg_run_write_status_(eg_run *run, int status);    /* state.status only; false: out of memory, unchanged */
/* All or nothing for calls that write several things: begin copies the state
 * (false: out of memory); end(rc) puts it back, and the patch, when rc != 0. */
typedef struct eg_run_undo { cJSON *state; size_t patch_len; size_t patch_count; uint64_t sum; bool summed; } eg_run_undo;
bool eg_run_undo_begin_(const eg_run *run, eg_run_undo *u);
int eg_run_undo_end_(eg_run *run, eg_run_undo *u, int rc);
bool eg_run_record_next_(eg_run *run);       /* state.nextNode from the pending tasks */
void eg_run_halt_(eg_run *run, int status);   /* stop at `status` (PAUSED, INTERRUPTED) with state.nextNode recorded */
bool eg_run_record_visits_(eg_run *run);     /* partitioned: visitedNodes, iteration, currentNodeId */
/* currentNode, nextNode, stepCount, error (and the visit keys when partitioned): a node may not write them. */
bool eg_run_is_engine_key_(const eg_run *run, const char *key);
const char *eg_run_node_name_(const eg_run *run, int node);    /* END's name for -1 */
/* Stop the run with an error (sticky), recorded in state.error; memory
 * running out on the way is OUT_OF_MEMORY, never a half-written error. */
void eg_run_stop_(eg_run *run, int node, int code, const char *fmt, ...);
void eg_run_stop_with_error_(eg_run *run, int node, const eg_error *e);
/* Stop with OUT_OF_MEMORY, recorded in state.error when memory allows. */
void eg_run_stop_nomem_(eg_run *run);
/* Mark the run OUT_OF_MEMORY without writing anything (the write failed). */
void eg_run_fatal_nomem_(eg_run *run);
cJSON *eg_run_error_json_(const eg_run *run);   /* {code, message, node?} of run->error */
/* Task batches (eg_tasks.c). */
void eg_run_task_reset_(eg_task *t);   /* drop a task's result and targets; its input stays */
bool eg_run_new_batch_(eg_run *run, size_t n, eg_phase phase);
void eg_run_finish_(eg_run *run);
/* The next step's node tasks, one per target (args: each task's item or Send input, taken; may be NULL). */
void eg_run_schedule_(eg_run *run, const int *targets, cJSON **args, size_t n);
/* Routing (eg_route.c): evaluate the routes C can decide; turn resolved routes into the next batch. */
void eg_run_resolve_routes_(eg_run *run);
void eg_run_commit_routes_(eg_run *run);
/* interruptBefore / interruptAfter run options (eg_breakpoints.c). */
eg_code eg_run_read_breakpoints_(eg_run *run, const cJSON *options, eg_error *err);
bool eg_run_breaks_before_(const eg_run *run);   /* the current batch holds a node to pause before */
bool eg_run_breaks_after_(const eg_run *run);    /* the current batch ran a node to pause after */
/* Interrupts (eg_interrupt.c). */
bool eg_run_has_interrupts_(const eg_run *run);
/* A checkpoint's task fields interrupts, answers and keep, checked. */
eg_code eg_run_load_interrupts_(eg_task *t, const cJSON *task, eg_error *err);
/* [{"id","value","node"}] of every pending interrupt; NULL when memory runs out. */
cJSON *eg_run_interrupts_json_(const eg_run *run);
/* Joins and deferred nodes (eg_join.c): filter the next batch; false: out of memory. */
bool eg_run_held_valid_(const eg_graph *g, const cJSON *held);
bool eg_run_hold_joins_(eg_run *run, const int *sources, size_t n_sources, int *next, cJSON **args, size_t *n);
/* One step (eg_step.c): advance until the host is needed or the run stops. */
void eg_run_advance_(eg_run *run);
/* The checkpoint without its state into `b`, up to its closing brace (eg_checkpoint_write.c);
 * `from_status`: only its fields from "status" on (the checksum still covers all). */
bool eg_run_write_meta_(eg_run *run, eg_buf *b, bool from_status);
/* Keep the patch next() hands out for the next record (eg_record.c); false: out of memory, nothing kept. */
bool eg_run_keep_for_record_(eg_run *run);

#endif
