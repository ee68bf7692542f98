/* replay.h: drive a run from a shared fixture (tests/fixtures/NAME.json) with
 * scripted node and router results, the way the JS tests do with handlers. */
#ifndef REPLAY_H
#define REPLAY_H

#include "cJSON.h"
#include <stdbool.h>

typedef struct replay {
    cJSON *fixture;      /* the parsed fixture file */
    cJSON *trace;        /* array of strings: node names, "router:x", statuses */
    cJSON *state;        /* final state */
    cJSON *error;        /* the error the last stop reported, or NULL */
    const char *status;  /* final status name (static) */
    int api_error;       /* an eg_* call failed (e.g. EG_E_NOMEM); 0 if none */
    cJSON *mirror;       /* replay_flat: the input with every step's patch applied, as a host's mirror */
} replay;

/* When true, replay_run reads each step with eg_run_next_flat, turned back
 * into eg_run_next's object form. */
extern bool replay_flat;
/* How many echo ops ("e": a push of a task's own result) the flat steps held. */
extern int replay_echoes;

/* Load a fixture file; NULL on error (printed). */
cJSON *replay_load(const char *path);
/* Run it. restore_each_step: checkpoint, free and restore the run at every
 * step boundary. Returns false if an API call failed (r->api_error says which). */
bool replay_run(cJSON *fixture, bool restore_each_step, replay *r);
void replay_free(replay *r);
/* Compare with fixture.expect; prints differences; true when all match. */
bool replay_matches(const replay *r);

#endif
