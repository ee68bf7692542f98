// The request rules of the Gemini API's generateContent and
// streamGenerateContent (generativelanguage.googleapis.com/v1beta), as Google
// enforces them. Status 400, status INVALID_ARGUMENT, unless said otherwise.
// Sources: [ref] the API reference, https://ai.google.dev/api/generate-content
// (GenerateContentRequest, Content, Part, FunctionDeclaration) and
// https://ai.google.dev/gemini-api/docs/function-calling; the quoted texts are
// the API's own error bodies as users posted them (the thread named).
// - the key: x-goog-api-key (or ?key=); none: 403 PERMISSION_DENIED "Method doesn't allow unregistered
//   callers ..."; a wrong one: 400 "API key not valid. Please pass a valid API key." (google-gemini/gemini-cli#1502 and many).
// - unknown fields: 'Invalid JSON payload received. Unknown name "messages": Cannot find field.'
//   (the protobuf JSON mapping's text; BerriAI/litellm, OpenAI fields sent to Gemini).
// - contents is required: "* GenerateContentRequest.contents: contents is not specified".
// - a role is user or model, or left out (then the user's) [ref Content.role]: "Please use a valid role:
//   user, model." (google-gemini/generative-ai-js#124).
// - a turn has parts: "* GenerateContentRequest.contents[0].parts: contents.parts must not be empty."
// - a part holds one kind of data: "* GenerateContentRequest.contents[1].parts[0].data: required oneof
//   field 'data' must have one initialized field"; inlineData needs mimeType and data [ref Blob].
// - a function call turn (model) comes right after a user turn or a function response turn: "Please ensure
//   that function call turn comes immediately after a user turn or after a function response turn."
//   (google-gemini/gemini-cli#2031)
// - the turn after a function call turn answers every call: "Please ensure that the number of function
//   response parts is equal to the number of function call parts of the function call turn."
//   (google-gemini/gemini-cli#16415); a response names a function called in that turn [ref FunctionResponse.name:
//   "The name of the function to call. Matches FunctionDeclaration.name and FunctionCall.name"].
// - functionCall parts in model turns, functionResponse parts in user turns [ref function-calling].
// - a function name: "Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a
//   maximum length of 64" [ref FunctionDeclaration.name]: "* GenerateContentRequest.tools[0].function_declarations[0].name:
//   Invalid function name. ..." (langchain-ai/langchainjs#5235).
// - systemInstruction holds text parts only [ref: "Currently only text"].
// - no JSON response type with function calling (unless its mode is NONE): "Function calling with a
//   response mime type: 'application/json' is unsupported" (google/adk-python#5735 with gemini-2.5-pro,
//   symfony/ai#1777, google-gemini/deprecated-generative-ai-swift#195).

import { Rejection, isObject } from './loopback.js';

const FIELDS = ['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig', 'safetySettings', 'cachedContent', 'labels'];
const DATA = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse', 'executableCode', 'codeExecutionResult'];
const NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
const bad = (message, status = 400, code = 'INVALID_ARGUMENT') => new Rejection(status, message, { code });

function checkPart(part, i, k) {
  const at = `* GenerateContentRequest.contents[${i}].parts[${k}]`;
  const kinds = DATA.filter((d) => isObject(part) && part[d] !== undefined);
  if (kinds.length !== 1) throw bad(`${at}.data: required oneof field 'data' must have one initialized field`);
  if (part.inlineData && (typeof part.inlineData.mimeType !== 'string' || typeof part.inlineData.data !== 'string')) throw bad(`${at}.inline_data: mime_type and data are required`);
  if (part.fileData && typeof part.fileData.fileUri !== 'string') throw bad(`${at}.file_data.file_uri: required`);
  if (part.functionCall && typeof part.functionCall.name !== 'string') throw bad(`${at}.function_call.name: Name cannot be empty.`);
  if (part.functionResponse && (typeof part.functionResponse.name !== 'string' || !isObject(part.functionResponse.response))) throw bad(`${at}.function_response: name and an object response are required`);
}

const roleOf = (c) => c?.role ?? 'user';

function checkContents(contents) {
  if (!Array.isArray(contents) || !contents.length) throw bad('* GenerateContentRequest.contents: contents is not specified');
  contents.forEach((c, i) => {
    // The role may be left out ("can be left blank or unset" [ref Content.role]): then it is the user's.
    if (c?.role !== undefined && c.role !== 'user' && c.role !== 'model') throw bad('Please use a valid role: user, model.');
    if (!Array.isArray(c.parts) || !c.parts.length) throw bad(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`);
    c.parts.forEach((p, k) => checkPart(p, i, k));
    if (roleOf(c) === 'user' && c.parts.some((p) => p.functionCall)) throw bad(`* GenerateContentRequest.contents[${i}]: a functionCall part belongs to a model turn`);
    if (c.role === 'model' && c.parts.some((p) => p.functionResponse)) throw bad(`* GenerateContentRequest.contents[${i}]: a functionResponse part belongs to a user turn`);
  });
  contents.forEach((c, i) => {
    const calls = c.parts.filter((p) => p.functionCall).map((p) => p.functionCall.name);
    if (!calls.length) return;
    const before = contents[i - 1];
    if (!before || roleOf(before) !== 'user') throw bad('Please ensure that function call turn comes immediately after a user turn or after a function response turn.');
    const after = contents[i + 1];
    if (!after) return; // the last turn: the model's own, nothing to answer yet
    const responses = after.parts.filter((p) => p.functionResponse).map((p) => p.functionResponse.name);
    if (responses.length !== calls.length) throw bad('Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.');
    const unknown = responses.find((name) => !calls.includes(name));
    if (unknown) throw bad(`* GenerateContentRequest.contents[${i + 1}]: function response '${unknown}' answers no function call of the function call turn`);
  });
}

/** Throws a Rejection where the Gemini API answers an error. */
export function validateGenerateContent({ headers, query, body }, apiKey) {
  const given = headers['x-goog-api-key'] ?? query.get('key');
  if (apiKey !== undefined && !given) throw bad("Method doesn't allow unregistered callers (callers without established identity). Please use API key or other form of API consumer identity to call this API.", 403, 'PERMISSION_DENIED');
  if (apiKey !== undefined && given !== apiKey) throw bad('API key not valid. Please pass a valid API key.');
  if (!isObject(body)) throw bad('Invalid JSON payload received.');
  for (const key of Object.keys(body)) if (!FIELDS.includes(key)) throw bad(`Invalid JSON payload received. Unknown name "${key}": Cannot find field.`);
  checkContents(body.contents);
  if (body.systemInstruction !== undefined && (!Array.isArray(body.systemInstruction.parts) || body.systemInstruction.parts.some((p) => typeof p?.text !== 'string'))) {
    throw bad('* GenerateContentRequest.system_instruction: only text parts are supported');
  }
  const declares = (body.tools ?? []).some((t) => t.functionDeclarations?.length);
  if (declares && body.generationConfig?.responseMimeType === 'application/json' && body.toolConfig?.functionCallingConfig?.mode !== 'NONE') {
    throw bad("Function calling with a response mime type: 'application/json' is unsupported");
  }
  (body.tools ?? []).forEach((t, k) => (t.functionDeclarations ?? []).forEach((f, j) => {
    if (typeof f?.name !== 'string' || !NAME.test(f.name)) {
      throw bad(`* GenerateContentRequest.tools[${k}].function_declarations[${j}].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.`);
    }
  }));
}
