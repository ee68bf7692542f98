// testing.js: a scripted, offline stand-in for an OpenAI-compatible server,
// as a `fetch` to hand to createChatClient / createAgentNode. It is a
// simulator for demos and tests, not a model: `respond` decides every reply.
// It is as strict as api.openai.com: a request OpenAI would refuse (a tool
// result answering no call, calls left unanswered, an unknown role, a bad
// tool name or schema) gets OpenAI's HTTP 400 and error body, never a reply.
//
//   const fetch = createScriptedFetch(({ messages }) => `You said: ${messages.at(-1).content}`);
//   createAgentNode({ llm: { model: 'offline', fetch } });

/**
 * @param {(request: { messages: object[], tools?: object[], model: string }) => (string | { content?: string|null, toolCalls?: Array<{ id?: string, name: string, arguments: object|string }> }) | Promise<...>} respond
 * @param {{ chunkSize?: number, delayMs?: number }} [options] streaming: characters per chunk, pause between chunks
 */
import { validateChatRequest, Rejection, errorBody } from './openai-validate.js';

export { validateChatRequest };

export function createScriptedFetch(respond, { chunkSize = 4, delayMs = 0 } = {}) {
  let calls = 0;
  return async function scriptedFetch(url, init = {}) {
    let body;
    try {
      body = JSON.parse(init.body);
      validateChatRequest(body);
    } catch (e) {
      const rejection = e instanceof Rejection ? e : new Rejection('We could not parse the JSON body of your request.');
      return new Response(errorBody(rejection), { status: rejection.status, headers: { 'content-type': 'application/json' } });
    }
    let answer = await respond({ messages: body.messages, tools: body.tools, model: body.model, responseFormat: body.response_format });
    if (typeof answer === 'string') answer = { content: answer };
    const toolCalls = (answer.toolCalls ?? []).map((c, i) => ({
      id: c.id ?? `call_${++calls}_${i}`,
      type: 'function',
      function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}) },
    }));
    const content = answer.content ?? null;
    const finish = toolCalls.length ? 'tool_calls' : 'stop';
    const usage = { prompt_tokens: JSON.stringify(body.messages).length >> 2, completion_tokens: (content ?? '').length >> 2, total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    if (!body.stream) {
      const message = { role: 'assistant', content, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
      return new Response(JSON.stringify({ id: 'offline', object: 'chat.completion', model: body.model, choices: [{ index: 0, message, finish_reason: finish }], usage }), { status: 200, headers: { 'content-type': 'application/json' } });
    }
    const events = [];
    for (let i = 0; content && i < content.length; i += chunkSize) events.push({ choices: [{ index: 0, delta: { content: content.slice(i, i + chunkSize) } }] });
    toolCalls.forEach((c, index) => {
      const args = c.function.arguments;
      events.push({ choices: [{ index: 0, delta: { tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: args.slice(0, args.length >> 1) } }] } }] });
      events.push({ choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: args.slice(args.length >> 1) } }] } }] });
    });
    events.push({ choices: [{ index: 0, delta: {}, finish_reason: finish }] });
    events.push({ choices: [], usage });
    const encoder = new TextEncoder();
    const signal = init.signal;
    const stream = new ReadableStream({
      async pull(controller) {
        const e = events.shift();
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
        if (signal?.aborted) { controller.error(signal.reason ?? new Error('aborted')); return; }
        if (e) controller.enqueue(encoder.encode(`data: ${JSON.stringify(e)}\n\n`));
        else { controller.enqueue(encoder.encode('data: [DONE]\n\n')); controller.close(); }
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}
