// The graph of the exclusive-resume tests: `ask` pauses for the user, then
// `send` does the side effect (an email, a payment) once per resume that runs.
// `send(effect)` is called when the node starts and may hold the node.

export const busyGraph = (send) => ({
  nodes: {
    ask: () => ({ pendingAskUser: { question: 'send it?' } }),
    send: async () => { await send(); return { data: { sent: true } }; },
  },
  edges: { ask: 'send', send: '__end__' },
  entryPoint: 'ask',
});
