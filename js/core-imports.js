// core-imports.js: what the core's .wasm imports from its host. Besides
// Emscripten's memory-growth notice, numbers as text both ways
// (src/eg_number.c): the host's exact conversions, so that the .wasm carries
// no strtod or floating-point printf of its own.

/**
 * |d|'s `digits` significant digits and its decimal exponent, correctly
 * rounded with ties to even, as printf rounds (toExponential rounds ties away
 * from zero). A tie shows as a 5 in the next digit; only then is the exact
 * expansion read.
 */
function significant(d, digits) {
  const a = Math.abs(d);
  const [m, e] = a.toExponential(digits - 1).split('e');
  const out = m.replace('.', '');
  if (a.toExponential(digits).split('e')[0].endsWith('5')) {
    const [xm, xe] = a.toExponential(100).split('e');
    const exact = xm.replace('.', '');
    if (/^50*$/.test(exact.slice(digits)) && Number(exact[digits - 1]) % 2 === 0) return { digits: exact.slice(0, digits), exponent: Number(xe) };
  }
  return { digits: out, exponent: Number(e) };
}

/** printf's "%.<digits>g" of a finite d (what the native build's libc writes). */
function formatG(d, precision) {
  const { digits, exponent: x } = significant(d, precision);
  const sign = d < 0 || Object.is(d, -0) ? '-' : '';
  const trim = (s) => s.replace(/0+$/, '');
  if (x < -4 || x >= precision) {
    const frac = trim(digits.slice(1));
    return `${sign}${digits[0]}${frac ? `.${frac}` : ''}e${x < 0 ? '-' : '+'}${String(Math.abs(x)).padStart(2, '0')}`;
  }
  const whole = x >= 0 ? digits.slice(0, x + 1) : '0';
  const frac = trim(x >= 0 ? digits.slice(x + 1) : '0'.repeat(-x - 1) + digits);
  return `${sign}${whole}${frac ? `.${frac}` : ''}`;
}

/**
 * The core's imports (what the top of this file says), for WebAssembly.Instance.
 * @param {() => import('./core.js').Core | null} core
 */
export function coreImports(core) {
  return {
    env: {
      emscripten_notify_memory_growth() { core()?.refresh(); },
      eg_host_parse_number(ptr, len) { return Number(core().text(ptr, len)); },
      // digits 0: String(d), the text a JS caller's keys have (src/eg_route.c).
      eg_host_format_number(d, digits, ptr, cap) {
        const s = digits ? formatG(d, digits) : String(d);
        if (s.length < cap) {
          const u8 = core().view();
          for (let i = 0; i < s.length; i++) u8[ptr + i] = s.charCodeAt(i);
        }
        return s.length;
      },
    },
  };
}
