// openai-validate.js: the request rules of OpenAI's chat-completions API, as
// api.openai.com enforces them. The offline simulator (edgegraph/testing) and
// the test suite's loopback server both refuse what OpenAI refuses, so a
// conversation that works offline works against the real API.
//
// Where each rule comes from (OpenAI API reference, "Create chat completion",
// https://platform.openai.com/docs/api-reference/chat/create, and the error
// texts OpenAI returns, as quoted in public bug reports):
// - model and messages are required; messages has at least one item
//   (reference: "messages array Required", "model string Required").
// - role is one of developer, system, user, assistant, tool, function
//   (reference: the message object variants; error "Invalid value: 'x'. Supported values are: ...").
// - a message has only its documented fields: role, content, name, and for
//   assistant tool_calls, refusal, audio; for tool tool_call_id
//   ("Additional properties are not allowed ('id' was unexpected)").
// - content: string or an array of parts (text / image_url / input_audio / file for user,
//   text for system, developer and tool, text / refusal for assistant); an assistant
//   message needs content or tool_calls (reference: "content ... Required unless tool_calls").
// - a tool message answers a tool_calls id of the nearest preceding assistant
//   message: "Invalid parameter: messages with role 'tool' must be a response to a
//   preceeding message with 'tool_calls'." (param messages.[i].role; seen in
//   miurla/morphic#136, smarter-sh/smarter#264; OpenAI's own spelling "preceeding").
// - an assistant message with tool_calls is followed, before the next non-tool
//   message (or the end), by a tool message for every id: "An assistant message with
//   'tool_calls' must be followed by tool messages responding to each 'tool_call_id'.
//   The following tool_call_ids did not have response messages: ..." (microsoft/promptflow#3130).
// - tools[].type is 'function'; function.name matches ^[a-zA-Z0-9_-]{1,64}$
//   (reference: "The name of the function ... a-z, A-Z, 0-9, or contain underscores and
//   dashes, with a maximum length of 64"); function.parameters is a JSON Schema
//   object of type "object" ("Invalid schema for function 'f': schema must be a JSON
//   Schema of 'type: \"object\"'"); tools is never an empty array.
// - tool_choice only with tools; stream_options only with stream: true (reference).
// - unknown top-level parameters: "Unrecognized request argument supplied: x".

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
    if (body.tool_choice !== undefined) throw new Rejection("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", 'tool_choice');
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
    if (p !== undefined && (!isObject(p) || p.type !== 'object')) {
      throw new Rejection(`Invalid schema for function '${name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${isObject(p) ? p.type ?? 'None' : typeName(p)}"'.`, `tools[${k}].function.parameters`, 'invalid_function_parameters');
    }
    if (p?.properties !== undefined && !isObject(p.properties)) {
      throw new Rejection(`Invalid schema for function '${name}': ${JSON.stringify(p.properties)} is not of type 'object'.`, `tools[${k}].function.parameters`, 'invalid_function_parameters');
    }
  });
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
    for (const key of Object.keys(m)) if (!MESSAGE_FIELDS[m.role].includes(key)) throw new Rejection(`Additional properties are not allowed ('${key}' was unexpected) - 'messages.${i}'`, `messages[${i}]`);
    if (m.role === 'tool' && typeof m.tool_call_id !== 'string') throw new Rejection(`Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.`, `messages.[${i}].tool_call_id`);
    checkContent(m, i);
    checkToolCalls(m, i);
  });
  checkPairing(body.messages);
  checkTools(body);
  if (body.stream !== undefined && typeof body.stream !== 'boolean') throw new Rejection(`Invalid type for 'stream': expected a boolean, but got ${typeName(body.stream)} instead.`, 'stream', 'invalid_type');
  if (body.stream_options !== undefined && body.stream_options !== null && body.stream !== true) throw new Rejection("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
}


/** OpenAI's error body for a rejection. */
export const errorBody = (e) => JSON.stringify({ error: { message: e.message, type: e.type, param: e.param, code: e.code } });
