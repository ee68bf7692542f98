// A strict loopback server for the Gemini API: the rules in
// gemini-validate.js, errors in Google's shape ({ error: { code, message,
// status } }), and streams as Gemini streams them with ?alt=sse
// (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent):
// each event a GenerateContentResponse, text in pieces, each functionCall
// part whole, the last one with the finishReason and usageMetadata.

import { startLoopback, pieces, Rejection } from './loopback.js';
import { validateGenerateContent } from './gemini-validate.js';

const PATH = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** A reply with these parts (text and { functionCall }). */
export function candidate(parts, extra = {}) {
  return { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 7, totalTokenCount: 37, cachedContentTokenCount: 10 }, modelVersion: 'gemini-test', responseId: 'r1', ...extra };
}

export function candidateEvents(reply) {
  const [first] = reply.candidates;
  const out = [];
  for (const part of first.content.parts) {
    const chunks = typeof part.text === 'string' ? pieces(part.text).map((text) => ({ text })) : [part];
    for (const p of chunks) out.push({ data: { candidates: [{ content: { role: 'model', parts: [p] }, index: 0 }], modelVersion: reply.modelVersion } });
  }
  const last = out.at(-1)?.data ?? { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, index: 0 }] };
  last.candidates[0].finishReason = first.finishReason;
  last.usageMetadata = reply.usageMetadata;
  if (!out.length) out.push({ data: last });
  return out;
}

export function startGeminiServer(script, { apiKey, expectRejections } = {}) {
  return startLoopback(script, {
    prefix: '/v1beta',
    expectRejections,
    check: (request) => {
      if (request.method !== 'POST' || !PATH.test(request.path)) throw new Rejection(404, `The requested URL ${request.path} was not found on this server.`, { code: 'NOT_FOUND' });
      validateGenerateContent(request, apiKey);
    },
    // Without alt=sse the real API streams a JSON array; edgegraph always asks for SSE.
    isStream: (request) => PATH.exec(request.path)[2] === 'streamGenerateContent',
    streamOf: candidateEvents,
    errorBody: (e) => ({ error: { code: e.status, message: e.message, status: e.extra.code } }),
  });
}
