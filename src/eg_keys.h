/* eg_keys.h: the state keys the engine gives a meaning, in one place.
 *
 * Controls are read from a node's result and steer the run; nextNodeOverride,
 * shouldEnd and status are never written to the state. The engine's own keys
 * are written by the run alone (a node that writes one gets RESERVED_KEY);
 * the partitioned shape of seed 002 adds its visit bookkeeping. */
#ifndef EG_KEYS_H
#define EG_KEYS_H

#include <stdbool.h>

/* Controls in a node's result. */
#define EG_KEY_NEXT_NODE_OVERRIDE "nextNodeOverride"
#define EG_KEY_SHOULD_END         "shouldEnd"
#define EG_KEY_SHOULD_PAUSE       "shouldPause"
#define EG_KEY_PENDING_ASK_USER   "pendingAskUser"
#define EG_KEY_STATUS             "status"

/* The run's own keys. */
#define EG_KEY_CURRENT_NODE "currentNode"
#define EG_KEY_NEXT_NODE    "nextNode"
#define EG_KEY_STEP_COUNT   "stepCount"
#define EG_KEY_ERROR        "error"

/* The partitioned shape's visit bookkeeping. */
#define EG_KEY_CURRENT_NODE_ID "currentNodeId"
#define EG_KEY_VISITED_NODES   "visitedNodes"
#define EG_KEY_ITERATION       "iteration"

/* A top-level key of a node's result that steers the run and is not stored. */
bool eg_is_control_key(const char *key);
/* A top-level key only the engine writes (the visit keys too when partitioned). */
bool eg_is_engine_key(const char *key, bool partitioned);

#endif
