/**
 * One upstream call's abort signal and the deadlines of every call, without an `AbortController`, a
 * timer or an EventTarget listener per call: a walk makes dozens of calls per request, and each of those
 * costs a few microseconds (an `AbortController` is an EventTarget; undici adds and removes an 'abort'
 * listener per attempt; a deadline timer is armed and cleared per call).
 *
 * - {@link CallSignal} is the EventEmitter-like signal undici accepts (`on`/`once`/`removeListener`,
 *   `aborted`, `reason`), with the backoff wait built in; a real `AbortSignal` is made only for the
 *   consumers that need one (the rate and compute-unit ceilings), on first ask.
 * - {@link createDeadlines} keeps the live calls of each distinct timeout in insertion order, which is
 *   deadline order (same timeout, later start), so one timer per timeout, armed for the first live call,
 *   serves them all; a call that ends is taken out of its set, so nothing outlives its call. Timeouts are
 *   few (the policy's default, a probe's, a test's), so are groups.
 */
import { performance } from 'node:perf_hooks';

type Listener = () => void;

/** Our own deadline's abort reason: tells a timeout from the caller's abort. */
export class DeadlineExceeded extends Error {
  constructor(readonly timeoutMs: number) {
    super(`deadline of ${timeoutMs} ms exceeded`);
    this.name = 'DeadlineExceeded';
  }
}

/** The abort signal of one call: aborted by its deadline or by its caller, at most once. */
export class CallSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Listener[] | undefined;
  private controller: AbortController | undefined;

  constructor(
    /** `performance.now()` at which the deadline passes. */
    readonly deadlineAt: number,
    readonly timeoutMs: number,
  ) {}

  /** Aborts with `reason` and tells every listener (once). */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    this.controller?.abort(reason);
    if (listeners) for (const listener of listeners) listener();
  }

  /** EventEmitter's `on`, for undici (only 'abort' is ever emitted). */
  on(_event: 'abort', listener: Listener): this {
    (this.listeners ??= []).push(listener);
    return this;
  }

  /** Every listener is called at most once anyway: the signal aborts once. */
  once(event: 'abort', listener: Listener): this {
    return this.on(event, listener);
  }

  removeListener(_event: 'abort', listener: Listener): this {
    const listeners = this.listeners;
    if (!listeners) return this;
    const at = listeners.indexOf(listener);
    if (at >= 0) listeners.splice(at, 1);
    return this;
  }

  /** A real `AbortSignal` following this one, made on first ask (for consumers that take only that). */
  asAbortSignal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Resolves after `ms`, or rejects with the reason when this signal aborts first. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.aborted) {
        reject(this.reason);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(this.reason);
      };
      const timer = setTimeout(() => {
        this.removeListener('abort', onAbort);
        resolve();
      }, ms);
      this.on('abort', onAbort);
    });
  }
}

/** The deadlines of one HTTP policy's calls. */
export interface Deadlines {
  /** A signal aborted with {@link DeadlineExceeded} `timeoutMs` from now, unless ended first. */
  start(timeoutMs: number): CallSignal;
  /** The call is over: its deadline no longer fires. */
  end(signal: CallSignal): void;
}

/** One group per distinct timeout: its live calls in deadline order, and the timer armed for the first. */
interface Group {
  timeoutMs: number;
  live: Set<CallSignal>;
  timer: NodeJS.Timeout | undefined;
}

export function createDeadlines(): Deadlines {
  const groups = new Map<number, Group>();

  const arm = (group: Group, at: number): void => {
    // Unref'd: a call in flight holds the process by its socket; an idle policy holds nothing.
    group.timer = setTimeout(() => fire(group), Math.max(1, Math.ceil(at - performance.now()))).unref();
  };

  const fire = (group: Group): void => {
    group.timer = undefined;
    const now = performance.now();
    for (const signal of group.live) {
      if (signal.deadlineAt > now) {
        arm(group, signal.deadlineAt);
        return;
      }
      group.live.delete(signal);
      signal.abort(new DeadlineExceeded(signal.timeoutMs));
    }
    // Nothing left: the group goes, so the map holds only timeouts in use.
    groups.delete(group.timeoutMs);
  };

  return {
    start(timeoutMs) {
      const signal = new CallSignal(performance.now() + timeoutMs, timeoutMs);
      let group = groups.get(timeoutMs);
      if (!group) groups.set(timeoutMs, (group = { timeoutMs, live: new Set(), timer: undefined }));
      group.live.add(signal);
      // Armed for an earlier deadline, or for one that left: that timer fires early and re-arms for the first live call.
      if (!group.timer) arm(group, signal.deadlineAt);
      return signal;
    },
    // The timer stays armed (unref'd) when its group empties: it fires once, finds nothing, and is armed
    // again by the next call, so a steady stream of calls arms about one timer per timeout period.
    end(signal) {
      groups.get(signal.timeoutMs)?.live.delete(signal);
    },
  };
}
