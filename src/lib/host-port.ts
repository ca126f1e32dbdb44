import { isIP } from 'node:net';

/**
 * The IP address of a node's `host:port` text (`206.189.137.87:9651`, `[2001:db8::1]:9651`), or null
 * when the host is not an IP address (a name, an empty or malformed value). The node API gives
 * addresses with their port, so an `IP` field beside each one carries the host alone.
 */
export function ipOfHostPort(text: string | null | undefined): string | null {
  if (!text || text.length > 64) return null;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) return isIP(bracketed[1] as string) === 6 ? (bracketed[1] as string) : null;
  if (isIP(text) !== 0) return text;
  const colon = text.lastIndexOf(':');
  const host = colon > 0 && /^\d{1,5}$/.test(text.slice(colon + 1)) ? text.slice(0, colon) : text;
  return isIP(host) === 4 ? host : null;
}
