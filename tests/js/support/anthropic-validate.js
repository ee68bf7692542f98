// The request rules of Anthropic's Messages API (POST /v1/messages), as
// api.anthropic.com enforces them. Status 400, error type
// invalid_request_error, unless said otherwise. Sources: [ref] the API
// reference, https://docs.anthropic.com/en/api/messages (required fields,
// block shapes) and /en/api/errors (the error body, authentication_error
// 401); the quoted texts are api.anthropic.com's own error bodies as users
// posted them (the thread named).
// - x-api-key must be the key: 401 authentication_error "invalid x-api-key" [ref errors].
// - the anthropic-version header is required: "anthropic-version: header is required" [ref: "Required"].
// - model, max_tokens and messages are required [ref]: "max_tokens: Field required" (the
//   pydantic style of every "<field>: ..." text below).
// - no other top-level fields: "stream_options: Extra inputs are not permitted" (BerriAI/litellm, OpenAI
//   fields sent to Anthropic).
// - roles are user and assistant only; a system message is refused: 'messages: Unexpected role "system".
//   The Messages API accepts a top-level `system` parameter, not "system" as an input message role.'
// - the first message is the user's: 'messages: first message must use the "user" role' (lobehub/lobehub#1601).
// - roles alternate: 'messages: roles must alternate between "user" and "assistant", but found multiple
//   "user" roles in a row' (lobehub/lobehub#1496, etkecc/baibot#13). (The reference now says consecutive
//   turns are combined; the API answered 400 for years, and edgegraph merges them itself either way.)
// - content is a string or an array of blocks; user blocks: text, image, document, tool_result;
//   assistant blocks: text, tool_use, thinking, redacted_thinking [ref]; text blocks are non-empty:
//   "messages: text content blocks must be non-empty".
// - an image block's source is base64 (media_type image/jpeg, png, gif or webp, and data) or url [ref].
// - every tool_use is answered by a tool_result in the next message: "messages.N: `tool_use` ids were found
//   without `tool_result` blocks immediately after: toolu_... Each `tool_use` block must have a corresponding
//   `tool_result` block in the next message." (anthropics/claude-code#5989)
// - a tool_result answers a tool_use of the previous message: "messages.N.content.K: unexpected `tool_use_id`
//   found in `tool_result` blocks: toolu_... Each `tool_result` block must have a corresponding `tool_use`
//   block in the previous message." (anthropics/claude-code#18947)
// - tools: name matches ^[a-zA-Z0-9_-]{1,64}$, input_schema an object schema of type object [ref];
//   tool_choice only with tools: "tool_choice may only be specified while providing tools".
// - temperature is 0..1 [ref]: "temperature: Input should be less than or equal to 1".
// - with thinking enabled, the last assistant message that uses tools starts with its thinking block:
//   "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When
//   `thinking` is enabled, a final `assistant` message must start with a thinking block ..."
//   (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking, "Preserving thinking blocks";
//   BerriAI/litellm#9020).

import { Rejection, isObject } from './loopback.js';

const FIELDS = ['model', 'messages', 'max_tokens', 'system', 'stream', 'tools', 'tool_choice', 'temperature', 'top_p', 'top_k',
  'stop_sequences', 'metadata', 'thinking', 'service_tier', 'container', 'mcp_servers'];
const BLOCKS = { user: ['text', 'image', 'document', 'tool_result'], assistant: ['text', 'tool_use', 'thinking', 'redacted_thinking'] };
const MEDIA = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const bad = (message, status = 400, type = 'invalid_request_error') => new Rejection(status, message, { type });

function checkBlock(b, i, k, role) {
  const at = `messages.${i}.content.${k}`;
  if (!isObject(b) || !BLOCKS[role].includes(b.type)) throw bad(`${at}: Input tag '${b?.type}' found using 'type' does not match any of the expected tags: ${BLOCKS[role].map((t) => `'${t}'`).join(', ')}`);
  if (b.type === 'text' && (typeof b.text !== 'string' || !b.text)) throw bad('messages: text content blocks must be non-empty');
  if (b.type === 'image') {
    const s = b.source;
    if (s?.type === 'base64' ? !MEDIA.includes(s.media_type) || typeof s.data !== 'string' : s?.type !== 'url' || typeof s.url !== 'string') throw bad(`${at}.source: Input should be a valid image source`);
  }
  if (b.type === 'tool_use' && (typeof b.id !== 'string' || typeof b.name !== 'string' || !isObject(b.input))) throw bad(`${at}.tool_use: id, name and an object input are required`);
  if (b.type === 'tool_result' && typeof b.tool_use_id !== 'string') throw bad(`${at}.tool_result.tool_use_id: Field required`);
}

function checkMessages(messages) {
  if (!Array.isArray(messages)) throw bad('messages: Input should be a valid list');
  if (!messages.length) throw bad('messages: at least one message is required');
  messages.forEach((m, i) => {
    if (m?.role === 'system') throw bad('messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.');
    if (m?.role !== 'user' && m?.role !== 'assistant') throw bad(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (i === 0 && m.role !== 'user') throw bad('messages: first message must use the "user" role');
    if (i > 0 && messages[i - 1].role === m.role) throw bad(`messages: roles must alternate between "user" and "assistant", but found multiple "${m.role}" roles in a row`);
    if (typeof m.content === 'string') { if (!m.content && i < messages.length - 1) throw bad('messages: text content blocks must be non-empty'); return; }
    if (!Array.isArray(m.content)) throw bad(`messages.${i}.content: Input should be a valid list`);
    m.content.forEach((b, k) => checkBlock(b, i, k, m.role));
  });
  // Pairing: the tool_use ids of message i, answered in message i + 1, and no other.
  messages.forEach((m, i) => {
    const uses = Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_use').map((b) => b.id) : [];
    const next = messages[i + 1];
    const results = Array.isArray(next?.content) ? next.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : [];
    if (m.role === 'assistant' && uses.length) {
      const missing = uses.filter((id) => !results.includes(id));
      if (missing.length) throw bad(`messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`);
    }
    if (m.role !== 'user' || !Array.isArray(m.content)) return;
    const previous = Array.isArray(messages[i - 1]?.content) ? messages[i - 1].content.filter((b) => b.type === 'tool_use').map((b) => b.id) : [];
    m.content.forEach((b, k) => {
      if (b.type === 'tool_result' && !previous.includes(b.tool_use_id)) {
        throw bad(`messages.${i}.content.${k}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${b.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`);
      }
    });
  });
}

/** Throws a Rejection where Anthropic answers an error. */
export function validateMessagesRequest({ headers, body }, apiKey) {
  if (apiKey !== undefined && headers['x-api-key'] !== apiKey) throw bad('invalid x-api-key', 401, 'authentication_error');
  if (!headers['anthropic-version']) throw bad('anthropic-version: header is required');
  if (!isObject(body)) throw bad('There was an issue with your request body: it is not valid JSON');
  for (const key of Object.keys(body)) if (!FIELDS.includes(key)) throw bad(`${key}: Extra inputs are not permitted`);
  for (const key of ['model', 'max_tokens', 'messages']) if (body[key] === undefined) throw bad(`${key}: Field required`);
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) throw bad('max_tokens: Input should be greater than or equal to 1');
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system)) throw bad('system: Input should be a valid string');
  if (typeof body.temperature === 'number' && (body.temperature > 1 || body.temperature < 0)) throw bad(`temperature: Input should be ${body.temperature > 1 ? 'less than or equal to 1' : 'greater than or equal to 0'}`);
  checkMessages(body.messages);
  if (body.thinking?.type === 'enabled') {
    const i = body.messages.findLastIndex((m) => m.role === 'assistant');
    const first = Array.isArray(body.messages[i]?.content) ? body.messages[i].content[0] : undefined;
    if (body.messages[i]?.content.some?.((b) => b.type === 'tool_use') && !['thinking', 'redacted_thinking'].includes(first?.type)) {
      throw bad(`messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`.`);
    }
  }
  if (body.tool_choice !== undefined && !body.tools) throw bad('tool_choice may only be specified while providing tools');
  (body.tools ?? []).forEach((t, k) => {
    if (typeof t?.name !== 'string' || !NAME.test(t.name)) throw bad(`tools.${k}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
    if (!isObject(t.input_schema)) throw bad(`tools.${k}.custom.input_schema: Field required`);
    if (t.input_schema.type !== 'object') throw bad(`tools.${k}.custom.input_schema.type: Input should be 'object'`);
  });
}
