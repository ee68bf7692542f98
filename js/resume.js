// resume.js: what resume() is given, and what each form of it means. `saved`
// is a thread ({ threadId }), a checkpoint (text or parsed) or a saved state
// (the seed API's); the input is a chat message, an interrupt's answer, a
// Command or an approval decision, each handed to the core's run its own way.
// engine.js keeps the call's order (the thread held, the run restored,
// migrate(), the drive); the forms the seed API accepts live here, so they do
// not crowd GraphEngine's public API.

import { EdgegraphError } from './errors.js';
import { foldWrites } from './host-reducers.js';
import { resumeCommand, gotoJSON } from './command.js';

const CHECKPOINT_FORMAT = 'edgegraph-checkpoint';

/** Whether `saved` is a checkpoint: its JSON text, or the parsed object. */
export const isCheckpoint = (saved) => typeof saved === 'string' || saved?.format === CHECKPOINT_FORMAT;

/** `saved` is neither a thread nor a checkpoint: it must be a saved state (result.state). */
export function checkSavedState(saved) {
  if (saved === undefined) {
    throw new EdgegraphError('NOT_RESUMABLE', 'resume() got no checkpoint (result.checkpoint is undefined when a run finished): there is nothing to resume');
  }
  if (saved === null || typeof saved !== 'object') {
    throw new EdgegraphError('INVALID_INPUT', 'resume() takes a saved state object or a checkpoint');
  }
}

function isApproval(v) {
  return v !== null && typeof v === 'object' && (v.decision === 'approve' || v.decision === 'reject' || v.decision === 'edit' || Array.isArray(v.decisions));
}

/**
 * Hand resume()'s `userInput` and `update` (options.update) to the core's run
 * (`handle`, its state migrated) and resume it. Returns the input that is
 * appended to `messages` (a chat message), or undefined when there is none.
 */
export function resumeWith(core, handle, mirror, hostReducers, userInput, update) {
  let input = userInput === undefined || userInput === null ? undefined : userInput;
  // An approval decision (approve(), reject(), editArguments()) is not a
  // chat message: it goes into state.approval, where the agent node reads it.
  if (isApproval(input)) { update = { ...update, approval: input }; input = undefined; }
  // A Command, or any value while interrupts are pending: data, never a message.
  const command = resumeCommand(input) ?? (input !== undefined && core.runPendingInterrupts(handle).length ? { resume: input } : null);
  if (!command && input !== undefined && (input === null || typeof input !== 'object')) {
    throw new EdgegraphError('INVALID_INPUT', `resume() got ${typeof input} input, but no interrupt is pending to answer: pass a message ({ role: 'user', content }) to append one, or new Command({ update }) to write the state`);
  }
  if (command) {
    input = undefined;
    if (command.update !== undefined) update = { ...update, ...command.update };
    // The goto first: with an interrupt() pending it is refused (it would drop the node the answer is for).
    if (command.goto !== undefined) core.runGoto(handle, JSON.stringify(gotoJSON(command.goto, 'resume()')));
    if (command.resume !== undefined) core.runAnswer(handle, JSON.stringify({ resume: command.resume }));
  }
  // Paths with a JS reducer fold here, on the mirror; the core applies the rest.
  if (update !== undefined && hostReducers) [update] = foldWrites(hostReducers, mirror, [{ node: 'resume', value: update }]);
  if (update !== undefined) core.runApply(handle, JSON.stringify(update));
  core.runResume(handle, input === undefined ? undefined : JSON.stringify(input));
  return input;
}
