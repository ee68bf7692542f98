/* eg_history_internal.h: the chat history's own structure, shared by
 * eg_history.c (keeping messages in units) and eg_history_trim.c (choosing
 * what fits the budget). Not installed. */
#ifndef EG_HISTORY_INTERNAL_H
#define EG_HISTORY_INTERNAL_H

#include "eg_internal.h"

typedef struct hmsg {
    cJSON *msg;          /* the message as given, with its id */
    const char *id;      /* borrowed from msg */
    int tokens;
    size_t unit;         /* index of the first message of its unit */
    int missing;         /* assistant with tool_calls: calls not yet answered */
    bool complete;       /* the unit may be sent (orphans and open calls may not) */
    bool is_user;
} hmsg;

struct eg_history {
    hmsg *items;
    size_t n, cap;
    cJSON *system;       /* {"role":"system","content":...,"id":...} or NULL */
    int system_tokens;
    int max_tokens;
    long last_user;      /* index of the last user message, or -1 */
    long open_unit;      /* the assistant whose calls may still be answered, or -1 */
    unsigned long next_id;
    eg_buf out;
};

#define PRIMING 3 /* every reply is primed with 3 tokens (OpenAI chat format) */

#endif
