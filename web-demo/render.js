// render.js: what the demo page shows of a run: the status line, the chat
// (model output only ever as text), tokens as they stream, the approval or
// question card, the error panel, and which controls are usable.

export const $ = (id) => document.getElementById(id);

let streaming = null; // the chat bubble receiving tokens

export function setStatus(text, status) {
  $('status').textContent = text;
  document.body.dataset.status = status ?? text;
}

function textOf(m) {
  if (typeof m.content === 'string') return m.content;
  if (Array.isArray(m.content)) return m.content.map((p) => p.text ?? `[${p.type}]`).join(' ');
  return '';
}

export function renderChat(view) {
  const chat = $('chat');
  chat.replaceChildren();
  for (const m of view.messages ?? []) {
    const div = document.createElement('div');
    div.className = `msg ${m.role}`;
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = m.role === 'tool' ? `tool result (${m.tool_call_id})` : m.role;
    div.append(who);
    let text = textOf(m);
    for (const c of m.tool_calls ?? []) text += `${text ? '\n' : ''}calls ${c.function.name}(${c.function.arguments})`;
    div.append(document.createTextNode(text));
    chat.append(div);
  }
  streaming = null;
  chat.scrollTop = chat.scrollHeight;
}

export function streamToken(text) {
  if (!streaming) {
    streaming = document.createElement('div');
    streaming.className = 'msg assistant streaming';
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = 'assistant (streaming)';
    streaming.append(who, document.createTextNode(''));
    $('chat').append(streaming);
  }
  streaming.lastChild.textContent += text;
  $('chat').scrollTop = $('chat').scrollHeight;
}

/** The approval card or the question card for a paused run (none otherwise). */
export function showPending(view) {
  hidePending();
  const p = view.pendingAskUser;
  if (!p) return;
  if (p.type === 'tool_approval') {
    const list = $('approval-calls');
    list.replaceChildren();
    for (const c of p.toolCalls) {
      const line = document.createElement('pre');
      line.textContent = `${c.name}${c.needsApproval ? ' (needs approval)' : ''}\n${JSON.stringify(c.arguments, null, 2)}`;
      list.append(line);
    }
    const first = p.toolCalls.find((c) => c.needsApproval) ?? p.toolCalls[0];
    $('approval-args').value = JSON.stringify(first.arguments, null, 2);
    $('approval').dataset.callId = first.id;
    $('approval').hidden = false;
    $('approve').focus();
  } else {
    $('question-text').textContent = p.question ?? 'The graph asks:';
    $('question').hidden = false;
    $('answer').focus();
  }
}

export function hidePending() {
  $('approval').hidden = true;
  $('question').hidden = true;
}

export function showError(error) {
  const panel = $('error-panel');
  if (!error) { panel.hidden = true; return; }
  panel.textContent = error.node ? `Node '${error.node}' failed: ${error.message} (${error.code})` : `${error.message} (${error.code})`;
  panel.hidden = false;
}

/** While a run is going: Run and the cards' buttons off, Stop on. */
export function busy(on) {
  $('run').disabled = on;
  $('stop').disabled = !on;
  $('example').disabled = on;
  $('restart-here').disabled = on;
  for (const id of ['approve', 'approve-edited', 'reject']) $(id).disabled = on;
}
