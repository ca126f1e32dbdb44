/**
 * Whether `promise` settles within the current turn of the event loop, before a
 * `setImmediate` queued now runs: then it waited on no timer (a sleep, a backoff, a
 * deadline) and on no upstream answer, which all come in later turns. This is "at once"
 * said without a clock, so a loaded machine, which only makes turns slower, gives the
 * same answer as an idle one. Call it right after the event the promise must not wait
 * beyond (the call was made, the decisive attempt was reported, the caller aborted).
 */
export function settlesAtOnce(promise: Promise<unknown>): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const mark = (): void => {
      settled = true;
    };
    promise.then(mark, mark);
    setImmediate(() => resolve(settled));
  });
}
