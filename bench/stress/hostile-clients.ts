/**
 * `npm run bench:stress -- hostile`: one flood's clients, in a process of their own (forked with IPC by
 * bench/stress/hostile.ts, which lowers its scheduling priority). Answers `{ clients, notes }`: what the
 * clients saw, tallied, and what is to be said about the flood.
 *
 * argv: <flood key> <target as JSON>
 */
import { floodOf, type FloodTarget } from './hostile-floods.ts';
import type { Tally } from './requests.ts';

export interface FloodClientsReport {
  clients: Tally;
  notes: string[];
}

const [key = '', targetJson = '{}'] = process.argv.slice(2);
const target = JSON.parse(targetJson) as FloodTarget;
const notes: string[] = [];
let clients: Tally;
try {
  clients = await floodOf(key).run({ target, notes });
} catch (error) {
  clients = { [`SCRIPT ERROR ${String(error).slice(0, 200)}`]: 1 };
}
const report: FloodClientsReport = { clients, notes };
process.send?.(report, () => process.exit(0));
