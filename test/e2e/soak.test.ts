import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EXPECTED_FAULT_CODES, formatFaultSoak, runFaultSoak, slopePerMinute, sumMetric } from '../../bench/soak-faults.ts';

/**
 * A short run of `npm run soak` (the 5-minute run is reported in the README): `npm start` against a
 * separate `npm run devnet` with faults and latency on, 32 busy keep-alive connections, an outage
 * halfway, then SIGTERM to npm under load.
 */
describe('soak under upstream faults (short run)', () => {
  it('drops no request on SIGTERM, answers only upstream codes, and keeps RSS flat', async () => {
    // Breakers half-open after 2 s (default 10 s), so the run also sees them close again after the outage.
    const result = await runFaultSoak({
      seconds: 12,
      connections: 32,
      faultRate: 0.05,
      latencyMs: 20,
      outageSeconds: 3,
      // The load is counted, not timed: each phase runs until its share of these was answered.
      minRequests: 600,
      gatewayEnv: { BREAKER_HALF_OPEN_MS: '2000' },
    });
    console.log(formatFaultSoak(result));

    // The load was real (the phases waited for it) and the faults reached clients.
    expect(result.requests).toBeGreaterThanOrEqual(600);
    expect(result.errorsByCode['UPSTREAM_UNAVAILABLE'] ?? 0).toBeGreaterThan(0);
    // Every error is an upstream failure or an admission refusal: nothing masked, nothing unexpected.
    expect(result.unexpectedCodes).toEqual([]);
    expect(Object.keys(result.statuses).every((status) => status === '200' || status === '503')).toBe(true);

    // SIGTERM to npm with all 32 connections busy: every request in flight was answered, later ones
    // were answered or (a new connection to the closed listener) refused; none reset.
    expect(result.shutdown.inFlightAtSignal).toBeGreaterThan(0);
    expect(result.shutdown.inFlightAnswered).toBe(result.shutdown.inFlightAtSignal);
    expect(result.shutdown.dropped, result.shutdown.droppedErrors.join('\n')).toBe(0);
    expect(result.shutdown.exitCode).toBe(0);

    // The outage opened the Data API's breaker (read from /metrics).
    expect(result.breakerOpeningsByUpstream['data-api'] ?? 0).toBeGreaterThan(0);

    // Generous: a 12 s run is mostly warm-up (the heap grows towards its working size at up to ~400
    // MB/min here), so this only catches a runaway leak; the 5-minute run measures the slope.
    expect(result.rss.samples).toBeGreaterThanOrEqual(8);
    expect(result.rss.steadySlopeMbPerMin).toBeLessThan(1200);
    expect(result.rss.peakMb).toBeLessThan(800);
  }, 300_000);
});

describe('soak arithmetic', () => {
  it('slopePerMinute is the least-squares slope: exact on lines, zero on flat or single points (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -500, max: 500, noNaN: true }),
        fc.double({ min: 0, max: 2000, noNaN: true }),
        fc.integer({ min: 2, max: 300 }),
        (slope, start, n) => {
          const points = Array.from({ length: n }, (_, i) => ({ t: i / 60, mb: start + slope * (i / 60) }));
          expect(slopePerMinute(points)).toBeCloseTo(slope, 6);
          expect(slopePerMinute(points.map((p) => ({ ...p, mb: start })))).toBeCloseTo(0, 9);
        },
      ),
    );
    expect(slopePerMinute([{ t: 0, mb: 100 }])).toBe(0);
    // A hand-computed case: (0,90) (1,110) (2,90) (3,110) has slope 20 / 5 = 4.
    expect(slopePerMinute([0, 1, 2, 3].map((i) => ({ t: i, mb: i % 2 === 0 ? 90 : 110 })))).toBeCloseTo(4, 9);
  });

  it('sumMetric sums a Prometheus counter by label and tells an absent metric from a zero one', () => {
    const text = [
      '# HELP chaingraph_upstream_breaker_openings_total Times a circuit opened.',
      '# TYPE chaingraph_upstream_breaker_openings_total counter',
      'chaingraph_upstream_breaker_openings_total{upstream="data-api"} 3',
      'chaingraph_upstream_breaker_openings_total{upstream="node:fuji"} 0',
      'chaingraph_upstream_breaker_openings_total_other{upstream="x"} 9',
      'chaingraph_upstream_breaker_state{upstream="data-api",state="open"} 1',
    ].join('\n');
    expect(sumMetric(text, 'chaingraph_upstream_breaker_openings_total', 'upstream')).toEqual({ 'data-api': 3, 'node:fuji': 0 });
    expect(sumMetric(text, 'chaingraph_missing_total', 'upstream')).toBeUndefined();
    expect(EXPECTED_FAULT_CODES).toContain('UPSTREAM_UNAVAILABLE');
  });
});
