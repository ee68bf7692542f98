/* edgegraph.h: the C core of edgegraph, a sans-I/O agent-graph step machine.
 *
 * The core never calls out and never waits. A host (the JS driver, a test
 * harness, a Durable Object) drives a run:
 *
 *     run = eg_run_new(graph, input)            or eg_run_restore(graph, checkpoint)
 *     loop: out = eg_run_next(run)              JSON: status, state patch, tasks
 *           for each task: do it (node handler or router), then
 *           eg_run_submit(run, index, result)   or eg_run_fail(run, index, error)
 *     eg_run_checkpoint(run)                    JSON, at any step boundary
 *
 * Rules that hold for every function here:
 * - One error channel: every call that can fail returns an eg_code (EG_OK is
 *   0) and fills *err (when err is not NULL) with that code and a message
 *   naming the node, path or field at fault; on EG_OK, err->code is EG_OK and
 *   the message is empty. Objects and text come out through out-parameters,
 *   set only on EG_OK. Each function lists the codes it can return.
 * - Inputs are copied; the caller keeps ownership of what it passes in.
 * - JSON text is passed as (pointer, length); it need not be NUL-terminated.
 * - Text handed out (`const char **json`) is borrowed: owned by the object it
 *   came from and valid until the next call on that object (or its free). It
 *   is NUL-terminated, and its length is written to *len when len is not NULL.
 * - Every _new/_restore has a _free that accepts NULL. A NULL object passed
 *   to any other call is EG_E_DISPOSED, never a crash.
 * - Bad input never aborts. EG_E_NOMEM (an allocation failed) leaves the
 *   object exactly as it was before the call, so the call can be retried.
 * - Run errors are sticky: once a run's status is ERROR, only next (which
 *   reports it), checkpoint, state, resume and free are meaningful. A call's
 *   return says whether the call worked; a run's own failure (a node threw, a
 *   route matched nothing) is in its status, its error and next()'s JSON.
 */
#ifndef EDGEGRAPH_H
#define EDGEGRAPH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EG_CODE(sym, num, name, doc) EG_##sym = num,
#define EG_STATUS(sym, num, name)
typedef enum eg_code {
#include "eg_codes.def"
    EG_CODE_COUNT_
} eg_code;
#undef EG_CODE
#undef EG_STATUS

#define EG_CODE(sym, num, name, doc)
#define EG_STATUS(sym, num, name) EG_STATUS_##sym = num,
typedef enum eg_status {
#include "eg_codes.def"
    EG_STATUS_COUNT_
} eg_status;
#undef EG_CODE
#undef EG_STATUS

/* Checkpoint format version this build writes and reads. */
#define EG_CHECKPOINT_VERSION 3

/* An error: a code and a human message. Names quoted in a message are cut to
 * a readable length; the text a node failed with is kept up to the buffer's
 * size, then cut with "..." at a UTF-8 boundary (a 1 MB message must not need
 * a 1 MB allocation, and a thrown message is what the user needs to read). */
#define EG_MESSAGE_MAX 4096
typedef struct eg_error {
    eg_code code;
    char message[EG_MESSAGE_MAX];
} eg_error;

/* The name of a code ("MAX_STEPS_EXCEEDED") or status ("PAUSED"); "UNKNOWN"
 * for numbers outside the table. Static strings. */
const char *eg_code_name(int code);
const char *eg_status_name(int status);

/* Allocator used by the core and by cJSON. NULL functions restore libc.
 * Process-wide because cJSON's hooks are; set it before creating objects. */
typedef struct eg_allocator {
    void *(*malloc_fn)(size_t size);
    void *(*realloc_fn)(void *ptr, size_t size);
    void (*free_fn)(void *ptr);
} eg_allocator;
void eg_set_allocator(const eg_allocator *allocator);

/* ---- graphs ------------------------------------------------------------- */

typedef struct eg_graph eg_graph;

/* Parse and validate a graph definition (see README "Graph definition").
 * Returns EG_OK, EG_E_NOMEM, EG_E_JSON, EG_E_DEFINITION, EG_E_UNKNOWN_NODE,
 * EG_E_MISSING_ENTRY, EG_E_DUPLICATE_NODE, EG_E_UNREACHABLE, EG_E_SELF_LOOP,
 * EG_E_END_HAS_EDGES or EG_E_MISSING_EDGE. */
eg_code eg_graph_new(const char *json, size_t len, eg_graph **out, eg_error *err);
void eg_graph_free(eg_graph *graph);

/* 16 lowercase hex digits identifying the definition's content (key order
 * does not matter); "" for NULL. Borrowed from the graph. Worked out on the
 * first call (or a run's first checkpoint): the graph keeps its definition
 * until then. Never fails. */
const char *eg_graph_hash(const eg_graph *graph);

/* ---- runs --------------------------------------------------------------- */

typedef struct eg_run eg_run;

/* Start a run. `input` is the initial state (a JSON object); `options` may be
 * NULL/0 or a JSON object: {"maxSteps": N, "runId": "...", "maxResultBytes":
 * N (one node's result, default 16 MiB), "maxInputBytes": N (an initial
 * state, checkpoint or resume input, default 256 MiB), "maxStateBytes": N
 * (the whole state as JSON, default 256 MiB), "maxMessages": N (entries of
 * the state's top-level `messages` list, default 100000)}; past a limit the
 * call fails (or the run stops) with LIMIT_EXCEEDED. The graph must outlive
 * the run.
 * Returns EG_OK, EG_E_NOMEM, EG_E_DISPOSED (no graph), EG_E_INVALID_OPTIONS,
 * EG_E_LIMIT or EG_E_INVALID_INPUT (not a JSON object, or sets a key the
 * engine owns). */
eg_code eg_run_new(const eg_graph *graph, const char *input, size_t input_len,
                   const char *options, size_t options_len, eg_run **out, eg_error *err);

/* Rebuild a run from a checkpoint written by eg_run_checkpoint.
 * Returns EG_OK, EG_E_NOMEM, EG_E_DISPOSED, EG_E_INVALID_OPTIONS, EG_E_LIMIT,
 * EG_E_CHECKPOINT (truncated or edited), EG_E_CHECKPOINT_GRAPH (taken on
 * another graph) or EG_E_CHECKPOINT_VERSION. */
eg_code eg_run_restore(const eg_graph *graph, const char *checkpoint, size_t len,
                       const char *options, size_t options_len, eg_run **out, eg_error *err);

/* Rebuild a run from a bare state object as returned in a result (the seed
 * API's resume(savedState)): it continues at state.nextNode, or routes from
 * state.currentNode, or starts at the entry point.
 * Returns EG_OK, EG_E_NOMEM, EG_E_DISPOSED, EG_E_INVALID_OPTIONS, EG_E_LIMIT
 * or EG_E_INVALID_INPUT (naming the field: nextNode, currentNode). */
eg_code eg_run_from_state(const eg_graph *graph, const char *state, size_t len,
                          const char *options, size_t options_len, eg_run **out, eg_error *err);

/* Continue a PAUSED, INTERRUPTED or ERROR run: the per-call step budget starts
 * again, `user_input` (a message object, or NULL/0) is appended to `messages`
 * once, pause flags are cleared.
 * Returns EG_OK, EG_E_NOMEM, EG_E_DISPOSED, EG_E_NOT_RESUMABLE (FINISHED),
 * EG_E_LIMIT, EG_E_INVALID_INPUT (not a JSON object) or EG_E_REDUCER (the
 * messages reducer refused it). On any error the run is unchanged. */
eg_code eg_run_resume(eg_run *run, const char *user_input, size_t len, eg_error *err);

/* Write a partial state (a JSON object, e.g. {"approval": {...}}) into a run
 * that is not RUNNING, through the graph's reducers, as resume input that is
 * not a chat message. All of it or nothing.
 * Returns EG_OK, EG_E_NOMEM, EG_E_DISPOSED, EG_E_BAD_STATE (RUNNING),
 * EG_E_INVALID_INPUT, EG_E_RESERVED_KEY, EG_E_REDUCER or EG_E_READONLY. */
eg_code eg_run_apply(eg_run *run, const char *update, size_t len, eg_error *err);

/* Replace a restored run's state (a JSON object) before it continues: the
 * state a host migrated from the checkpoint's graph version to its graph's.
 * Call it before the first eg_run_next: the host's copy of the state is the
 * text it passed, so any patch not yet handed out is dropped.
 * Returns EG_OK, EG_E_NOMEM, EG_E_DISPOSED, EG_E_LIMIT (maxInputBytes) or
 * EG_E_INVALID_INPUT (not a JSON object). */
eg_code eg_run_set_state(eg_run *run, const char *state, size_t len, eg_error *err);

/* Advance the run as far as it can go without the host and describe what the
 * host must do:
 *   {"status":"RUNNING","patch":[...],"tasks":[{"index":0,"id":"3.0","kind":"node","node":"a"},...]}
 *   {"status":"PAUSED"|"FINISHED"|"INTERRUPTED","patch":[...]}
 *   {"status":"ERROR","patch":[...],"error":{"code":"...","message":"...","node":"..."}}
 * `patch` lists the state changes since the previous next(), as
 * ["set", [path...], value] | ["push", [path...], [items...]] | ["del", [path...]];
 * a host that mirrors the state applies them in order. Tasks of kind "route"
 * ask the host to run the JS router named `router` and submit the chosen
 * target name as a JSON string. The run's own failures are in the JSON.
 * Returns EG_OK, EG_E_NOMEM (the patch is kept for the next call) or
 * EG_E_DISPOSED. */
eg_code eg_run_next(eg_run *run, const char **json, size_t *len, eg_error *err);

/* eg_run_next's answer as one flat JSON array, which a host decodes without
 * an object or array per op and per task, and with few strings:
 *   [status, n, op..., task..., outcome]
 * status as its eg_status number; n ops, each "s"|"p"|"d" (set, push, del),
 * the path's length, its elements, then the value (none for "d"); each
 * pending task as five values: its index, the superstep (its id is
 * "<superstep>.<index>", "<superstep>.r<index>" for a route), its kind (0 node,
 * 1 route), its node's index in eg_run_graph_nodes, then an object of its
 * optional fields (arg, answers, keep) or 0; outcome: {"interrupts":[...]}
 * (PAUSED), {"error":{...}} (ERROR) or 0. Returns what eg_run_next returns. */
eg_code eg_run_next_flat(eg_run *run, const char **json, size_t *len, eg_error *err);

/* The nodes of the run's graph, in the order eg_run_next_flat numbers them:
 * [[name, handler, router], ...] (null where a node has none).
 * Returns EG_OK, EG_E_NOMEM or EG_E_DISPOSED. */
eg_code eg_run_graph_nodes(eg_run *run, const char **json, size_t *len, eg_error *err);

/* Hand back the result of task `index` of the current step (a JSON object for
 * nodes, a JSON string for routes). A long string may stand in it as a raw
 * segment, where a value may: the byte 0xFF (never in UTF-8, so never in JSON
 * text), the string's length in bytes as four bytes, least significant first,
 * then its UTF-8 bytes as they are, without quotes or escapes. The JS layer
 * hands long strings over this way: escaping them for JSON and reading the
 * escapes back cost more than the step. maxResultBytes counts the result as
 * JSON text (each segment escaped as JSON.stringify escapes it).
 * A result that is not acceptable (not an
 * object, a bad control field) ends the run in ERROR with the node named; the
 * call itself still returns EG_OK.
 * Returns EG_OK, EG_E_NOMEM, EG_E_DISPOSED, EG_E_BAD_STATE (not RUNNING) or
 * EG_E_BAD_TASK (index not pending); on an error the run is unchanged. */
eg_code eg_run_submit(eg_run *run, uint32_t index, const char *result, size_t len, eg_error *err);

/* Report that task `index` failed; `error` is a JSON object {"message": "..."}
 * (or any JSON; it is kept in the error as given). A node task's "keep" in it
 * is taken out and kept with the task, as eg_run_interrupt_task keeps it, and
 * handed back with the task's re-run (a resume of the failed run). After
 * eg_run_interrupt, a failure with a "keep" is a task stopped with the run:
 * it does not fail, it stays to run (the run stops INTERRUPTED), and its
 * re-run takes the keep (a subgraph's child goes on where it stopped).
 * Returns EG_OK, EG_E_NOMEM, EG_E_DISPOSED, EG_E_BAD_STATE or EG_E_BAD_TASK. */
eg_code eg_run_fail(eg_run *run, uint32_t index, const char *error, size_t len, eg_error *err);

/* Hand back, instead of a result, that node task `index` paused itself:
 * {"interrupts": [{"id": "...", "value": ...}, ...], "keep"?: any}. Ids are
 * the host's (unique in the step); "keep" is data kept with the task and
 * handed back with its re-run. When no task of the step is left pending, the
 * run pauses (PAUSED) with its finished tasks' results kept: they do not run
 * again; next() lists the pending interrupts as "interrupts":
 * [{"id","value","node"}], and so does the checkpoint (with the task).
 * Returns EG_OK, EG_E_NOMEM, EG_E_DISPOSED, EG_E_BAD_STATE, EG_E_BAD_TASK,
 * EG_E_LIMIT or EG_E_INVALID_RESULT (not that shape, or an id used twice);
 * on an error the run is unchanged. */
eg_code eg_run_interrupt_task(eg_run *run, uint32_t index, const char *json, size_t len, eg_error *err);

/* Answer the pending interrupts of a paused run, before eg_run_resume:
 * {"resume": value}. With one interrupt pending, value is its answer (unless
 * value is an object whose only key is that interrupt's id: a map); with
 * several, value must be an object of id -> answer covering each. The
 * interrupted tasks run again from the top; each is handed every answer it
 * has (next()'s task "answers": {id: value}, and "keep"), in checkpoints too.
 * Returns EG_OK, EG_E_NOMEM, EG_E_DISPOSED, EG_E_BAD_STATE (not paused),
 * EG_E_LIMIT, EG_E_INVALID_INPUT, EG_E_UNKNOWN_INTERRUPT (an id that is not
 * pending, or nothing pending) or EG_E_MISSING_ANSWER; on an error the run
 * is unchanged. */
eg_code eg_run_answer(eg_run *run, const char *json, size_t len, eg_error *err);

/* A stopped run's unfinished node tasks forget their interrupts, answers and
 * "keep": they run again from the top on resume, and ask again (a fork of a
 * paused step, as LangGraph's updateState makes one). Finished tasks keep
 * their results. Does nothing to a RUNNING run (its tasks are the host's) or NULL. */
void eg_run_forget_answers(eg_run *run);

/* The pending interrupts, [{"id","value","node"}] ([] when none).
 * Returns EG_OK, EG_E_NOMEM or EG_E_DISPOSED. */
eg_code eg_run_pending_interrupts(eg_run *run, const char **json, size_t *len, eg_error *err);

/* Replace what a run that is not RUNNING runs next (a Command's goto on
 * resume): a node name, a Send {"node", "arg"}, or a list of them, routed as
 * a router's answer would be. Not for a run stopped in the middle of a step.
 * Returns EG_OK, EG_E_NOMEM, EG_E_DISPOSED, EG_E_BAD_STATE (running,
 * finished, or in the middle of a step), EG_E_INVALID_INPUT or
 * EG_E_ROUTER_TARGET (naming the unknown node); on an error the run is
 * unchanged. */
eg_code eg_run_goto(eg_run *run, const char *json, size_t len, eg_error *err);

/* Route next as if node `node` (len bytes) had just run (updateState's
 * asNode): what would run next is dropped, and that node's edge is followed
 * on resume. A FINISHED run becomes PAUSED, to be resumed. Not for a run
 * stopped in the middle of a step. `node` naming END (the graph's end name
 * or an end node) finishes the run instead, from any stop: what it waited
 * for (pending interrupts included) is dropped.
 * Returns EG_OK, EG_E_NOMEM, EG_E_DISPOSED, EG_E_BAD_STATE or
 * EG_E_UNKNOWN_NODE (naming it); on an error the run is unchanged. */
eg_code eg_run_route_from(eg_run *run, const char *node, size_t len, eg_error *err);

/* Stop at the next step boundary with status INTERRUPTED. Tasks not yet
 * submitted stay pending and run again on resume. Cannot fail. */
void eg_run_interrupt(eg_run *run);

/* The run's checkpoint / current state as JSON.
 * Each returns EG_OK, EG_E_NOMEM or EG_E_DISPOSED. */
eg_code eg_run_checkpoint(eg_run *run, const char **json, size_t *len, eg_error *err);
/* The checkpoint without "state" (its checksum still covers the state), for
 * stores that keep the state as a base plus the patches next() hands out:
 * add "state" back and eg_run_restore verifies the whole. */
eg_code eg_run_checkpoint_meta(eg_run *run, const char **json, size_t *len, eg_error *err);
eg_code eg_run_state(eg_run *run, const char **json, size_t *len, eg_error *err);

/* A thread records the run (js/thread.js): from now on next() keeps a copy of
 * the patch ops it hands out, until eg_run_record takes them. Cannot fail. */
void eg_run_record_patches(eg_run *run);
/* The run's next thread record, in js/records.js's format 2: the checkpoint
 * without its state and the patch ops kept since the last record ("x"), or
 * with EG_RECORD_SNAPSHOT the whole state ("s"). EG_RECORD_DELTA: only the
 * checkpoint's fields from "status" on (the record is read on top of one of
 * the same run). EG_RECORD_SEALED: the value to store, checksum (seeded by
 * `seed`, the host's hash of "thread/id") and head (`parent`, < 0 for none;
 * `time` in ms; either out of 0 .. 2^53 is printed null; `depth`) included;
 * without it, the text from "m" on, which the host seals. Handing it out
 * takes the kept ops.
 * Returns EG_OK, EG_E_NOMEM or EG_E_DISPOSED. */
#define EG_RECORD_SNAPSHOT 1
#define EG_RECORD_DELTA 2
#define EG_RECORD_SEALED 4
eg_code eg_run_record(eg_run *run, int flags, uint32_t seed, double parent, double time, int depth,
                      const char **json, size_t *len, eg_error *err);

/* The run's status; ERROR for NULL. */
eg_status eg_run_status(const eg_run *run);
/* The run's sticky error (code EG_OK when none). Never NULL. */
const eg_error *eg_run_error(const eg_run *run);

void eg_run_free(eg_run *run);

/* ---- state manager (the partitioned GraphState of seed 002) ------------ */

/* eg_sm: a state manager. A state of partitions: input (read-only), scratch,
 * artifacts, memory, diagnostics, plus currentNodeId, visitedNodes and
 * iteration. Every call takes a state as JSON and hands out a new one
 * (borrowed until the next call on the manager); nothing is kept between
 * calls. Every call below but free also returns EG_E_DISPOSED for a NULL
 * manager and EG_E_NOMEM. */
typedef struct eg_sm eg_sm;

/* reducers: {"scratch.messages": "concat", ...} or NULL/0 for none.
 * Returns EG_OK, EG_E_JSON or EG_E_DEFINITION (a path or reducer name). */
eg_code eg_sm_new(const char *reducers, size_t len, eg_sm **out, eg_error *err);
void eg_sm_free(eg_sm *sm);

/* A fresh state holding `input`. Returns EG_OK or EG_E_INVALID_INPUT. */
eg_code eg_sm_initialize(eg_sm *sm, const char *input, size_t len, const char **json, size_t *out_len, eg_error *err);

/* Write `patch` (an object) into `partition` (a NUL-terminated "scratch",
 * "artifacts", "memory" or "diagnostics") with the reducers registered under
 * it. Returns EG_OK, EG_E_INVALID_INPUT, EG_E_READONLY ("input") or
 * EG_E_REDUCER. */
eg_code eg_sm_update(eg_sm *sm, const char *state, size_t len, const char *partition,
                     const char *patch, size_t patch_len, const char **json, size_t *out_len, eg_error *err);

/* currentNodeId = node, visitedNodes += node, iteration += 1.
 * Returns EG_OK or EG_E_INVALID_INPUT. */
eg_code eg_sm_visit(eg_sm *sm, const char *state, size_t len, const char *node,
                    size_t node_len, const char **json, size_t *out_len, eg_error *err);

/* Merge parallel branch states (a JSON array) into `base`: each branch's
 * delta against base (what it wrote) goes through the reducers, in branch
 * order, for scratch and artifacts; the rest of base is kept.
 * Returns EG_OK, EG_E_INVALID_INPUT, EG_E_READONLY (a branch changed input),
 * EG_E_REDUCER or EG_E_CONFLICT (different writes to one path without a
 * reducer). */
eg_code eg_sm_merge(eg_sm *sm, const char *base, size_t len, const char *branches,
                    size_t branches_len, const char **json, size_t *out_len, eg_error *err);

/* ---- chat history (IChatHistoryManager) ---------------------------------- */

/* A chat history with a token budget. Each message's token count is computed
 * once (or given by the host, e.g. from an exact tokenizer) and cached;
 * trimming walks back from the newest message only as far as the budget
 * reaches, so appending and re-trimming does not depend on history length.
 * Messages keep every field they have (tool_calls, tool_call_id, name,
 * content parts). `tokens` arguments below: a count, or -1 to estimate.
 * Every call below but free, clear and remaining also returns EG_E_NOMEM,
 * and EG_E_DISPOSED for a NULL history. */
typedef struct eg_history eg_history;

/* options: {"maxContextTokens": N} (default 8192).
 * Returns EG_OK or EG_E_INVALID_OPTIONS (not JSON, or out of range). */
eg_code eg_history_new(const char *options, size_t len, eg_history **out, eg_error *err);
void eg_history_free(eg_history *h);

/* Replace the system prompt (kept first, never trimmed); "" removes it.
 * Returns EG_OK. */
eg_code eg_history_set_system(eg_history *h, const char *text, size_t len, int tokens, eg_error *err);
/* Append a message (role user, assistant or tool; non-empty content unless
 * it carries tool_calls). An id is assigned when missing; *id (borrowed) is it.
 * Returns EG_OK or EG_E_MESSAGE (naming what is wrong, or not valid JSON). */
eg_code eg_history_add(eg_history *h, const char *message, size_t len, int tokens, const char **id, eg_error *err);
/* Replace a message's content (a string or content parts); it is recounted.
 * Returns EG_OK, EG_E_MESSAGE or EG_E_NOT_FOUND. */
eg_code eg_history_edit(eg_history *h, const char *id, size_t id_len, const char *content, size_t len, int tokens, eg_error *err);
/* Remove the messages from start_id to end_id, both included.
 * Returns EG_OK or EG_E_NOT_FOUND (an unknown id, or a reversed range). */
eg_code eg_history_delete_range(eg_history *h, const char *start_id, size_t start_len, const char *end_id, size_t end_len, eg_error *err);
/* Remove every message but the system prompt. Cannot fail. */
void eg_history_clear(eg_history *h);
/* Replace the history with a JSON array of messages; `tokens` is NULL/0 or a
 * JSON array of counts (-1 to estimate) of the same length. A system message
 * becomes the system prompt (else the current one stays). All or nothing.
 * Returns EG_OK, EG_E_MESSAGE (naming the message's index) or
 * EG_E_INVALID_INPUT (the token counts). */
eg_code eg_history_import(eg_history *h, const char *messages, size_t len, const char *tokens, size_t tokens_len, eg_error *err);

/* One message, with its id. Returns EG_OK or EG_E_NOT_FOUND. */
eg_code eg_history_get(eg_history *h, const char *id, size_t id_len, const char **json, size_t *out_len, eg_error *err);
/* Every message, with ids. Returns EG_OK. */
eg_code eg_history_export(eg_history *h, const char **json, size_t *out_len, eg_error *err);
/* {"messages": [...], "tokens": N, "dropped": N, "overBudget": bool}: the
 * system prompt, the newest messages that fit (tool calls and their results
 * together), and always the last user message. overBudget: the protected
 * messages alone exceed the budget (they are still returned). Returns EG_OK. */
eg_code eg_history_trim(eg_history *h, const char **json, size_t *out_len, eg_error *err);
/* maxContextTokens minus the trimmed history's tokens, at least 0 (0 for
 * NULL). Cannot fail: it allocates nothing. */
int eg_history_remaining(eg_history *h);
/* The default estimate for a message (a JSON object), as eg_history_add
 * would count it, into *tokens. Returns EG_OK, EG_E_NOMEM or EG_E_MESSAGE. */
eg_code eg_history_estimate(const char *message, size_t len, int *tokens, eg_error *err);

#ifdef __cplusplus
}
#endif
#endif /* EDGEGRAPH_H */
