// examples.js: the demo's three graphs, from the repository's examples.

import { researchDefinition, researchInput, offline as researchOffline } from '../examples/research-assistant.js';
import { agentServiceDefinition, offline as agentOffline } from '../examples/agent-service.js';
import { mapReduceDefinition, mapReduceInput, offline as mapReduceOffline, documents } from '../examples/map-reduce.js';

export const examples = [
  {
    id: 'research',
    title: 'Research assistant (refinement loop)',
    about: 'Seed 003: the orchestrator classifies an idea; the structurer and the methodologist refine it until it is approved.',
    placeholder: 'people code better with music',
    definition: (llm) => researchDefinition(llm),
    input: (text) => researchInput(text || 'people code better with music'),
    offline: researchOffline,
  },
  {
    id: 'agent',
    title: 'Tool agent with human approval',
    about: 'Seed 004: LLM, router, tools, loop. Sending an email waits for your approval.',
    placeholder: 'My customer cannot reset their password. Email support about it.',
    definition: (llm) => agentServiceDefinition(llm, []),
    input: (text) => ({ messages: [{ role: 'user', content: text || 'My customer cannot reset their password. Email support about it.' }] }),
    offline: agentOffline,
  },
  {
    id: 'mapreduce',
    title: 'Parallel map-reduce',
    about: 'A map edge runs one summarize task per document, in parallel; combine runs once after all of them.',
    placeholder: 'one document per line (empty: four sample documents)',
    definition: (llm) => mapReduceDefinition(llm),
    input: (text) => mapReduceInput(text ? text.split('\n').map((s) => s.trim()).filter(Boolean) : documents),
    offline: mapReduceOffline,
  },
];
