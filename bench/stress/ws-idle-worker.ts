/**
 * `npm run bench:stress -- hostile`: one process's share of an idle graphql-ws flood (forked with
 * IPC: a process holds fewer sockets than its file descriptor limit, so 20,000 take several).
 *
 * Opens `count` WebSockets to the gateway's /graphql (`graphql-transport-ws`), from loopback source
 * addresses taken in turn from `addresses` (a botnet comes from many addresses, so the per-address cap
 * is not what stops it), at most `parallel` handshakes at once; each sends `connection_init` once open
 * and then does nothing (the ws library answers the server's pings, as a browser does). On `stop` it
 * closes whatever is still open and answers the tally: acknowledged, closed by the server (by close
 * code), upgrades refused (by status), errors (by code), still open at the end.
 *
 * argv: <ws url> <count> <comma-separated source addresses> [parallel = 256]
 */
import WebSocket from 'ws';

export interface WsTally {
  attempted: number;
  acked: number;
  openAtStop: number;
  /** Peak of sockets open at once. */
  peakOpen: number;
  /** Closed by the server after opening: `close <code>`, refused upgrades: `upgrade <status>`, failures: `error <code>`. */
  outcomes: Record<string, number>;
}

const [url = '', countText = '0', addressText = '127.0.0.1', parallelText = '256'] = process.argv.slice(2);
const count = Number(countText);
const addresses = addressText.split(',');
const parallel = Number(parallelText);
const sockets = new Set<WebSocket>();
const tally: WsTally = { attempted: 0, acked: 0, openAtStop: 0, peakOpen: 0, outcomes: {} };
const note = (key: string): void => void (tally.outcomes[key] = (tally.outcomes[key] ?? 0) + 1);
let open = 0;
let pending = 0;
let stopping = false;

function openOne(i: number): void {
  tally.attempted++;
  pending++;
  let settled = false;
  const settle = (): void => {
    if (settled) return;
    settled = true;
    pending--;
    pump();
  };
  const ws = new WebSocket(url, 'graphql-transport-ws', { localAddress: addresses[i % addresses.length] as string, handshakeTimeout: 30_000 });
  sockets.add(ws);
  let opened = false;
  let refused = false;
  ws.on('open', () => {
    opened = true;
    open++;
    tally.peakOpen = Math.max(tally.peakOpen, open);
    ws.send(JSON.stringify({ type: 'connection_init' }));
    settle();
  });
  ws.on('message', (data: WebSocket.RawData) => {
    if (String(data).includes('"connection_ack"')) tally.acked++;
  });
  ws.on('unexpected-response', (_req, res) => {
    refused = true;
    note(`upgrade ${res.statusCode}`);
    res.resume();
    ws.terminate();
  });
  ws.on('error', (error: NodeJS.ErrnoException) => {
    if (!opened && !refused) note(`error ${error.code ?? error.message.slice(0, 40)}`);
  });
  ws.on('close', (code: number) => {
    sockets.delete(ws);
    if (opened) {
      open--;
      if (!stopping) note(`close ${code}`);
    }
    settle();
  });
}

let next = 0;
let announced = false;
function pump(): void {
  while (!stopping && pending < parallel && next < count) openOne(next++);
  if (!announced && next === count && pending === 0) {
    announced = true;
    process.send?.({ type: 'opened', open });
  }
}

process.on('message', (message) => {
  if (message !== 'stop') return;
  stopping = true;
  tally.openAtStop = open;
  for (const ws of sockets) ws.terminate();
  process.send?.({ type: 'tally', tally }, () => process.exit(0));
});

pump();
