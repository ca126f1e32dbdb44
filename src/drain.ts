import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

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
}

interface Connection {
  inFlight: number;
  /** When its last response finished (or when it was accepted). */
  idleSince: number;
}

/**
 * Connection bookkeeping for a graceful drain of a node:http server (the shape of http-terminator and
 * stoppable, without the race on idle keep-alive connections). Call before the server listens.
 */
export function trackConnections(server: Server, options: ConnectionTrackerOptions = {}): ConnectionTracker {
  const { idleCloseMs = 1000, sweepMs = 100 } = options;
  const connections = new Map<Socket, Connection>();
  const responses = new Set<ServerResponse>();
  let draining: Promise<DrainResult> | undefined;
  let forceNow: (() => void) | undefined;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { inFlight: 0, idleSince: performance.now() });
    socket.once('close', () => connections.delete(socket));
  });

  const closeAfter = (res: ServerResponse): void => {
    if (!res.headersSent) res.setHeader('connection', 'close');
  };

  return {
    handler(listener) {
      return (req, res) => {
        const connection = connections.get(req.socket);
        if (connection) connection.inFlight++;
        responses.add(res);
        // 'close' follows 'finish', and also comes alone when the client goes away first.
        res.once('close', () => {
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
        const sweep = setInterval(() => {
          const now = performance.now();
          for (const [socket, connection] of connections) {
            if (connection.inFlight === 0 && now - Math.max(connection.idleSince, startedAt) >= idleCloseMs) socket.destroy();
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
  };
}
