import { describe, expect, it } from 'vitest';
import { createLoopBudget } from '../../src/lib/loop-budget.ts';

/** Counts turns of the event loop (one setImmediate per turn) until stopped. */
function turnCounter(): { now: () => number; stop: () => void } {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turn, stop: () => void (running = false) };
}

describe('createLoopBudget', () => {
  it('never parks anyone while the slice has time left', () => {
    const budget = createLoopBudget({ sliceMs: 60_000 });
    for (let i = 0; i < 10_000; i++) expect(budget.pause()).toBeUndefined();
    expect(budget.parked()).toBe(0);
  });

  it('parks once the slice is spent, and resumes the parked in the order they parked, one turn of the loop each when every slice is spent at once', async () => {
    const budget = createLoopBudget({ sliceMs: 0 });
    const turns = turnCounter();
    const resumed: [string, number][] = [];
    const waits = ['a', 'b', 'c'].map((name) => budget.park().then(() => void resumed.push([name, turns.now()])));
    expect(budget.parked()).toBe(3);
    await Promise.all(waits);
    turns.stop();
    expect(resumed.map(([name]) => name)).toEqual(['a', 'b', 'c']);
    // Each on a turn of its own: the loop polled for I/O between them.
    const at = resumed.map(([, turn]) => turn);
    expect(new Set(at).size).toBe(3);
    expect(budget.parked()).toBe(0);
  });

  it('resumes the parked together, in one turn, while the slice lasts', async () => {
    const budget = createLoopBudget({ sliceMs: 60_000 });
    const turns = turnCounter();
    const at: number[] = [];
    await Promise.all(Array.from({ length: 20 }, () => budget.park().then(() => void at.push(turns.now()))));
    turns.stop();
    expect(new Set(at).size).toBe(1);
  });

  it('resumes the next caller only once the work of the one before has run, however many promise hops it takes', async () => {
    const budget = createLoopBudget({ sliceMs: 60_000 });
    const log: string[] = [];
    const first = budget.park().then(async () => {
      log.push('a resumed');
      for (let hop = 0; hop < 5; hop++) await Promise.resolve();
      log.push('a done');
    });
    const second = budget.park().then(() => void log.push('b resumed'));
    await Promise.all([first, second]);
    expect(log).toEqual(['a resumed', 'a done', 'b resumed']);
  });

  it('checks the clock only every few calls within a slice, and keeps parking until the slice ends', async () => {
    const budget = createLoopBudget({ sliceMs: 0 });
    // The first call of a turn starts the slice; later calls read the clock now and then and find it spent.
    const answers = Array.from({ length: 40 }, () => budget.shouldPause());
    expect(answers[0]).toBe(false);
    const firstSpent = answers.indexOf(true);
    expect(firstSpent).toBeGreaterThan(0);
    expect(answers.slice(firstSpent).every(Boolean)).toBe(true);
    // On a later turn a new slice starts.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(budget.shouldPause()).toBe(false);
  });
});
