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
 * - Inputs are copied; the caller keeps ownership of what it passes in.
 * - JSON text is passed as (pointer, length); it need not be NUL-terminated.
 * - A returned `const char *` is borrowed: owned by the object it came from and
 *   valid until the next call on that object (or its free). Returned JSON is
 *   NUL-terminated and its length is written to *len when len is not NULL.
 * - Every _new/_restore has a _free that accepts NULL.
 * - Errors are values (a stable code from eg_codes.def and a message naming the
 *   node, path or field at fault). Bad input never aborts; an allocation
 *   failure is EG_E_NOMEM and leaves the object as it was before the call.
 * - Run errors are sticky: once a run's status is ERROR, only next (which
 *   reports it), checkpoint, state, resume and free are meaningful.
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
#define EG_CHECKPOINT_VERSION 1

/* An error: a code and a human message. Names quoted in a message are cut to
 * a readable length; the text a node failed with is kept up to the buffer's
 * size, then cut with "..." at a UTF-8 boundary (a 1 MB message must not need
 * a 1 MB allocation, and a thrown message is what the user needs to read). */
#define EG_MESSAGE_MAX 4096
typedef struct eg_error {
    int code;
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
 * Returns NULL and fills *err when the definition is invalid. */
eg_graph *eg_graph_new(const char *json, size_t len, eg_error *err);
void eg_graph_free(eg_graph *graph);

/* 16 lowercase hex digits identifying the definition's content (key order
 * does not matter). Borrowed from the graph. */
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
 * the run. */
eg_run *eg_run_new(const eg_graph *graph, const char *input, size_t input_len,
                   const char *options, size_t options_len, eg_error *err);

/* Rebuild a run from a checkpoint written by eg_run_checkpoint. Fails with
 * INVALID_CHECKPOINT (truncated or edited), CHECKPOINT_GRAPH_MISMATCH or
 * CHECKPOINT_VERSION. */
eg_run *eg_run_restore(const eg_graph *graph, const char *checkpoint, size_t len,
                       const char *options, size_t options_len, eg_error *err);

/* Rebuild a run from a bare state object as returned in a result (the seed
 * API's resume(savedState)): it continues at state.nextNode, or routes from
 * state.currentNode, or starts at the entry point. */
eg_run *eg_run_from_state(const eg_graph *graph, const char *state, size_t len,
                          const char *options, size_t options_len, eg_error *err);

/* Continue a PAUSED, INTERRUPTED or ERROR run: the per-call step budget starts
 * again, `user_input` (a message object, or NULL/0) is appended to `messages`
 * once, pause flags are cleared. FINISHED runs give NOT_RESUMABLE. */
int eg_run_resume(eg_run *run, const char *user_input, size_t len);

/* Write a partial state (a JSON object, e.g. {"approval": {...}}) into a run
 * that is not RUNNING, through the graph's reducers, as resume input that is
 * not a chat message. Engine-owned keys are RESERVED_KEY. */
int eg_run_apply(eg_run *run, const char *update, size_t len, eg_error *err);

/* Advance the run as far as it can go without the host and describe what the
 * host must do:
 *   {"status":"RUNNING","patch":[...],"tasks":[{"index":0,"id":"3.0","kind":"node","node":"a"},...]}
 *   {"status":"PAUSED"|"FINISHED"|"INTERRUPTED","patch":[...]}
 *   {"status":"ERROR","patch":[...],"error":{"code":"...","message":"...","node":"..."}}
 * `patch` lists the state changes since the previous next(), as
 * ["set", [path...], value] | ["push", [path...], [items...]] | ["del", [path...]];
 * a host that mirrors the state applies them in order. Tasks of kind "route"
 * ask the host to run the JS router named `router` and submit the chosen
 * target name as a JSON string. Borrowed until the next call on the run. */
const char *eg_run_next(eg_run *run, size_t *len);

/* Hand back the result of task `index` of the current step (a JSON object for
 * nodes, a JSON string for routes). Returns EG_OK, or UNKNOWN_TASK for an
 * index that is not pending (the run is unchanged), or EG_E_NOMEM. A result
 * that is not acceptable (not an object, a bad control field) ends the run in
 * ERROR with the node named; the call still returns EG_OK. */
int eg_run_submit(eg_run *run, uint32_t index, const char *result, size_t len);

/* Report that task `index` failed; `error` is a JSON object {"message": "..."}
 * (or any JSON; it is kept in the error as given). */
int eg_run_fail(eg_run *run, uint32_t index, const char *error, size_t len);

/* Stop at the next step boundary with status INTERRUPTED. Tasks not yet
 * submitted stay pending and run again on resume. */
void eg_run_interrupt(eg_run *run);

/* The run's checkpoint / current state as JSON. Borrowed. NULL on EG_E_NOMEM. */
const char *eg_run_checkpoint(eg_run *run, size_t *len);
/* The checkpoint without "state" (its checksum still covers the state), for
 * stores that keep the state as a base plus the patches next() hands out:
 * add "state" back and eg_run_restore verifies the whole. */
const char *eg_run_checkpoint_meta(eg_run *run, size_t *len);
const char *eg_run_state(eg_run *run, size_t *len);

int eg_run_status(const eg_run *run);
/* The run's sticky error (code EG_OK when none). */
const eg_error *eg_run_error(const eg_run *run);

void eg_run_free(eg_run *run);

/* ---- state manager (the partitioned GraphState of seed 002) ------------ */

/* A state of partitions: input (read-only), scratch, artifacts, memory,
 * diagnostics, plus currentNodeId, visitedNodes and iteration. Every call
 * takes a state as JSON and hands out a new one (borrowed until the next
 * call on the manager); nothing is kept between calls. */
typedef struct eg_state_manager eg_state_manager;

/* reducers: {"scratch.messages": "concat", ...} or NULL/0 for none. */
eg_state_manager *eg_sm_new(const char *reducers, size_t len, eg_error *err);
void eg_sm_free(eg_state_manager *sm);

/* A fresh state holding `input`. */
const char *eg_sm_initialize(eg_state_manager *sm, const char *input, size_t len, size_t *out_len, eg_error *err);

/* Write `patch` (an object) into `partition` ("scratch", "artifacts",
 * "memory" or "diagnostics") with the reducers registered under it.
 * "input" is READONLY_PATH. */
const char *eg_sm_update(eg_state_manager *sm, const char *state, size_t len, const char *partition,
                         const char *patch, size_t patch_len, size_t *out_len, eg_error *err);

/* currentNodeId = node, visitedNodes += node, iteration += 1. */
const char *eg_sm_visit(eg_state_manager *sm, const char *state, size_t len, const char *node,
                        size_t node_len, size_t *out_len, eg_error *err);

/* Merge parallel branch states (a JSON array) into `base`: each branch's
 * delta against base (what it wrote) goes through the reducers, in branch
 * order, for scratch and artifacts; the rest of base is kept. Different
 * writes to one path without a reducer: PARALLEL_CONFLICT. */
const char *eg_sm_merge(eg_state_manager *sm, const char *base, size_t len, const char *branches,
                        size_t branches_len, size_t *out_len, eg_error *err);

/* ---- chat history (IChatHistoryManager) ---------------------------------- */

/* A chat history with a token budget. Each message's token count is computed
 * once (or given by the host, e.g. from an exact tokenizer) and cached;
 * trimming walks back from the newest message only as far as the budget
 * reaches, so appending and re-trimming does not depend on history length.
 * Messages keep every field they have (tool_calls, tool_call_id, name,
 * content parts). `tokens` arguments below: a count, or -1 to estimate. */
typedef struct eg_history eg_history;
/* A NULL history (freed, or never created) is an error, not a crash: the calls
 * that take an eg_error return EG_E_DISPOSED; the others return NULL, 0 or nothing.
 * The same holds for a NULL eg_state_manager. */

/* options: {"maxContextTokens": N} (default 8192). */
eg_history *eg_history_new(const char *options, size_t len, eg_error *err);
void eg_history_free(eg_history *h);

/* Replace the system prompt (kept first, never trimmed); "" removes it. */
int eg_history_set_system(eg_history *h, const char *text, size_t len, int tokens, eg_error *err);
/* Append a message (role user, assistant or tool; non-empty content unless
 * it carries tool_calls). An id is assigned when missing; *id (borrowed) is it. */
int eg_history_add(eg_history *h, const char *message, size_t len, int tokens, const char **id, eg_error *err);
/* Replace a message's content (a string or content parts); it is recounted. */
int eg_history_edit(eg_history *h, const char *id, size_t id_len, const char *content, size_t len, int tokens, eg_error *err);
/* Remove the messages from start_id to end_id, both included. */
int eg_history_delete_range(eg_history *h, const char *start_id, size_t start_len, const char *end_id, size_t end_len, eg_error *err);
/* Remove every message but the system prompt. */
void eg_history_clear(eg_history *h);
/* Replace the history with a JSON array of messages; `tokens` is NULL/0 or a
 * JSON array of counts (-1 to estimate) of the same length. A system message
 * becomes the system prompt. */
int eg_history_import(eg_history *h, const char *messages, size_t len, const char *tokens, size_t tokens_len, eg_error *err);

/* Borrowed JSON (until the next call on h): */
const char *eg_history_get(eg_history *h, const char *id, size_t id_len, size_t *out_len);   /* NULL: none */
const char *eg_history_export(eg_history *h, size_t *out_len);                               /* all, with ids */
/* {"messages": [...], "tokens": N, "dropped": N, "overBudget": bool}: the
 * system prompt, the newest messages that fit (tool calls and their results
 * together), and always the last user message. overBudget: the protected
 * messages alone exceed the budget (they are still returned). */
const char *eg_history_trim(eg_history *h, size_t *out_len);
/* maxContextTokens minus the trimmed history's tokens, at least 0. */
int eg_history_remaining(eg_history *h);
/* The default estimate for a message (JSON), as eg_history_add would count it. */
int eg_history_estimate(const char *message, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* EDGEGRAPH_H */
