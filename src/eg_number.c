/* eg_number.c: floating-point numbers as text, both ways.
 *
 * Why: in the wasm build, musl's strtod (which reads through 128-bit long
 * doubles, emulated in software) and printf's %g were a fifth of the .wasm.
 * The host already has exact conversions (Number(text), toExponential), so
 * the wasm build asks it for them (js/core-imports.js, coreImports) and
 * links neither; the native build uses libc's. Both give the same text: %g's
 * rules, correctly rounded. Integers, the common case, never leave C.
 * eg_snprintf formats the integers and texts of messages and keys by hand,
 * so the .wasm links no printf at all. */
#include "eg_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __EMSCRIPTEN__
/* Number(text) of the decimal number text[0..len). */
__attribute__((import_module("env"), import_name("eg_host_parse_number")))
extern double eg_host_parse_number(const char *text, size_t len);
/* d as printf's "%.<digits>g" writes it, into buf (cap bytes); its length.
 * digits 0: as JavaScript's String(d) writes it (eg_number_js). */
__attribute__((import_module("env"), import_name("eg_host_format_number")))
extern size_t eg_host_format_number(double d, int digits, char *buf, size_t cap);
#endif

static bool digit(char c) { return c >= '0' && c <= '9'; }

/* Length of the decimal number at the start of s, as strtod reads one:
 * [+-]digits[.digits][(e|E)[+-]digits], with a digit in the mantissa; 0 if none. */
static size_t number_length(const char *s, bool *integer) {
    size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0, digits = 0;
    while (digit(s[i])) { i++; digits++; }
    *integer = digits > 0 && digits <= 15;
    if (s[i] == '.') {
        *integer = false;
        for (i++; digit(s[i]); i++) digits++;
    }
    if (!digits) return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t e = i + 1 + (s[i + 1] == '-' || s[i + 1] == '+');
        if (digit(s[e])) {
            *integer = false;
            for (i = e; digit(s[i]); i++) {}
        }
    }
    return i;
}

double eg_number_parse(const char *s, char **end) {
    bool integer = false;
    size_t n = number_length(s, &integer);
    if (end) *end = (char *)(n ? s + n : s);
    if (!n) return 0.0;
    if (integer) { /* at most 15 digits: exact in a double */
        double v = 0.0;
        for (const char *p = s + (s[0] == '-' || s[0] == '+'); p < s + n; p++) v = v * 10.0 + (double)(*p - '0');
        return s[0] == '-' ? -v : v;
    }
#ifdef __EMSCRIPTEN__
    return eg_host_parse_number(s, n);
#else
    return strtod(s, NULL);
#endif
}

size_t eg_number_format(char *buf, size_t cap, double d, int digits) {
    if (isnan(d) || isinf(d)) {
        const char *t = isnan(d) ? (signbit(d) ? "-nan" : "nan") : (d < 0 ? "-inf" : "inf");
        size_t n = strlen(t);
        if (n < cap) memcpy(buf, t, n + 1);
        return n;
    }
#ifdef __EMSCRIPTEN__
    size_t n = eg_host_format_number(d, digits, buf, cap);
    if (n < cap) buf[n] = '\0';
    return n;
#else
    int n = snprintf(buf, cap, "%.*g", digits, d);
    return n < 0 ? cap : (size_t)n;
#endif
}

#ifndef __EMSCRIPTEN__
/* String(d)'s rules, in the native build only: the .wasm asks its host.
 * The significant digits of printf's %g text g (no sign), without leading or
 * trailing zeros, into digits; returns n, where the value is 0.<digits> x 10^n. */
static int g_digits(const char *g, char *digits, size_t *k) {
    int n = 0, point = -1, lead = 0;
    size_t len = 0;
    const char *p = g;
    for (; *p && *p != 'e'; p++) {
        if (*p == '.') { point = (int)(p - g); continue; }
        if (!len && *p == '0') { lead++; continue; }
        digits[len++] = *p;
    }
    int whole = point >= 0 ? point : (int)(p - g); /* digits before the point */
    n = whole - lead;
    if (*p == 'e') n += (int)eg_number_parse(p + 1, NULL);
    while (len > 1 && digits[len - 1] == '0') len--;
    if (!len) { digits[len++] = '0'; n = 1; }
    *k = len;
    return n;
}

static void js_text(char buf[EG_NUMBER_JS_CAP], double d) {
    if (d == 0) { memcpy(buf, "0", 2); return; } /* -0 too, as String(-0) */
    char g[EG_NUMBER_JS_CAP], digits[20];
    /* The shortest digits that read back: for a normal double every decimal of
     * at most 15 digits reads back as itself, so %.15g (which drops trailing
     * zeros) is already the shortest when it reads back; a subnormal has fewer
     * significant bits, so 5e-324 needs a search from one digit up. */
    for (int precision = fabs(d) < 2.2250738585072014e-308 ? 1 : 15; precision <= 17; precision++) {
        eg_number_format(g, sizeof g, fabs(d), precision);
        if (eg_number_parse(g, NULL) == fabs(d)) break;
    }
    size_t k = 0, o = 0;
    int n = g_digits(g, digits, &k);
    if (d < 0) buf[o++] = '-';
    /* ECMA-262 Number::toString, for the digits and n of the value. */
    if ((int)k <= n && n <= 21) {
        memcpy(buf + o, digits, k); o += k;
        for (int i = (int)k; i < n; i++) buf[o++] = '0';
    } else if (0 < n && n <= 21) {
        memcpy(buf + o, digits, (size_t)n); o += (size_t)n;
        buf[o++] = '.';
        memcpy(buf + o, digits + n, k - (size_t)n); o += k - (size_t)n;
    } else if (-6 < n && n <= 0) {
        buf[o++] = '0'; buf[o++] = '.';
        for (int i = n; i < 0; i++) buf[o++] = '0';
        memcpy(buf + o, digits, k); o += k;
    } else {
        buf[o++] = digits[0];
        if (k > 1) { buf[o++] = '.'; memcpy(buf + o, digits + 1, k - 1); o += k - 1; }
        o += (size_t)eg_snprintf(buf + o, EG_NUMBER_JS_CAP - o, "e%s%d", n - 1 < 0 ? "-" : "+", n - 1 < 0 ? 1 - n : n - 1);
        return;
    }
    buf[o] = '\0';
}
#endif

void eg_number_js(char buf[EG_NUMBER_JS_CAP], double d) {
#ifdef __EMSCRIPTEN__
    /* The host writes String(d) itself (digits 0): no copy of its rules here. */
    size_t n = eg_host_format_number(d, 0, buf, EG_NUMBER_JS_CAP);
    buf[n < EG_NUMBER_JS_CAP ? n : 0] = '\0';
#else
    js_text(buf, d);
#endif
}

/* Decimal digits of v (negative: with a '-') written backwards, ending just before `end`; where they start. */
static char *integer_text(char *end, unsigned long long v, bool negative) {
    do { *--end = (char)('0' + v % 10); v /= 10; } while (v);
    if (negative) *--end = '-';
    return end;
}

int eg_snprintf(char *buf, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t n = 0;
    for (const char *f = fmt; *f; f++) {
        char tmp[24];
        const char *text = f;
        size_t len = 1;
        if (*f == '%') {
            long long precision = -1;
            f++;
            if (*f == '.') {
                f++;
                if (*f == '*') { precision = va_arg(ap, int); f++; }
                else for (precision = 0; digit(*f); f++) precision = precision * 10 + (*f - '0');
            }
            if (*f == 's') {
                text = va_arg(ap, const char *);
                if (!text) text = "(null)";
                if (precision < 0) len = strlen(text);
                else for (len = 0; len < (size_t)precision && text[len]; len++) {}
            } else if (*f == '%') {
                text = f;
            } else {
                /* The conversions the core's formats use: %s (with a precision), %d and %zu (and %%). */
                unsigned long long u;
                bool negative = false;
                if (*f == 'd') { long long v = va_arg(ap, int); negative = v < 0; u = negative ? 0ULL - (unsigned long long)v : (unsigned long long)v; }
                else if (f[0] == 'z' && f[1] == 'u') { u = va_arg(ap, size_t); f++; }
                else { EG_ASSERT(false); break; } /* a conversion no caller uses */
                text = integer_text(tmp + sizeof tmp, u, negative);
                len = (size_t)(tmp + sizeof tmp - text);
            }
        }
        for (size_t i = 0; i < len; i++, n++) if (n + 1 < cap) buf[n] = text[i];
    }
    if (cap) buf[n < cap ? n : cap - 1] = '\0';
    va_end(ap);
    return (int)n;
}

#ifdef __EMSCRIPTEN__
/* cJSON reads numbers with strtod: this one, in the wasm build, instead of
 * libc's (it reads the decimal numbers cJSON hands it; no hex, inf or nan). */
double strtod(const char *restrict s, char **restrict end) {
    const char *at = s;
    while (*at == ' ' || (*at >= '\t' && *at <= '\r')) at++;
    double v = eg_number_parse(at, end);
    if (end && *end == at) *end = (char *)s;
    return v;
}
#endif
