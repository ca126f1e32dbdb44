/**
 * The first `count` values of an operation's results (a graphql-ws or graphql-sse client's
 * `iterate`), then the operation is completed: its iterator is returned, so the client sends
 * `complete` or drops the stream.
 */
export async function takeResults<R>(iterator: AsyncIterableIterator<R>, count: number): Promise<R[]> {
  const results: R[] = [];
  try {
    for await (const result of iterator) {
      results.push(result);
      if (results.length >= count) break;
    }
  } finally {
    await iterator.return?.();
  }
  return results;
}
