/* eg_error.c: code names and error messages. */
#include "eg_internal.h"

#include <stdio.h>
#include <string.h>

const char *eg_code_name(int code) {
    switch (code) {
#define EG_CODE(sym, num, name, doc) case num: return name;
#define EG_STATUS(sym, num, name)
#include "eg_codes.def"
#undef EG_CODE
#undef EG_STATUS
    default: return "UNKNOWN";
    }
}

const char *eg_status_name(int status) {
    switch (status) {
#define EG_CODE(sym, num, name, doc)
#define EG_STATUS(sym, num, name) case num: return name;
#include "eg_codes.def"
#undef EG_CODE
#undef EG_STATUS
    default: return "UNKNOWN";
    }
}

/* Messages quote names given by users; a name can be a megabyte long. Each %s
 * is cut to this many bytes (at a UTF-8 boundary) with "..." appended. */
#define EG_NAME_MAX 60

static void cut_copy(char *dst, size_t cap, const char *src) {
    size_t n = src ? strlen(src) : 0;
    if (!src) src = "(null)", n = 6;
    if (n >= cap) {
        size_t keep = cap - 4;
        while (keep > 0 && ((unsigned char)src[keep] & 0xC0) == 0x80) keep--;
        memcpy(dst, src, keep);
        memcpy(dst + keep, "...", 4);
    } else {
        memcpy(dst, src, n + 1);
    }
}

int eg_vfail(eg_error *err, int code, const char *fmt, va_list ap) {
    if (!err) return code;
    err->code = code;
    /* Only %s, %d and %zu are used in our messages; expand them by hand so
     * long names are cut before they reach the fixed buffer. */
    char *out = err->message;
    size_t cap = sizeof err->message, used = 0;
    for (const char *p = fmt; *p && used + 1 < cap; p++) {
        char piece[EG_NAME_MAX + 4];
        const char *add = piece;
        if (p[0] == '%' && p[1] == 's') {
            cut_copy(piece, sizeof piece, va_arg(ap, const char *));
            p++;
        } else if (p[0] == '%' && p[1] == 'd') {
            snprintf(piece, sizeof piece, "%d", va_arg(ap, int));
            p++;
        } else if (p[0] == '%' && p[1] == 'z' && p[2] == 'u') {
            snprintf(piece, sizeof piece, "%zu", va_arg(ap, size_t));
            p += 2;
        } else {
            piece[0] = *p;
            piece[1] = '\0';
        }
        size_t n = strlen(add);
        if (used + n >= cap) n = cap - 1 - used;
        memcpy(out + used, add, n);
        used += n;
    }
    out[used] = '\0';
    return code;
}

int eg_fail(eg_error *err, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    eg_vfail(err, code, fmt, ap);
    va_end(ap);
    return code;
}
