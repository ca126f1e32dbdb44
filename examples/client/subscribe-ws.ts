import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const client = createClient({
  url: process.env.CHAINGRAPH_WS_URL ?? 'ws://127.0.0.1:4000/graphql',
  // Node 20 has no global WebSocket: graphql-ws needs the `ws` package's (browsers and Node 22+ do not).
  webSocketImpl: WebSocket,
  // A browser cannot set headers on a WebSocket: the caller's key, if any, goes in connectionParams.
  connectionParams: process.env.CHAINGRAPH_KEY ? { 'x-service-api-key': process.env.CHAINGRAPH_KEY } : {},
});

const events = client.iterate({ query: 'subscription { nodeHealth(node: "mainnet") { healthy } }' });
for await (const event of events) {
  console.log(JSON.stringify(event.data));
  break; // leaving the loop ends the subscription
}
await client.dispose();
