/* eg_error.c: code names and error messages. */
#include "eg_internal.h"

#include <stdio.h>
#include <string.h>

const char *eg_code_name(int code) {
    switch (code) {
#define EG_CODE(sym, num, name, doc) case num: return name;
#define EG_JS_CODE(sym, num, name, doc)
#define EG_STATUS(sym, num, name)
#include "eg_codes.def"
#undef EG_CODE
#undef EG_JS_CODE
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
 * is cut to this many bytes (at a UTF-8 boundary) with "..." appended. A %S
 * is text to show whole (what a node threw): only the buffer's end cuts it. */
#define EG_NAME_MAX 60

/* The length of the longest prefix of src[0..n) that fits `room` bytes and
 * does not end inside a UTF-8 sequence. */
static size_t utf8_prefix(const char *src, size_t n, size_t room) {
    if (n <= room) return n;
    size_t keep = room;
    while (keep > 0 && ((unsigned char)src[keep] & 0xC0) == 0x80) keep--;
    return keep;
}

/* Append src to out[used..cap), cutting with "..." when it does not fit. */
static size_t append(char *out, size_t cap, size_t used, const char *src, size_t n, size_t limit) {
    size_t room = cap - 1 - used;
    if (limit < room) room = limit;
    if (n <= room) {
        memcpy(out + used, src, n);
        return used + n;
    }
    size_t keep = room >= 3 ? utf8_prefix(src, n, room - 3) : 0;
    memcpy(out + used, src, keep);
    used += keep;
    size_t dots = cap - 1 - used < 3 ? cap - 1 - used : 3;
    memcpy(out + used, "...", dots);
    return used + dots;
}

eg_code eg_vfail(eg_error *err, eg_code code, const char *fmt, va_list ap) {
    if (!err) return code;
    err->code = code;
    /* Only %s, %S, %d and %zu are used in our messages; expand them by hand
     * so long names are cut before they reach the fixed buffer. */
    char *out = err->message;
    size_t cap = sizeof err->message, used = 0;
    for (const char *p = fmt; *p && used + 1 < cap; p++) {
        char number[24];
        if (p[0] == '%' && (p[1] == 's' || p[1] == 'S')) {
            const char *text = va_arg(ap, const char *);
            if (!text) text = "(null)";
            used = append(out, cap, used, text, strlen(text), p[1] == 's' ? EG_NAME_MAX : cap);
            p++;
        } else if (p[0] == '%' && (p[1] == 'd' || (p[1] == 'z' && p[2] == 'u'))) {
            if (p[1] == 'd') eg_snprintf(number, sizeof number, "%d", va_arg(ap, int));
            else { eg_snprintf(number, sizeof number, "%zu", va_arg(ap, size_t)); p++; }
            used = append(out, cap, used, number, strlen(number), cap);
            p++;
        } else {
            out[used++] = *p;
        }
    }
    out[used] = '\0';
    return code;
}

eg_code eg_fail(eg_error *err, eg_code code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    eg_vfail(err, code, fmt, ap);
    va_end(ap);
    return code;
}

eg_code eg_nomem(eg_error *err) { return eg_fail(err, EG_E_NOMEM, "out of memory"); }

eg_code eg_disposed(eg_error *err, const char *what) {
    return eg_fail(err, EG_E_DISPOSED, "the %s is NULL (freed, or never created)", what);
}

int eg_status_parse(const char *name) {
    for (int s = 0; s < EG_STATUS_COUNT_; s++) if (name && strcmp(name, eg_status_name(s)) == 0) return s;
    return -1;
}
