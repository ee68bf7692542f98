// The research-assistant refinement loop of seed 003, run offline.
//
//   orchestrator  classifies the idea: vague | semi_formed | complete
//   structurer    turns it into a research question (one more aspect per pass)
//   methodologist approved | needs_refinement | rejected; needs_refinement loops
//                 back to the structurer until maxIterations, then forces a decision
//
// The "LLM" is a deterministic offline stand-in (offlineModel below), so the
// demo needs no key and no network. Run: make demo  (or node examples/research-assistant.js "your idea")

import { GraphEngine, createEndNode } from 'edgegraph';

const MAX_ITERATIONS = 3;
const ASPECTS = ['population', 'metrics', 'variables'];

/** A scripted model: same input, same answer. Clearly not a real LLM. */
const offlineModel = {
  classify(text) {
    const t = text.toLowerCase();
    if (/\bhypothesis\b|\bif\b.*\bthen\b/.test(t)) return 'complete';
    if (/\bbecause\b|\bcauses?\b|\beffect\b/.test(t)) return 'semi_formed';
    return 'vague';
  },
  structure(idea, covered) {
    const parts = covered.map((a) => ({ population: 'among remote software teams', metrics: 'measured by weekly merged pull requests', variables: 'controlling for team size and seniority' })[a]);
    return `Does "${idea.replace(/[?.!]+$/, '')}" hold ${parts.join(', ')}?`.replace(/\s+/g, ' ');
  },
  review(question) {
    const missing = ASPECTS.filter((a) => !question.includes({ population: 'among', metrics: 'measured by', variables: 'controlling for' }[a]));
    if (missing.length === 0) return { status: 'approved', justification: 'testable: population, metric and controls are explicit', improvements: [] };
    return {
      status: 'needs_refinement',
      justification: `missing ${missing.join(', ')}`,
      improvements: missing.map((aspect) => ({ aspect, gap: `no ${aspect} given`, suggestion: `state the ${aspect}` })),
    };
  },
};

const nodes = {
  orchestrator: (state) => {
    const stage = offlineModel.classify(state.data.user_input);
    return { data: { current_stage: stage }, messages: [{ role: 'assistant', content: `Detected: ${stage}` }] };
  },
  structurer: (state) => {
    const iteration = (state.data.iteration ?? 0) + 1;
    const covered = ASPECTS.slice(0, iteration);
    const question = offlineModel.structure(state.data.user_input, covered);
    return {
      data: { iteration, structurer_output: { question, aspects: covered }, current_stage: 'validating' },
      messages: [{ role: 'assistant', content: question }],
    };
  },
  methodologist: (state) => {
    const question = state.data.structurer_output?.question ?? state.data.user_input;
    const review = offlineModel.review(question);
    return { data: { review }, messages: [{ role: 'assistant', content: `${review.status}: ${review.justification}` }] };
  },
  force_decision: (state) => ({
    data: { review: { ...state.data.review, status: 'approved', justification: `accepted after ${state.data.iteration} refinements (limit reached)` } },
    logs: ['max iterations reached: decision forced'],
  }),
  end: createEndNode(),
};

const engine = new GraphEngine({
  nodes,
  edges: {
    orchestrator: { path: 'data.current_stage', cases: { vague: 'structurer', semi_formed: 'methodologist', complete: 'methodologist' } },
    structurer: 'methodologist',
    methodologist: {
      router: (state) => {
        const { status } = state.data.review;
        if (status !== 'needs_refinement') return 'end';
        return state.data.iteration < MAX_ITERATIONS ? 'structurer' : 'force_decision';
      },
      targets: ['structurer', 'force_decision', 'end'],
    },
    force_decision: 'end',
  },
  entryPoint: 'orchestrator',
}, { maxSteps: 20 });

const idea = process.argv[2] ?? 'people code better with music';
console.log('edgegraph demo: research-assistant refinement loop (seed 003)');
console.log('model: offline simulator (deterministic, no network)\n');
console.log(engine.toMermaid());
console.log(`idea: "${idea}"\n`);

const result = await engine.execute({ messages: [{ role: 'user', content: idea }], data: { user_input: idea } }, {
  onEvent(e) {
    if (e.type === 'node_start') process.stdout.write(`-> ${e.node.padEnd(15)}`);
    if (e.type === 'node_end') console.log(`${e.durationMs.toFixed(2).padStart(7)} ms`);
    if (e.type === 'route') console.log(`   route: ${e.node} -> ${e.target}`);
  },
});

console.log(`\nstatus: ${result.status} after ${result.state.stepCount} steps`);
console.log(`question: ${result.state.data.structurer_output?.question ?? '(none)'}`);
console.log(`review: ${result.state.data.review.status} (${result.state.data.review.justification})`);
console.log('\nconversation:');
for (const m of result.state.messages) console.log(`  ${m.role.padEnd(9)} ${m.content}`);
engine.dispose();
if (result.status !== 'FINISHED') process.exitCode = 1;
