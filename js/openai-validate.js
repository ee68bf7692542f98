// openai-validate.js: the request rules of OpenAI's chat-completions API, as
// api.openai.com enforces them. The offline simulator (edgegraph/testing) and
// the test suite's loopback server both refuse what OpenAI refuses, so a
// conversation that works offline works against the real API.
//
// Where each rule comes from. [spec] is OpenAI's OpenAPI description
// (github.com/openai/openai-openapi, openapi.yaml, the schema named), which
// the API reference (https://platform.openai.com/docs/api-reference/chat/create)
// is generated from; the quoted texts are api.openai.com's own error bodies
// as users posted them (the thread named). Status 400, type
// invalid_request_error, unless said otherwise.
//
// Request
// - model is required [spec CreateChatCompletionRequest]; "you must provide a
//   model parameter", param null (danielmiessler/Fabric#239).
// - messages is required, an array of at least one [spec, minItems: 1]:
//   "Missing required parameter: 'messages'." / "Invalid 'messages': empty array.
//   Expected an array with minimum length 1, but got an empty array instead."
//   (the house style of every "Invalid '<param>': ..." text below).
// - unknown top-level fields: "Unrecognized request argument supplied: thinking",
//   param null (nashsu/llm_wiki#336, coroot/coroot#698).
// - a body that is not JSON: "We could not parse the JSON body of your request..."
// - temperature 0..2, top_p 0..1, presence_penalty and frequency_penalty
//   -2..2, n 1..128, top_logprobs 0..20 [spec CreateModelResponseProperties,
//   CreateChatCompletionRequest]: "3.0 is greater than the maximum of 2 -
//   'temperature'", param null (Frrrrrrrrank/auto_job__find__chatgpt__rpa#40).
// - stream_options only with stream: true [spec ChatCompletionStreamOptions:
//   "Only set this when you set stream: true"]: "The 'stream_options' parameter
//   is only allowed when 'stream' is enabled.", param 'stream_options' (BerriAI/litellm#5803).
// Messages
// - role is one of developer, system, user, assistant, tool, function [spec
//   ChatCompletionRequestMessage]; an unknown one: "Invalid value: 'x'.
//   Supported values are: ...", param 'messages[i].role' (the house style;
//   older API versions said "'' is not one of ['system', 'assistant', 'user',
//   'function'] - 'messages.0.role'", sashabaranov/go-openai#679).
// - a message has only its documented fields: role, content, name; assistant
//   also tool_calls, refusal, audio, function_call; tool has tool_call_id
//   [spec, per role]: "Additional properties are not allowed ('id' was
//   unexpected) - 'messages.0'", param null (transitive-bullshit/agentic#531).
// - name on a message matches ^[a-zA-Z0-9_-]+$: "Invalid 'messages[1].name': string
//   does not match pattern. Expected a string that matches the pattern
//   '^[a-zA-Z0-9_-]+$'.", code invalid_value (jekalmin/extended_openai_conversation#251).
// - content: a string or an array of parts (text / image_url / input_audio /
//   file for user; text for system, developer and tool; text / refusal for
//   assistant) [spec ChatCompletionRequest*Message]; an assistant message
//   needs content or tool_calls ("Required unless tool_calls or function_call
//   is specified"). An empty string is accepted (the spec sets no minLength),
//   and so is an empty parts array, although the spec says minItems: 1: the
//   API answers 200 (openai/openai-python#1812). LM Studio refuses an empty
//   system content ("'messages' array must only contain objects with a
//   'content' field that is not empty", lmstudio-ai/lmstudio-bug-tracker#2):
//   edgegraph sends no system message rather than an empty one.
// - tool_calls[].function.name in an assistant message matches the tool-name
//   pattern: "Invalid 'messages[9].tool_calls[0].function.name': string does
//   not match pattern. Expected a string that matches the pattern
//   '^[a-zA-Z0-9_-]+$'.", code invalid_value (mcp-use/mcp-use#94).
// - a tool message answers a tool_calls id of the nearest preceding assistant
//   message: "Invalid parameter: messages with role 'tool' must be a response to a
//   preceeding message with 'tool_calls'.", param 'messages.[3].role', code null
//   (simonw/llm#937, miurla/morphic#136; OpenAI's own spelling "preceeding").
// - an assistant message with tool_calls is followed, before the next non-tool
//   message (or the end), by a tool message for every id: "An assistant message
//   with 'tool_calls' must be followed by tool messages responding to each
//   'tool_call_id'. The following tool_call_ids did not have response messages:
//   call_...", param 'messages.[14].role', code null (RamiAwar/dataline#172,
//   router-for-me/CLIProxyAPI#2798, microsoft/promptflow#3130).
// Tools
// - tools[].type is 'function' (or 'custom', which edgegraph never sends) [spec
//   ChatCompletionTool]; tools is never an empty array.
// - function.name: "Must be a-z, A-Z, 0-9, or contain underscores and dashes,
//   with a maximum length of 64" [spec FunctionObject]: "Invalid
//   'tools[21].function.name': string does not match pattern. Expected a string
//   that matches the pattern '^[a-zA-Z0-9_-]+$'.", code invalid_value
//   (Vortiago/mcp-azure-devops#30, hackers365/xiaozhi-esp32-server-golang#268).
// - function.parameters is a JSON Schema object [spec FunctionParameters];
//   its root is type "object": "Invalid schema for function 'json': schema must
//   be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'."
//   (browserbase/stagehand#1159); a non-object: "Invalid schema for function
//   '...': [] is not of type 'object', 'boolean'.", param 'tools[2].function.parameters',
//   code invalid_function_parameters (FoundationAgents/OpenManus#1162).
// - tool_choice and parallel_tool_calls only with tools: "Invalid value for
//   'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools'
//   are specified.", param 'parallel_tool_calls' (Upsonic/Upsonic#323).
// Response format
// - response_format.type is text, json_object or json_schema [spec
//   CreateChatCompletionRequest.response_format]; json_schema has a name
//   (^[a-zA-Z0-9_-]+$, at most 64) and a schema [spec ResponseFormatJsonSchema].
// - with strict: true, every object of the schema has additionalProperties
//   false and lists every property in required: "Invalid schema for
//   response_format 'json_schema': In context=('properties', 'etymology'),
//   'additionalProperties' is required to be supplied and to be false.",
//   param 'response_format', code null (moeru-ai/xsai#202, Part-DB/Part-DB-server#1540);
//   "... In context=(), 'required' is required to be supplied and to be an
//   array including every key in properties. Missing 'x'." (docker/docker-agent#1871).
//   Keywords outside the strict subset (allOf, not, if/then/else,
//   patternProperties, dependent*) are refused: "... 'allOf' is not permitted."

const ROLES = ['developer', 'system', 'user', 'assistant', 'tool', 'function'];
const MESSAGE_FIELDS = {
  developer: ['role', 'content', 'name'],
  system: ['role', 'content', 'name'],
  user: ['role', 'content', 'name'],
  assistant: ['role', 'content', 'name', 'tool_calls', 'refusal', 'audio', 'function_call'],
  tool: ['role', 'content', 'tool_call_id'],
  function: ['role', 'content', 'name'],
};
const PART_TYPES = {
  developer: ['text'], system: ['text'], tool: ['text'],
  user: ['text', 'image_url', 'input_audio', 'file'],
  assistant: ['text', 'refusal'],
};
const REQUEST_FIELDS = ['model', 'messages', 'stream', 'stream_options', 'tools', 'tool_choice', 'parallel_tool_calls', 'temperature', 'top_p', 'n',
  'stop', 'max_tokens', 'max_completion_tokens', 'presence_penalty', 'frequency_penalty', 'logit_bias', 'logprobs', 'top_logprobs', 'user',
  'response_format', 'seed', 'service_tier', 'store', 'metadata', 'reasoning_effort', 'modalities', 'audio', 'prediction', 'verbosity',
  'web_search_options', 'safety_identifier', 'prompt_cache_key', 'functions', 'function_call'];
const NAME = /^[a-zA-Z0-9_-]+$/;

export class Rejection extends Error {
  constructor(message, param = null, code = null, status = 400, type = 'invalid_request_error') {
    super(message);
    Object.assign(this, { param, code, status, type });
  }
}

const typeName = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function checkContent(m, i) {
  const where = `messages[${i}].content`;
  const c = m.content;
  if (m.role === 'assistant' && (c === null || c === undefined)) {
    if (!m.tool_calls?.length && !m.function_call) throw new Rejection(`Invalid value for 'content': expected a string, got null.`, `messages.[${i}].content`);
    return;
  }
  if (c === undefined) throw new Rejection(`Missing required parameter: '${where}'.`, where, 'missing_required_parameter');
  if (typeof c === 'string') return;
  if (!Array.isArray(c)) throw new Rejection(`Invalid type for '${where}': expected one of a string or array of objects, but got ${typeName(c)} instead.`, where, 'invalid_type');
  c.forEach((part, k) => {
    if (!isObject(part) || !PART_TYPES[m.role].includes(part.type)) {
      throw new Rejection(`Invalid value: '${part?.type}'. Supported values are: ${PART_TYPES[m.role].map((t) => `'${t}'`).join(', ')}.`, `${where}[${k}].type`, 'invalid_value');
    }
    if (part.type === 'text' && typeof part.text !== 'string') throw new Rejection(`Missing required parameter: '${where}[${k}].text'.`, `${where}[${k}].text`, 'missing_required_parameter');
    if (part.type === 'image_url' && typeof part.image_url?.url !== 'string') throw new Rejection(`Missing required parameter: '${where}[${k}].image_url.url'.`, `${where}[${k}].image_url.url`, 'missing_required_parameter');
  });
}

function checkToolCalls(m, i) {
  if (m.tool_calls === undefined) return;
  if (!Array.isArray(m.tool_calls)) throw new Rejection(`Invalid type for 'messages[${i}].tool_calls': expected an array of objects, but got ${typeName(m.tool_calls)} instead.`, `messages[${i}].tool_calls`, 'invalid_type');
  if (m.tool_calls.length === 0) throw new Rejection(`Invalid 'messages[${i}].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.`, `messages[${i}].tool_calls`, 'empty_array');
  m.tool_calls.forEach((c, k) => {
    const at = `messages[${i}].tool_calls[${k}]`;
    if (typeof c?.id !== 'string') throw new Rejection(`Missing required parameter: '${at}.id'.`, `${at}.id`, 'missing_required_parameter');
    if (c.type !== 'function') throw new Rejection(`Missing required parameter: '${at}.type'.`, `${at}.type`, 'missing_required_parameter');
    if (typeof c.function?.name !== 'string') throw new Rejection(`Missing required parameter: '${at}.function.name'.`, `${at}.function.name`, 'missing_required_parameter');
    if (!NAME.test(c.function.name)) throw new Rejection(`Invalid '${at}.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `${at}.function.name`, 'invalid_value');
    if (typeof c.function.arguments !== 'string') throw new Rejection(`Invalid type for '${at}.function.arguments': expected a string, but got ${typeName(c.function.arguments)} instead.`, `${at}.function.arguments`, 'invalid_type');
  });
}

/** Tool-call pairing: every result answers the nearest assistant's calls, every call gets a result. */
function checkPairing(messages) {
  let open = null; // { index, ids: Set, answered: Set }
  const close = () => {
    if (!open) return;
    const missing = [...open.ids].filter((id) => !open.answered.has(id));
    if (missing.length) {
      throw new Rejection(`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`, `messages.[${open.index}].role`);
    }
    open = null;
  };
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      if (!open || !open.ids.has(m.tool_call_id) || open.answered.has(m.tool_call_id)) {
        throw new Rejection("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${i}].role`);
      }
      open.answered.add(m.tool_call_id);
      return;
    }
    close();
    if (m.role === 'assistant' && m.tool_calls?.length) open = { index: i, ids: new Set(m.tool_calls.map((c) => c.id)), answered: new Set() };
  });
  close();
}

function checkTools(body) {
  if (body.tools === undefined) {
    for (const key of ['tool_choice', 'parallel_tool_calls']) {
      if (body[key] !== undefined) throw new Rejection(`Invalid value for '${key}': '${key}' is only allowed when 'tools' are specified.`, key);
    }
    return;
  }
  if (!Array.isArray(body.tools)) throw new Rejection(`Invalid type for 'tools': expected an array of objects, but got ${typeName(body.tools)} instead.`, 'tools', 'invalid_type');
  if (body.tools.length === 0) throw new Rejection("Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'tools', 'empty_array');
  body.tools.forEach((t, k) => {
    if (t?.type !== 'function') throw new Rejection(`Invalid value: '${t?.type}'. Supported values are: 'function' and 'custom'.`, `tools[${k}].type`, 'invalid_value');
    const name = t.function?.name;
    if (typeof name !== 'string') throw new Rejection(`Missing required parameter: 'tools[${k}].function.name'.`, `tools[${k}].function.name`, 'missing_required_parameter');
    if (name.length > 64) throw new Rejection(`Invalid 'tools[${k}].function.name': string too long. Expected a string with maximum length 64, but got a string with length ${name.length} instead.`, `tools[${k}].function.name`, 'string_above_max_length');
    if (!NAME.test(name)) throw new Rejection(`Invalid 'tools[${k}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `tools[${k}].function.name`, 'invalid_value');
    const p = t.function.parameters;
    if (p !== undefined && !isObject(p) && typeof p !== 'boolean') {
      throw new Rejection(`Invalid schema for function '${name}': ${JSON.stringify(p)} is not of type 'object', 'boolean'.`, `tools[${k}].function.parameters`, 'invalid_function_parameters');
    }
    if (p !== undefined && p?.type !== 'object') {
      throw new Rejection(`Invalid schema for function '${name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${p?.type ?? 'None'}"'.`, `tools[${k}].function.parameters`, 'invalid_function_parameters');
    }
    if (p?.properties !== undefined && !isObject(p.properties)) {
      throw new Rejection(`Invalid schema for function '${name}': ${JSON.stringify(p.properties)} is not of type 'object'.`, `tools[${k}].function.parameters`, 'invalid_function_parameters');
    }
  });
}

const STRICT_REFUSED = ['allOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'patternProperties'];

/** Strict mode's rules over every schema node; `context` is OpenAI's path, printed as a Python tuple. */
function checkStrictSchema(schema, name, context = []) {
  if (!isObject(schema)) return;
  const fail = (what) => {
    const tuple = context.map((c) => `'${c}'`).join(', ') + (context.length === 1 ? ',' : '');
    throw new Rejection(`Invalid schema for response_format '${name}': In context=(${tuple}), ${what}`, 'response_format');
  };
  for (const key of STRICT_REFUSED) if (schema[key] !== undefined) fail(`'${key}' is not permitted.`);
  if (schema.type === 'object' || schema.properties !== undefined) {
    if (schema.additionalProperties !== false) fail("'additionalProperties' is required to be supplied and to be false.");
    const missing = Object.keys(schema.properties ?? {}).filter((k) => !(schema.required ?? []).includes(k));
    if (missing.length) fail(`'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`);
  }
  for (const [k, s] of Object.entries(schema.properties ?? {})) checkStrictSchema(s, name, [...context, 'properties', k]);
  if (schema.items) checkStrictSchema(schema.items, name, [...context, 'items']);
  for (const key of ['anyOf', '$defs', 'definitions']) {
    for (const [k, s] of Object.entries(schema[key] ?? {})) checkStrictSchema(s, name, [...context, key, Array.isArray(schema[key]) ? Number(k) : k]);
  }
}

function checkResponseFormat(format) {
  if (format === undefined) return;
  if (!isObject(format) || !['text', 'json_object', 'json_schema'].includes(format.type)) {
    throw new Rejection(`Invalid value: '${format?.type}'. Supported values are: 'text', 'json_object', and 'json_schema'.`, 'response_format.type', 'invalid_value');
  }
  if (format.type !== 'json_schema') return;
  const spec = format.json_schema;
  if (!isObject(spec)) throw new Rejection("Missing required parameter: 'response_format.json_schema'.", 'response_format.json_schema', 'missing_required_parameter');
  if (typeof spec.name !== 'string') throw new Rejection("Missing required parameter: 'response_format.json_schema.name'.", 'response_format.json_schema.name', 'missing_required_parameter');
  if (!NAME.test(spec.name) || spec.name.length > 64) throw new Rejection("Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", 'response_format.json_schema.name', 'invalid_value');
  if (spec.schema !== undefined && !isObject(spec.schema)) throw new Rejection(`Invalid type for 'response_format.json_schema.schema': expected an object, but got ${typeName(spec.schema)} instead.`, 'response_format.json_schema.schema', 'invalid_type');
  if (spec.strict === true) {
    if (spec.schema?.type !== 'object') throw new Rejection(`Invalid schema for response_format '${spec.name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${spec.schema?.type ?? 'None'}"'.`, 'response_format');
    checkStrictSchema(spec.schema, spec.name);
  }
}

/** Sampling parameters within their documented ranges (null means the default). */
const RANGES = { temperature: [0, 2], top_p: [0, 1], presence_penalty: [-2, 2], frequency_penalty: [-2, 2], n: [1, 128], top_logprobs: [0, 20] };

function checkRanges(body) {
  for (const [key, [min, max]] of Object.entries(RANGES)) {
    const v = body[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Rejection(`Invalid type for '${key}': expected a number, but got ${typeName(v)} instead.`, key, 'invalid_type');
    if (v > max) throw new Rejection(`${v} is greater than the maximum of ${max} - '${key}'`);
    if (v < min) throw new Rejection(`${v} is less than the minimum of ${min} - '${key}'`);
  }
}

/** Throws a Rejection where OpenAI answers an error; returns nothing for a valid request. */
export function validateChatRequest(body) {
  if (!isObject(body)) throw new Rejection('We could not parse the JSON body of your request. (HINT: This likely means you aren\'t using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)');
  for (const key of Object.keys(body)) if (!REQUEST_FIELDS.includes(key)) throw new Rejection(`Unrecognized request argument supplied: ${key}`);
  if (typeof body.model !== 'string' || !body.model) throw new Rejection('you must provide a model parameter');
  if (body.messages === undefined) throw new Rejection("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  if (!Array.isArray(body.messages)) throw new Rejection(`Invalid type for 'messages': expected an array of objects, but got ${typeName(body.messages)} instead.`, 'messages', 'invalid_type');
  if (body.messages.length === 0) throw new Rejection("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array');
  body.messages.forEach((m, i) => {
    if (!isObject(m)) throw new Rejection(`Invalid type for 'messages[${i}]': expected an object, but got ${typeName(m)} instead.`, `messages[${i}]`, 'invalid_type');
    if (m.role === undefined) throw new Rejection(`Missing required parameter: 'messages[${i}].role'.`, `messages[${i}].role`, 'missing_required_parameter');
    if (!ROLES.includes(m.role)) throw new Rejection(`Invalid value: '${m.role}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`, `messages[${i}].role`, 'invalid_value');
    for (const key of Object.keys(m)) if (!MESSAGE_FIELDS[m.role].includes(key)) throw new Rejection(`Additional properties are not allowed ('${key}' was unexpected) - 'messages.${i}'`);
    if (m.name !== undefined && (typeof m.name !== 'string' || !NAME.test(m.name))) {
      throw new Rejection(`Invalid 'messages[${i}].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `messages[${i}].name`, 'invalid_value');
    }
    if (m.role === 'tool' && typeof m.tool_call_id !== 'string') throw new Rejection(`Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.`, `messages.[${i}].tool_call_id`);
    checkContent(m, i);
    checkToolCalls(m, i);
  });
  checkPairing(body.messages);
  checkTools(body);
  checkResponseFormat(body.response_format);
  checkRanges(body);
  if (body.stream !== undefined && typeof body.stream !== 'boolean') throw new Rejection(`Invalid type for 'stream': expected a boolean, but got ${typeName(body.stream)} instead.`, 'stream', 'invalid_type');
  if (body.stream_options !== undefined && body.stream_options !== null && body.stream !== true) throw new Rejection("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
}


/** OpenAI's error body for a rejection. */
export const errorBody = (e) => JSON.stringify({ error: { message: e.message, type: e.type, param: e.param, code: e.code } });
