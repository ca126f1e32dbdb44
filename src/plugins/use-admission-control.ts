import { GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { ErrorCode } from '../errors.ts';
import { edgeErrorResponse } from './edge-response.ts';

/** Options of {@link createAdmissionGate}. */
export interface AdmissionOptions {
  /**
   * Most GraphQL requests in progress at once (`MAX_CONCURRENT_OPERATIONS`), from reading the body to
   * the response: what bounds the memory held by bodies and results (each at most `MAX_BODY_BYTES` and
   * `MAX_RESPONSE_BYTES`). Operations mostly wait on the upstream, so this is above the core count.
   * Default 32 (the benchmark's 16 connections and the validator walk at 16 concurrent fit in it).
   */
  maxConcurrent?: number;
  /** Most requests waiting for a slot (`MAX_QUEUED_OPERATIONS`); they hold a socket, not a body. Default 64. */
  maxQueued?: number;
  /** Longest wait for a slot in ms (`MAX_QUEUE_WAIT_MS`); then 503 SERVER_BUSY. Default 2000. */
  maxWaitMs?: number;
  /** Most live subscriptions (`MAX_SUBSCRIPTIONS`); each polls the upstream every 2 s. Default 100. */
  maxSubscriptions?: number;
  /** `Retry-After` sent with 503 SERVER_BUSY, in seconds. Default 1. */
  retryAfterSeconds?: number;
}

export const ADMISSION_DEFAULTS = { maxConcurrent: 32, maxQueued: 64, maxWaitMs: 2000, maxSubscriptions: 100, retryAfterSeconds: 1 } as const;

export interface AdmissionStats {
  running: number;
  queued: number;
  subscriptions: number;
  /** Requests and subscriptions refused with SERVER_BUSY since start. */
  rejected: number;
}

/** Counts the slots; one per gateway, shared by its requests. */
export interface AdmissionGate {
  /** A release function once a slot is free, or undefined when the queue is full, the wait too long or the caller gone. */
  acquire(signal?: AbortSignal): Promise<(() => void) | undefined>;
  /** A subscription slot's release function, or undefined when `maxSubscriptions` are live. */
  acquireSubscription(): (() => void) | undefined;
  stats(): AdmissionStats;
  readonly options: Required<AdmissionOptions>;
}

interface Waiter {
  grant: (release: (() => void) | undefined) => void;
}

/**
 * A counting semaphore with a bounded FIFO queue and a bounded wait. Every release function is
 * idempotent, so a request released twice (response and abort) frees one slot.
 */
export function createAdmissionGate(options: AdmissionOptions = {}): AdmissionGate {
  const limits: Required<AdmissionOptions> = { ...ADMISSION_DEFAULTS, ...options };
  let running = 0;
  let subscriptions = 0;
  let rejected = 0;
  const queue: Waiter[] = [];

  const releaser = (): (() => void) => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = queue.shift();
      // The slot passes straight to the next waiter: `running` stays the same.
      if (next) next.grant(releaser());
      else running--;
    };
  };

  return {
    options: limits,
    acquire(signal) {
      if (running < limits.maxConcurrent) {
        running++;
        return Promise.resolve(releaser());
      }
      if (queue.length >= limits.maxQueued || signal?.aborted) {
        rejected++;
        return Promise.resolve(undefined);
      }
      return new Promise((resolve) => {
        const leave = () => {
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
        };
        const onAbort = () => {
          leave();
          clearTimeout(timer);
          resolve(undefined);
        };
        const timer = setTimeout(() => {
          leave();
          signal?.removeEventListener('abort', onAbort);
          rejected++;
          resolve(undefined);
        }, limits.maxWaitMs);
        const waiter: Waiter = {
          grant: (release) => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            resolve(release);
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(waiter);
      });
    },
    acquireSubscription() {
      if (subscriptions >= limits.maxSubscriptions) {
        rejected++;
        return undefined;
      }
      subscriptions++;
      let done = false;
      return () => {
        if (!done) {
          done = true;
          subscriptions--;
        }
      };
    },
    stats: () => ({ running, queued: queue.length, subscriptions, rejected }),
  };
}

/**
 * Admission control: at most `maxConcurrent` GraphQL requests in progress, a short queue behind them,
 * and 503 SERVER_BUSY with `Retry-After` beyond it, so overload turns into fast refusals instead of
 * memory growth and timeouts for everyone. Only GraphQL requests take a slot (yoga's request parsing
 * hook, which GraphiQL, its assets, /health and /ready never reach), and the slot is taken before the
 * body is read. Subscriptions hold a subscription slot for as long as their stream lives.
 */
export function useAdmissionControl(gate: AdmissionGate = createAdmissionGate()): Plugin {
  const held = new WeakMap<Request, () => void>();
  const retryAfter = String(gate.options.retryAfterSeconds);
  const busy = 'The gateway is at capacity: retry after the delay in Retry-After.';
  return {
    async onRequestParse({ request, fetchAPI, endResponse }) {
      const release = await gate.acquire(request.signal);
      if (release) held.set(request, release);
      else endResponse(edgeErrorResponse(fetchAPI, 503, ErrorCode.SERVER_BUSY, busy, { 'retry-after': retryAfter }));
    },
    onResponse({ request }) {
      held.get(request)?.();
      held.delete(request);
    },
    onSubscribe({ setResultAndStopExecution }) {
      const release = gate.acquireSubscription();
      if (!release) {
        const message = `Too many live subscriptions (limit ${gate.options.maxSubscriptions}): retry later.`;
        setResultAndStopExecution({ errors: [new GraphQLError(message, { extensions: { code: ErrorCode.SERVER_BUSY } })] });
        return undefined;
      }
      return {
        onSubscribeResult({ result, setResult }) {
          if (isAsyncIterable(result)) setResult(onFinish(result, release));
          else release();
        },
        onSubscribeError() {
          release();
        },
      };
    },
  };
}

/** The same stream, calling `finish` once when it ends, fails or its consumer stops it (even before the first event). */
function onFinish<T>(source: AsyncIterable<T>, finish: () => void): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      try {
        const step = await iterator.next();
        if (step.done) finish();
        return step;
      } catch (error) {
        finish();
        throw error;
      }
    },
    async return(value?: unknown) {
      finish();
      return iterator.return ? iterator.return(value) : { done: true, value: value as T };
    },
    async throw(error?: unknown) {
      finish();
      if (iterator.throw) return iterator.throw(error);
      throw error;
    },
  };
}
