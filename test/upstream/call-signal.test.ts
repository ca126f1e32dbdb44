import { describe, expect, it } from 'vitest';
import { CallSignal, createDeadlines, DeadlineExceeded } from '../../src/upstream/call-signal.ts';

/**
 * The shared deadlines of the upstream calls (src/upstream/call-signal.ts): one timer per timeout serves
 * every live call of that timeout. Each call is aborted at its own deadline, never another's, and a call
 * that ended is never aborted. Checked by order of events, not by how long anything took.
 */

/** The reason `signal` aborts with (already, or later). */
const aborted = (signal: CallSignal): Promise<unknown> =>
  new Promise((resolve) => (signal.aborted ? resolve(signal.reason) : signal.once('abort', () => resolve(signal.reason))));

describe('shared deadlines', () => {
  it('aborts each live call of a timeout at its own deadline, and none that ended', async () => {
    const deadlines = createDeadlines();
    const first = deadlines.start(20);
    const ended = deadlines.start(20);
    const long = deadlines.start(60_000);
    deadlines.end(ended);
    // Started after the first: its deadline is later, on the same timer.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = deadlines.start(20);
    const secondAborted = aborted(second);

    const firstReason = await aborted(first);
    expect(firstReason).toBeInstanceOf(DeadlineExceeded);
    expect((firstReason as DeadlineExceeded).timeoutMs).toBe(20);
    const secondReason = await secondAborted;
    expect(secondReason).toBeInstanceOf(DeadlineExceeded);
    expect(ended.aborted).toBe(false);
    // Another timeout's call is untouched by this group's timer.
    expect(long.aborted).toBe(false);
    deadlines.end(long);
  });

  it('re-arms for a call that starts after its group emptied', async () => {
    const deadlines = createDeadlines();
    const early = deadlines.start(15);
    deadlines.end(early);
    const later = deadlines.start(15);
    expect(await aborted(later)).toBeInstanceOf(DeadlineExceeded);
    expect(early.aborted).toBe(false);
  });

  it('a caller abort tells every listener once, and the AbortSignal made for it follows', () => {
    const signal = new CallSignal(Number.POSITIVE_INFINITY, 1000);
    const told: string[] = [];
    const gone = (): void => void told.push('removed');
    signal.on('abort', () => told.push('a'));
    signal.on('abort', gone);
    signal.removeListener('abort', gone);
    const standard = signal.asAbortSignal();
    const reason = new Error('caller gone');
    signal.abort(reason);
    signal.abort(new Error('again'));
    expect(told).toEqual(['a']);
    expect(standard.aborted).toBe(true);
    expect(standard.reason).toBe(reason);
    // Made after the abort, it is born aborted.
    expect(signal.asAbortSignal().aborted).toBe(true);
  });

  it('sleep ends at once, rejected with the reason, when the signal aborts first', async () => {
    const signal = new CallSignal(Number.POSITIVE_INFINITY, 1000);
    const sleeping = signal.sleep(60_000);
    const reason = new Error('stop');
    signal.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
    await expect(signal.sleep(1)).rejects.toBe(reason);
  });
});
