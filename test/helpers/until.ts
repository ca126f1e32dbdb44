/** Resolves after `ms` (a pause between polls, never a timing a test asserts). */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until `check` holds, polling every `stepMs` at most `tries` times: bounded by a count of polls, so a
 * loaded machine waits longer rather than failing; fails naming `what` when it never holds.
 */
export async function until(what: string, check: () => boolean | Promise<boolean>, tries = 500, stepMs = 20): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await sleep(stepMs);
  }
  throw new Error(`never: ${what}`);
}
