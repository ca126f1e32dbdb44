import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { addressBlock } from '../gateway/plugins/use-rate-limit.ts';

/** Options of {@link trackConnections}. */
export interface ConnectionTrackerOptions {
  /**
   * During a drain, how long a keep-alive connection with no request in flight is left open before it is
   * closed. A client may be writing its next request on it at this very moment: closing it at once (what
   * node's `server.close()` does since Node 19) would reset that request unanswered, so a connection gets
   * this long (from the drain's start at the earliest) to send it; its answer then closes the
   * connection. Default 1000 ms.
   */
  idleCloseMs?: number;
  /** How often idle connections are looked at during a drain. Default 100 ms. */
  sweepMs?: number;
  /**
   * Most open connections (`MAX_CONNECTIONS`), WebSockets included, kept under the process's file
   * descriptor limit. At the cap a new connection takes the place of the longest idle one (no request in
   * flight, no WebSocket operation); when none is idle it is closed at once. Default 4096.
   */
  maxConnections?: number;
  /** Most open connections from one address (an IPv6 /64) (`MAX_CONNECTIONS_PER_CLIENT`), with the same rule. Default 1024. */
  maxConnectionsPerClient?: number;
  /**
   * Longest a connection may hold unsent response bytes without any of them leaving (`WRITE_TIMEOUT_MS`):
   * a client that stops reading is cut, and the memory and slot its response held are freed. Default 10000.
   */
  writeTimeoutMs?: number;
  /** Most unsent bytes one connection may hold (`MAX_UNSENT_BYTES`); beyond, it is cut. Default 8 MiB + 64 KiB (one whole response). */
  maxUnsentBytes?: number;
  /**
   * A connection closed while its client may still be sending (a refused body) is closed gracefully: its
   * response is flushed, then what the client still sends is read and dropped for at most this long (and
   * `lingerBytes`), so the client reads its 413 instead of a reset. Default 2000 ms.
   */
  lingerMs?: number;
  /** Most bytes read and dropped while lingering. Default 16 MiB. */
  lingerBytes?: number;
  /** Tells whether a connection has work in progress that is not an HTTP request (a WebSocket's operations). Default: none has. */
  busy?: (socket: Socket) => boolean;
}

export const CONNECTION_DEFAULTS = {
  maxConnections: 4096,
  maxConnectionsPerClient: 1024,
  writeTimeoutMs: 10_000,
  maxUnsentBytes: 8 * 1024 * 1024 + 64 * 1024,
  lingerMs: 2000,
  lingerBytes: 16 * 1024 * 1024,
} as const;

export interface ConnectionStats {
  open: number;
  /** Connections closed for the caps: idle ones evicted for newcomers, and newcomers refused. */
  evicted: number;
  refused: number;
  /** Connections cut for not reading (write timeout, unsent bytes ceiling). */
  stalled: number;
  /** Response bytes written and not yet taken by the kernel, over every connection. */
  unsentBytes: number;
  /** Requests received, answered in full, and ended without a full answer (the connection cut first). */
  requests: number;
  answered: number;
  cut: number;
}

/** How a drain ended: every connection closed by itself, or the rest were destroyed (grace over, or forced). */
export type DrainResult = 'drained' | 'forced';

export interface ConnectionTracker {
  /** Wraps the server's request listener: counts requests per connection, and closes connections once draining. */
  handler(listener: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void;
  /** Requests received and not yet answered (or abandoned). */
  inFlight(): number;
  /**
   * Stops accepting connections and waits for the open ones to finish: a request in flight is answered
   * with `Connection: close`, as is any request that still arrives on an open keep-alive connection;
   * idle connections close after `idleCloseMs`. After `graceMs`, or on `force()`, whatever is left is
   * destroyed (aborting its request). Idempotent: later calls return the first call's promise.
   */
  drain(graceMs: number): Promise<DrainResult>;
  /** Destroys every connection now; a drain in progress resolves `forced`. */
  force(): void;
  /** Sets how WebSocket work is seen (the graphql-ws adapter is made after the tracker). */
  setBusy(busy: (socket: Socket) => boolean): void;
  stats(): ConnectionStats;
  /** Stops the write-deadline sweep (the server is closed). */
  close(): void;
}

interface Connection {
  inFlight: number;
  /** When its last response finished (or when it was accepted). */
  idleSince: number;
  /** Its address block, the unit of `maxConnectionsPerClient`. */
  client: string;
  /** Bytes the kernel has taken, when last seen to move, and since when nothing moved while bytes waited. */
  sent: number;
  stalledSince: number | undefined;
  /** Drain sweeps that found it idle in a row. */
  idleSweeps: number;
}

/** Bytes written to a socket and not yet taken by the kernel (libuv's queue, else what node still buffers). */
function unsentOf(socket: Socket): number {
  const queued = (socket as Socket & { _handle?: { writeQueueSize?: number } | null })._handle?.writeQueueSize;
  return typeof queued === 'number' ? queued : socket.writableLength;
}

/**
 * Connection bookkeeping for a graceful drain of a node:http server (the shape of http-terminator and
 * stoppable, without the race on idle keep-alive connections). Call before the server listens.
 */
export function trackConnections(server: Server, options: ConnectionTrackerOptions = {}): ConnectionTracker {
  const { idleCloseMs = 1000, sweepMs = 100 } = options;
  const limits = { ...CONNECTION_DEFAULTS, ...options };
  let busy = options.busy ?? (() => false);
  // Insertion order is acceptance order: the first idle one found is the longest open.
  const connections = new Map<Socket, Connection>();
  const perClient = new Map<string, number>();
  const responses = new Set<ServerResponse>();
  const counts = { evicted: 0, refused: 0, stalled: 0, requests: 0, answered: 0, cut: 0 };
  let draining: Promise<DrainResult> | undefined;
  let forceNow: (() => void) | undefined;

  const idle = (socket: Socket, connection: Connection): boolean => connection.inFlight === 0 && !busy(socket);
  /** Closes the longest-open idle connection (of `client` when given) to make room; false when none is idle. */
  const evictIdle = (client?: string): boolean => {
    for (const [socket, connection] of connections) {
      if (client !== undefined && connection.client !== client) continue;
      if (!idle(socket, connection)) continue;
      counts.evicted++;
      forget(socket);
      socket.destroy();
      return true;
    }
    return false;
  };
  const forget = (socket: Socket): void => {
    const connection = connections.get(socket);
    if (!connection) return;
    connections.delete(socket);
    const left = (perClient.get(connection.client) ?? 1) - 1;
    if (left > 0) perClient.set(connection.client, left);
    else perClient.delete(connection.client);
  };

  server.on('connection', (socket: Socket) => {
    const client = addressBlock(socket.remoteAddress ?? 'unknown');
    const roomForClient = (perClient.get(client) ?? 0) < limits.maxConnectionsPerClient || evictIdle(client);
    const room = roomForClient && (connections.size < limits.maxConnections || evictIdle());
    if (!room) {
      counts.refused++;
      socket.destroy();
      return;
    }
    connections.set(socket, { inFlight: 0, idleSince: performance.now(), client, sent: 0, stalledSince: undefined, idleSweeps: 0 });
    perClient.set(client, (perClient.get(client) ?? 0) + 1);
    socket.once('close', () => forget(socket));
    // node:http ends a connection after its last response with destroySoon(), which resets it when the
    // client is still sending (a refused body): linger instead, reading and dropping, so the response is read.
    socket.destroySoon = () => lingerThenClose(socket, limits.lingerMs, limits.lingerBytes);
  });

  // The write deadline: a connection with bytes waiting that have not moved for `writeTimeoutMs` is cut.
  const watchWrites = setInterval(() => {
    const now = performance.now();
    for (const [socket, connection] of connections) {
      const unsent = unsentOf(socket);
      if (unsent === 0) {
        connection.stalledSince = undefined;
        continue;
      }
      const sent = socket.bytesWritten - unsent;
      if (sent !== connection.sent || connection.stalledSince === undefined) {
        connection.sent = sent;
        connection.stalledSince = now;
      }
      if (unsent > limits.maxUnsentBytes || now - connection.stalledSince >= limits.writeTimeoutMs) {
        counts.stalled++;
        socket.destroy();
      }
    }
  }, Math.min(1000, Math.max(50, Math.floor(limits.writeTimeoutMs / 4))));
  watchWrites.unref();

  const closeAfter = (res: ServerResponse): void => {
    if (!res.headersSent) res.setHeader('connection', 'close');
  };

  return {
    handler(listener) {
      return (req, res) => {
        const connection = connections.get(req.socket);
        if (connection) connection.inFlight++;
        responses.add(res);
        counts.requests++;
        res.once('finish', () => counts.answered++);
        // 'close' follows 'finish', and also comes alone when the client goes away first.
        res.once('close', () => {
          if (!res.writableFinished) counts.cut++;
          responses.delete(res);
          if (connection) {
            connection.inFlight--;
            connection.idleSince = performance.now();
          }
        });
        if (draining) closeAfter(res);
        listener(req, res);
      };
    },
    inFlight: () => responses.size,
    drain(graceMs) {
      draining ??= new Promise<DrainResult>((resolve) => {
        let result: DrainResult = 'drained';
        const destroyAll = (): void => {
          result = 'forced';
          for (const socket of connections.keys()) socket.destroy();
        };
        forceNow = destroyAll;
        const grace = setTimeout(destroyAll, graceMs);
        // Idle time counts from the drain's start at the earliest: a connection idle for a while may be
        // the one a client is writing on right now.
        const startedAt = performance.now();
        const idleSweepsNeeded = Math.max(1, Math.ceil(idleCloseMs / sweepMs));
        const sweep = setInterval(() => {
          const now = performance.now();
          for (const [socket, connection] of connections) {
            if (connection.inFlight > 0) {
              connection.idleSweeps = 0;
              continue;
            }
            // Idle for the time and for as many sweeps: on a loaded machine the loop may have been blocked
            // for the whole time, and the client had no turn to send its next request.
            connection.idleSweeps++;
            if (now - Math.max(connection.idleSince, startedAt) < idleCloseMs || connection.idleSweeps < idleSweepsNeeded) continue;
            // After the poll phase: a request already in the kernel's buffer is read (and counted) first.
            setImmediate(() => {
              if (connection.inFlight === 0) socket.destroy();
            });
          }
        }, sweepMs);
        for (const res of responses) closeAfter(res);
        // net.Server's close: stop listening and call back once every connection is gone, without
        // http.Server's closeIdleConnections() (see `idleCloseMs`). Its connection-checking interval
        // (headers and request timeouts) keeps running meanwhile; it is unref'd, so it holds nothing open.
        NetServer.prototype.close.call(server, () => {
          clearTimeout(grace);
          clearInterval(sweep);
          resolve(result);
        });
      });
      return draining;
    },
    force() {
      if (forceNow) forceNow();
      else for (const socket of connections.keys()) socket.destroy();
    },
    setBusy(check) {
      busy = check;
    },
    stats() {
      let unsentBytes = 0;
      for (const socket of connections.keys()) unsentBytes += unsentOf(socket);
      return { open: connections.size, ...counts, unsentBytes };
    },
    close() {
      clearInterval(watchWrites);
    },
  };
}

/**
 * Ends the socket after what was written, then reads and drops what the client still sends until it
 * closes its side, `lingerMs` pass or `lingerBytes` arrive: closing with unread bytes would make the
 * kernel answer a reset, which can reach the client before the response it was sent.
 */
function lingerThenClose(socket: Socket, lingerMs: number, lingerBytes: number): void {
  if (socket.destroyed) return;
  socket.end();
  let read = 0;
  const done = (): void => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(done, lingerMs);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > lingerBytes) done();
  });
  socket.once('end', done);
  socket.once('close', () => clearTimeout(timer));
  socket.resume();
}
