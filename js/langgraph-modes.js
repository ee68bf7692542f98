// langgraph-modes.js: where edgegraph/langgraph gets the stream-mode code
// (ModeStream): from stream-run.js, the file the main entry loads for
// stream({ streamMode }). It sits beside stream-run.js so that the bundled
// import stays './stream-run.js' (make keeps that file external): the main
// entry and dist/langgraph.js load the same dist/stream-run.js, and an app
// bundling both carries one copy.

export { ModeStream, superstepOf, copyValue } from './stream-run.js';
