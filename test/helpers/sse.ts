import type { Gateway } from '../../src/gateway/gateway.ts';
import type { GraphQLResponse } from './stack.ts';

/** Starts a subscription over Server-Sent Events through `gateway.fetch` (in process). */
export function subscribe(gateway: Gateway, query: string, signal?: AbortSignal): Promise<Response> {
  return Promise.resolve(
    gateway.fetch('http://chaingraph.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query }),
      ...(signal ? { signal } : {}),
    }),
  );
}

/**
 * Reads server-sent events until `count` `data:` payloads arrived or the stream ended; returns
 * them with the reader, so the caller can read on or cancel.
 */
export async function readEvents<T = GraphQLResponse>(response: Response, count: number): Promise<{ events: T[]; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: T[] = [];
  let buffer = '';
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer.slice(0, cut).split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('');
      buffer = buffer.slice(cut + 2);
      if (data) events.push(JSON.parse(data) as T);
    }
  }
  return { events, reader };
}
