// The id grammars live in src/lib/ids.ts; this re-export keeps the old import path working.
export { isCb58, isCb58Id, isNodeId } from '../lib/ids.ts';
