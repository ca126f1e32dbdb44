import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipOfHostPort } from '../../src/lib/host-port.ts';

describe('ipOfHostPort', () => {
  it('property: the host of an IPv4 host:port, with or without the port', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.integer({ min: 0, max: 65535 }), (ip, port) => {
        expect(ipOfHostPort(`${ip}:${port}`)).toBe(ip);
        expect(ipOfHostPort(ip)).toBe(ip);
      }),
    );
  });

  it('property: the host of a bracketed IPv6 host:port, and a bare IPv6 address', () => {
    fc.assert(
      fc.property(fc.ipV6(), fc.integer({ min: 0, max: 65535 }), (ip, port) => {
        expect(ipOfHostPort(`[${ip}]:${port}`)).toBe(ip);
        expect(ipOfHostPort(ip)).toBe(ip);
      }),
    );
  });

  it.each(['', 'localhost:9651', 'node.example:9651', ':9651', '1.2.3:9651', '256.1.1.1:9651', '[1.2.3.4]:9651', '1.2.3.4:port', 'x'.repeat(100)])('null for %j', (text) => {
    expect(ipOfHostPort(text)).toBeNull();
  });
});
