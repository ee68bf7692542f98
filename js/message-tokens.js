// message-tokens.js: a message's token count from a text counter, with the
// same framing the core's estimate uses (src/eg_tokens.c): 3 per message, 1
// per name, 3 per tool call, 85 / 765 per image (detail low / otherwise).

export function messageTokens(message, countText) {
  if (message === null || typeof message !== 'object') return -1;
  let n = 3;
  const { content, name, tool_call_id: callId, tool_calls: calls } = message;
  if (typeof content === 'string') n += countText(content);
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (part?.type === 'image_url') n += part.image_url?.detail === 'low' ? 85 : 765;
      else if (typeof part?.text === 'string') n += countText(part.text);
    }
  }
  if (typeof name === 'string') n += 1 + countText(name);
  if (typeof callId === 'string') n += countText(callId);
  if (Array.isArray(calls)) {
    for (const call of calls) {
      n += 3;
      if (typeof call?.function?.name === 'string') n += countText(call.function.name);
      if (typeof call?.function?.arguments === 'string') n += countText(call.function.arguments);
    }
  }
  return n;
}
