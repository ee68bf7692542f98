// thread-resume.js: a run that continues a thread (LangGraph's invoke(null) and
// invoke(new Command({ resume, update, goto })) on a thread with checkpoints):
// what is answered, updated and run next. graph-runner.js loads it on the first such
// run: a program that only starts threads never reads it.

import { isCommand, gotoOf, updateOf } from './command.js';
import { EmptyInputError, UnknownInterruptError } from './errors.js';
import { END } from './graph.js';
import { EngineCommand } from './edgegraph.js';

const NEXT_ANSWER = Symbol.for('edgegraph.nextAnswer');   // interrupt.js's: an answer for an interrupt() about to run
/** Whether `v` is a map of interrupt ids (`<node>:<step>.<task>:<call>`) -> answers. */
const isIdMap = (v) => v?.constructor === Object && Object.keys(v).every((k) => /:\d+\.\d+:\d+$/.test(k));

/**
 * The engine's run of `runner`'s graph (graph-runner.js's GraphRunner) continuing `thread` ({ threadId,
 * checkpointId? }) from its checkpoint `latest` (the engine's getState; null: none), with `input`
 * (null or a Command), the run's engine `options` and Invocation `inv`. Returns the run's result.
 */
export async function continueThread(runner, input, latest, thread, options, inv) {
  if (!latest) throw new EmptyInputError();
  let answer = isCommand(input) ? runner.engineCommand(input, 'resume', latest.state) : undefined;
  // Nothing to resume (the thread finished): a goto is a new run from the input step, which applies the update and goes
  // there; an update alone on a finished thread, one that applies it and ends (LangGraph's Command as an input).
  const finished = latest.status === 'FINISHED' && answer?.update !== undefined;
  // (A config naming the thread's latest checkpoint, getState()'s, names the thread: not a fork.)
  const restart = (answer?.goto !== undefined || finished) && latest.status !== 'PAUSED'
    && (thread.checkpointId === undefined || thread.checkpointId === (await runner.engine.getState(thread.threadId))?.checkpointId);
  // A resume while no interrupt is pending (a fork, a goto) is for the tasks about to run (LangGraph's; a restart's follow the input step);
  // a map of interrupt ids answers by id: none here, so the tasks ask.
  if (answer?.resume !== undefined && !latest.interrupts.length) { if (!isIdMap(answer.resume)) options[NEXT_ANSWER] = { value: answer.resume, steps: restart ? 2 : 1 }; delete answer.resume; }
  if (restart) return runner.engine.execute({ __start__: updateOf(input.update, runner.combine), __goto__: gotoOf(input.goto) ?? END }, options);
  if ((!input || (answer.update === undefined && answer.goto === undefined)) && latest.status === 'FINISHED') {
    inv.flushCheckpoint(true);   // (its checkpoints mode: the thread's checkpoint)
    return { status: 'FINISHED', state: latest.state };   // nothing to continue (nor to answer): LangGraph returns the values
  }
  // An update from an older checkpoint (a fork) is written there first, as updateState() writes one (a new
  // checkpoint, whose tasks run again from the top), and the run goes on from it.
  if (answer?.update !== undefined && thread.checkpointId !== undefined && latest.status !== 'PAUSED') {
    thread = { threadId: thread.threadId, checkpointId: (await runner.engine.updateState(thread, answer.update, undefined, { restartTasks: true })).checkpointId };
    answer = answer.goto === undefined ? undefined : new EngineCommand({ goto: answer.goto });
  }
  // LangGraph's values stream starts with them; with a Command's update, as its first node gets them (the update in).
  if (answer?.update !== undefined && latest.status === 'PAUSED') inv.fromPause = true;
  else if (inv.values) inv.push('values', inv.update(inv.initialValues));
  // An answer for an interrupt that is not pending: LangGraph's UnknownInterruptError (its reason
  // 'not_pending'), the engine's message naming the id and the pending ones.
  return runner.engine.resume(thread, answer, options).catch((e) => {
    throw e?.code === 'UNKNOWN_INTERRUPT' ? Object.assign(new UnknownInterruptError(e.message, { cause: e }), { reason: 'not_pending' }) : e;
  });
}
