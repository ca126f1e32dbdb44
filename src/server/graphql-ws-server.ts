import { randomUUID } from 'node:crypto';
import { CloseCode, DEPRECATED_GRAPHQL_WS_PROTOCOL, handleProtocols, makeServer, type ConnectionInitMessage, type Disposable, type ServerOptions } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import type { WebSocket, WebSocketServer } from 'ws';
import { isRequestId, REQUEST_ID_HEADER } from '../gateway/plugins/use-request-id.ts';

/**
 * graphql-ws's `useServer` for `ws` (`graphql-ws/use/ws`, which its docs offer as a starter to copy and
 * adjust), adjusted in what it does with failures: that one prints them with `console.error`, a stack
 * trace across many lines of stdout with no request id, for things as routine as a client that vanishes
 * while its result is being written (`write EPIPE`). Here every failure is one line of the gateway's
 * logger, bound to the connection's request id (its upgrade's `x-request-id` when well-formed, as for
 * HTTP, else a new one), and the socket is closed as before: 4500 (graphql-ws's InternalServerError) without the error's text.
 * Writing to a socket the peer has closed is not a failure: the result has nobody to go to.
 */
export function useLoggedServer<P extends ConnectionInitMessage['payload'] = ConnectionInitMessage['payload'], E extends Record<PropertyKey, unknown> = Record<PropertyKey, never>>(
  options: ServerOptions<P, Extra & Partial<E>>,
  ws: WebSocketServer,
  keepAliveMs: number,
  logger: Logger,
): Disposable {
  const server = makeServer(options);
  ws.options.handleProtocols = handleProtocols;
  ws.once('error', (err) => {
    logger.error({ err }, 'graphql-ws: the WebSocket server failed: closing every socket');
    for (const client of ws.clients) client.close(CloseCode.InternalServerError, 'Internal server error');
  });
  ws.on('connection', (socket: WebSocket, request: Extra['request']) => {
    const sent = request.headers[REQUEST_ID_HEADER];
    const log = logger.child({ requestId: typeof sent === 'string' && isRequestId(sent) ? sent : randomUUID() });
    socket.once('error', (err) => {
      log.warn({ err }, 'graphql-ws: socket error');
      socket.close(CloseCode.InternalServerError, 'Internal server error');
    });
    let pongWait: NodeJS.Timeout | undefined;
    const pingInterval = keepAliveMs > 0 && Number.isFinite(keepAliveMs)
      ? setInterval(() => {
          if (socket.readyState !== socket.OPEN) return;
          // No pong within as long again: the peer is gone, the socket is cut.
          pongWait = setTimeout(() => socket.terminate(), keepAliveMs);
          socket.once('pong', () => {
            clearTimeout(pongWait);
            pongWait = undefined;
          });
          socket.ping();
        }, keepAliveMs)
      : undefined;
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (err) => {
              // The peer went away while this was written: routine, and nothing is left to tell it.
              if (err) log.debug({ err }, 'graphql-ws: a message was not delivered: the socket closed');
              resolve();
            });
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (cb) =>
          socket.on('message', async (event) => {
            try {
              await cb(String(event));
            } catch (err) {
              log.error({ err }, 'graphql-ws: handling a message failed: closing the socket');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            }
          }),
      },
      // `Extra & Partial<E>`: the socket and the upgrade request, as graphql-ws's own adapter gives them.
      { socket, request } as Extra & Partial<E>,
    );
    socket.once('close', (code, reason) => {
      clearTimeout(pongWait);
      clearInterval(pingInterval);
      if (code === CloseCode.SubprotocolNotAcceptable && socket.protocol === DEPRECATED_GRAPHQL_WS_PROTOCOL) {
        log.info('graphql-ws: a client asked for the deprecated subscriptions-transport-ws protocol');
      }
      void closed(code, String(reason));
    });
  });
  return {
    dispose: async () => {
      for (const client of ws.clients) client.close(1001, 'Going away');
      ws.removeAllListeners();
      await new Promise<void>((resolve, reject) => ws.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
