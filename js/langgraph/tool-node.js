// tool-node.js: LangGraph's prebuilt ToolNode and toolsCondition over plain
// messages. The ReAct how-to adds `new ToolNode(tools)` from
// @langchain/langgraph/prebuilt as a node; that one refuses the plain messages
// a node gets here, so addNode (graph.js) knows it by shape and runs it here,
// over its own tools (tool-calls.js): the same program, unchanged.

/**
 * tool-calls.js (a ToolNode's run), loaded when a ToolNode is made or added as a node: by its
 * run it is in hand, and its tools are called within the node's call (where interrupt() and
 * getConfig() find the node without AsyncLocalStorage), not a turn later.
 */
let calls;
export const loadCalls = () => import('./tool-calls.js').then((m) => (calls = m));

/** The run of a ToolNode's calls. */
export const runTools = (node, input, config) => (calls ? calls.runTools(node, input, config) : loadCalls().then((m) => m.runTools(node, input, config)));

/** Whether `node` is a ToolNode, this entry's or LangGraph's (by shape: its tools and its handleToolErrors flag). */
export const isToolNode = (node) => Array.isArray(node.tools) && typeof node.handleToolErrors === 'boolean';

/** Runs the tool calls of the last assistant message: `new ToolNode(tools, { handleToolErrors })` as a node. */
export class ToolNode {
  constructor(tools, options) {
    loadCalls();
    this.tools = tools;
    this.handleToolErrors = options?.handleToolErrors ?? true;
  }
  invoke(input, config) { return runTools(this, input, config); }
}

/** LangGraph's: 'tools' while the last message calls tools, else END. */
export const toolsCondition = (state) => ((Array.isArray(state) ? state : state.messages).at(-1)?.tool_calls?.length ? 'tools' : '__end__');
