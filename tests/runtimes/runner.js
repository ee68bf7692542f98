// runner.js: the matrix's entry for Node, Deno and Bun (they resolve
// 'edgegraph' from node_modules with their own export conditions).
//   <runtime> runner.js pause            -> prints the checkpoint
//   <runtime> runner.js resume <file> <baseURL>  -> prints the summary (the agent's model at baseURL)
import * as eg from 'edgegraph';
import { pause, resume } from './graph.js';

const [mode, file, baseURL] = (globalThis.Deno ? Deno.args : process.argv.slice(2));
const read = async (f) => (globalThis.Deno ? Deno.readTextFile(f) : (await import('node:fs')).readFileSync(f, 'utf8'));
const out = mode === 'pause' ? await pause(eg) : JSON.stringify(await resume(eg, await read(file), baseURL));
if (globalThis.Deno) await Deno.stdout.write(new TextEncoder().encode(out));
else process.stdout.write(out);
