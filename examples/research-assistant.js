// The research-assistant refinement loop of seed 003.
//
//   orchestrator  classifies the idea: vague | semi_formed | complete
//   structurer    turns it into a research question
//   methodologist approved | needs_refinement | rejected; needs_refinement loops
//                 back to the structurer until maxIterations, then forces a decision
//
// Every node asks an LLM (by default the offline simulator below, so the
// demo needs no key and no network). Run: make demo, or
//   node examples/research-assistant.js "your idea"

import { GraphEngine, createChatClient, createEndNode } from 'edgegraph';
import { llmConfig, parseJson } from './llm-config.js';

const MAX_ITERATIONS = 3;
const ASPECTS = { population: 'among remote software teams', metrics: 'measured by weekly merged pull requests', variables: 'controlling for team size and seniority' };

/** The offline simulator: the same prompt always gets the same answer. */
export function offline({ messages }) {
  const prompt = messages.at(-1).content;
  const task = /^TASK: (\w+)/.exec(prompt)?.[1];
  const input = prompt.split('\nINPUT: ')[1] ?? '';
  if (task === 'classify') {
    const t = input.toLowerCase();
    const stage = /hypothesis|\bif\b.*\bthen\b/.test(t) ? 'complete' : /because|causes?|effect/.test(t) ? 'semi_formed' : 'vague';
    return JSON.stringify({ stage });
  }
  if (task === 'structure') {
    const { idea, improvements = [] } = JSON.parse(input);
    const have = Object.keys(ASPECTS).filter((a) => idea.covered?.includes(a) || improvements.some((i) => i.aspect === a));
    const covered = have.length ? have : ['population'];
    return JSON.stringify({ question: `Does "${idea.text}" hold ${covered.map((a) => ASPECTS[a]).join(', ')}?`, covered });
  }
  if (task === 'review') {
    const { question } = JSON.parse(input);
    const missing = Object.keys(ASPECTS).filter((a) => !question.includes(ASPECTS[a]));
    if (!missing.length) return JSON.stringify({ status: 'approved', justification: 'testable: population, metric and controls are explicit', improvements: [] });
    return JSON.stringify({ status: 'needs_refinement', justification: `missing ${missing.join(', ')}`, improvements: missing.slice(0, 1).map((aspect) => ({ aspect, gap: `no ${aspect}`, suggestion: `state the ${aspect}` })) });
  }
  return 'I can only classify, structure and review research ideas.';
}

/** The graph, talking to `llm` (a createChatClient config). */
export function researchDefinition(llm) {
  const client = createChatClient({ ...llm, defaults: { temperature: 0, ...(llm.defaults ?? {}) } });
  const ask = async (task, input, ctx) => {
    const prompt = `TASK: ${task}\nAnswer with JSON only.\nINPUT: ${typeof input === 'string' ? input : JSON.stringify(input)}`;
    const r = await client.chat({
      messages: [{ role: 'system', content: 'You are a research methodology assistant.' }, { role: 'user', content: prompt }],
      signal: ctx.signal,
      onToken: ctx.emit ? (text) => ctx.emit({ type: 'llm_token', text }) : undefined,
    });
    ctx.recordUsage?.(r); // its tokens into result.usage
    return r.content;
  };
  return {
    nodes: {
      orchestrator: async (state, _e, ctx) => {
        const { stage = 'vague' } = parseJson(await ask('classify', state.data.user_input, ctx), {});
        return { data: { current_stage: stage }, messages: [{ role: 'assistant', content: `Detected: ${stage}` }] };
      },
      structurer: async (state, _e, ctx) => {
        const iteration = (state.data.iteration ?? 0) + 1;
        const idea = { text: state.data.user_input, covered: state.data.structurer_output?.covered ?? [] };
        const out = parseJson(await ask('structure', { idea, improvements: state.data.review?.improvements ?? [] }, ctx), { question: state.data.user_input, covered: [] });
        return { data: { iteration, structurer_output: out, current_stage: 'validating' }, messages: [{ role: 'assistant', content: out.question }] };
      },
      methodologist: async (state, _e, ctx) => {
        const question = state.data.structurer_output?.question ?? state.data.user_input;
        const review = parseJson(await ask('review', { question }, ctx), { status: 'rejected', justification: 'the reviewer gave no verdict', improvements: [] });
        return { data: { review }, messages: [{ role: 'assistant', content: `${review.status}: ${review.justification}` }] };
      },
      force_decision: (state) => ({
        data: { review: { ...state.data.review, status: 'approved', justification: `accepted after ${state.data.iteration} refinements (limit reached)` } },
        logs: ['max iterations reached: decision forced'],
      }),
      end: createEndNode(),
    },
    edges: {
      orchestrator: { path: 'data.current_stage', cases: { vague: 'structurer', semi_formed: 'methodologist', complete: 'methodologist' }, default: 'structurer' },
      structurer: 'methodologist',
      methodologist: {
        router: (state) => {
          if (state.data.review.status !== 'needs_refinement') return 'end';
          return (state.data.iteration ?? 0) < MAX_ITERATIONS ? 'structurer' : 'force_decision';
        },
        targets: ['structurer', 'force_decision', 'end'],
      },
      force_decision: 'end',
    },
    entryPoint: 'orchestrator',
  };
}

/** The first input of a run of this graph. */
export const researchInput = (idea) => ({ messages: [{ role: 'user', content: idea }], data: { user_input: idea } });

const configured = llmConfig(offline);
export const definition = researchDefinition(configured.llm);
const label = configured.label;

export async function run(idea, onEvent) {
  const engine = new GraphEngine(definition, { maxSteps: 20 });
  try {
    return await engine.execute(researchInput(idea), { onEvent });
  } finally {
    engine.dispose();
  }
}

if (globalThis.process?.argv && import.meta.url === `file://${process.argv[1]}`) {
  const idea = process.argv[2] ?? 'people code better with music';
  console.log('edgegraph example: research-assistant refinement loop (seed 003)');
  console.log(`model: ${label}\n`);
  const engine = new GraphEngine(definition);
  console.log(engine.toMermaid());
  engine.dispose();
  console.log(`idea: "${idea}"\n`);
  const result = await run(idea, (e) => {
    if (e.type === 'node_start') process.stdout.write(`-> ${e.node.padEnd(15)}`);
    if (e.type === 'node_end') console.log(`${e.durationMs.toFixed(2).padStart(7)} ms${e.error ? `  error: ${e.error}` : ''}`);
    if (e.type === 'route') console.log(`   route: ${e.node} -> ${e.target}`);
  });
  console.log(`\nstatus: ${result.status} after ${result.state.stepCount} steps`);
  if (result.error) console.log(`error: ${result.error.code}: ${result.error.message}`);
  console.log(`question: ${result.state.data.structurer_output?.question ?? '(none)'}`);
  console.log(`review: ${result.state.data.review?.status} (${result.state.data.review?.justification})`);
  console.log('\nconversation:');
  for (const m of result.state.messages) console.log(`  ${m.role.padEnd(9)} ${m.content}`);
  if (result.status !== 'FINISHED') process.exitCode = 1;
}
