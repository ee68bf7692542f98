// The request rules of OpenAI's Responses API (POST /v1/responses), as
// api.openai.com enforces them. Status 400, type invalid_request_error,
// unless said otherwise. Sources: [spec] OpenAI's OpenAPI description
// (github.com/openai/openai-openapi, CreateResponse, InputItem,
// FunctionTool), which https://platform.openai.com/docs/api-reference/responses
// is generated from; the quoted texts are api.openai.com's own error bodies as
// users posted them (the thread named).
// - Authorization: Bearer <key>: 401 "Incorrect API key provided: ..." (as chat completions).
// - unknown top-level fields: "Unknown parameter: 'messages'.", code unknown_parameter (the Responses
//   API's house style; openai/openai-python#2371).
// - model is required: "Missing required parameter: 'model'." [spec CreateResponse].
// - input items [spec InputItem]: a message (role user, assistant, system or developer; content a string
//   or parts: input_text, input_image, input_file for the user's, output_text and refusal for the
//   assistant's), a function_call (call_id, name, arguments: a string), a function_call_output
//   (call_id, output), a reasoning item; another type: "Invalid value: 'x'. Supported values are: ...",
//   param input[i].type.
// - an input_image has an image_url or a file_id [spec InputImageContent].
// - a function_call_output answers a function_call of the input: "No tool call found for function call
//   output with call_id call_...", param input (continuedev/continue#10092).
// - every function_call is answered: "No tool output found for function call call_...", param input
//   (tjardoo/openai-client#124).
// - tools: a function tool has a name (^[a-zA-Z0-9_-]{1,64}$) and parameters of type object [spec FunctionTool].
// - max_output_tokens is at least 16: "Invalid 'max_output_tokens': integer below minimum value.
//   Expected a value >= 16, but got 5 instead." (openai/openai-node#1500).
// - temperature 0..2, top_p 0..1 [spec].
// - text.format of type json_schema has a name and a schema [spec TextResponseFormatJsonSchema].

import { Rejection, isObject } from './loopback.js';

const FIELDS = ['model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'stream', 'stream_options', 'temperature', 'top_p',
  'max_output_tokens', 'max_tool_calls', 'text', 'store', 'previous_response_id', 'reasoning', 'metadata', 'user', 'truncation', 'include',
  'background', 'service_tier', 'prompt', 'prompt_cache_key', 'safety_identifier', 'top_logprobs', 'conversation'];
const ITEM_TYPES = ['message', 'function_call', 'function_call_output', 'reasoning'];
const PARTS = { user: ['input_text', 'input_image', 'input_file'], system: ['input_text'], developer: ['input_text'], assistant: ['output_text', 'refusal'] };
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const bad = (message, param = null, code = null, status = 400, type = 'invalid_request_error') => new Rejection(status, message, { param, code, type });

function checkItem(item, i) {
  const type = item?.type ?? (item?.role ? 'message' : undefined);
  if (!ITEM_TYPES.includes(type)) throw bad(`Invalid value: '${item?.type}'. Supported values are: ${ITEM_TYPES.map((t) => `'${t}'`).join(', ')}.`, `input[${i}].type`, 'invalid_value');
  if (type === 'message') {
    if (!PARTS[item.role]) throw bad(`Invalid value: '${item.role}'. Supported values are: 'user', 'assistant', 'system', and 'developer'.`, `input[${i}].role`, 'invalid_value');
    if (typeof item.content === 'string') return;
    if (!Array.isArray(item.content)) throw bad(`Invalid type for 'input[${i}].content': expected one of a string or array of input items.`, `input[${i}].content`, 'invalid_type');
    item.content.forEach((p, k) => {
      if (!PARTS[item.role].includes(p?.type)) throw bad(`Invalid value: '${p?.type}'. Supported values are: ${PARTS[item.role].map((t) => `'${t}'`).join(', ')}.`, `input[${i}].content[${k}].type`, 'invalid_value');
      if (p.type === 'input_image' && typeof p.image_url !== 'string' && typeof p.file_id !== 'string') throw bad(`Missing required parameter: 'input[${i}].content[${k}].image_url'.`, `input[${i}].content[${k}].image_url`, 'missing_required_parameter');
    });
  }
  if (type === 'function_call') {
    for (const key of ['call_id', 'name', 'arguments']) if (typeof item[key] !== 'string') throw bad(`Missing required parameter: 'input[${i}].${key}'.`, `input[${i}].${key}`, 'missing_required_parameter');
  }
  if (type === 'function_call_output') {
    if (typeof item.call_id !== 'string') throw bad(`Missing required parameter: 'input[${i}].call_id'.`, `input[${i}].call_id`, 'missing_required_parameter');
    if (item.output === undefined) throw bad(`Missing required parameter: 'input[${i}].output'.`, `input[${i}].output`, 'missing_required_parameter');
  }
}

function checkInput(input) {
  if (input === undefined || typeof input === 'string') return;
  if (!Array.isArray(input)) throw bad("Invalid type for 'input': expected one of a string or array of input items.", 'input', 'invalid_type');
  input.forEach(checkItem);
  const calls = input.filter((it) => it.type === 'function_call').map((it) => it.call_id);
  const outputs = input.filter((it) => it.type === 'function_call_output').map((it) => it.call_id);
  const orphan = outputs.find((id) => !calls.includes(id));
  if (orphan) throw bad(`No tool call found for function call output with call_id ${orphan}.`, 'input');
  const unanswered = calls.find((id) => !outputs.includes(id));
  if (unanswered) throw bad(`No tool output found for function call ${unanswered}.`, 'input');
}

/** Throws a Rejection where the Responses API answers an error. */
export function validateResponsesRequest({ headers, body }, apiKey) {
  if (apiKey !== undefined && headers.authorization !== `Bearer ${apiKey}`) throw bad('Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.', null, 'invalid_api_key', 401);
  if (!isObject(body)) throw bad('We could not parse the JSON body of your request.');
  for (const key of Object.keys(body)) if (!FIELDS.includes(key)) throw bad(`Unknown parameter: '${key}'.`, key, 'unknown_parameter');
  if (typeof body.model !== 'string' || !body.model) throw bad("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  checkInput(body.input);
  (body.tools ?? []).forEach((t, k) => {
    if (t?.type !== 'function') return;
    if (typeof t.name !== 'string') throw bad(`Missing required parameter: 'tools[${k}].name'.`, `tools[${k}].name`, 'missing_required_parameter');
    if (!NAME.test(t.name)) throw bad(`Invalid 'tools[${k}].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `tools[${k}].name`, 'invalid_value');
    if (t.parameters !== undefined && t.parameters?.type !== 'object') throw bad(`Invalid schema for function '${t.name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${t.parameters?.type ?? 'None'}"'.`, `tools[${k}].parameters`, 'invalid_function_parameters');
  });
  if (body.max_output_tokens !== undefined && body.max_output_tokens < 16) throw bad(`Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${body.max_output_tokens} instead.`, 'max_output_tokens', 'integer_below_min_value');
  for (const [key, max] of [['temperature', 2], ['top_p', 1]]) {
    if (typeof body[key] === 'number' && (body[key] > max || body[key] < 0)) throw bad(`Invalid '${key}': decimal ${body[key] > max ? 'above maximum' : 'below minimum'} value. Expected a value ${body[key] > max ? `<= ${max}` : '>= 0'}, but got ${body[key]} instead.`, key, `decimal_${body[key] > max ? 'above_max' : 'below_min'}_value`);
  }
  const format = body.text?.format;
  if (format?.type === 'json_schema' && (typeof format.name !== 'string' || !isObject(format.schema))) throw bad("Missing required parameter: 'text.format.name'.", 'text.format.name', 'missing_required_parameter');
}
