import type { Logger } from 'pino';
import { diagnose, isUpstreamError } from '../errors/graphql.ts';
import type { NodeClient } from '../upstream/client-types.ts';
import type { UpstreamName } from '../upstream/errors.ts';

/** How long the start-up probe waits for each upstream: the same bound as `/ready`'s. */
export const STARTUP_PROBE_TIMEOUT_MS = 3_000;

/** One upstream that did not answer the start-up probe, in the words the operator acts on. */
export interface ProbeFailure {
  upstream: UpstreamName;
  /** The URL's origin (never its path, user info or query). */
  url: string;
  /** A word: `connection_refused`, `timeout`, `dns`, `tls`, `unauthorized`... (`unknown` when the error names none). */
  cause: string;
  /** The setting to check, when it is a setting's fault. */
  variable?: string;
  /** The whole sentence: what failed, and what to check. */
  message: string;
}

export interface StartupProbeTargets {
  dataApi: { url: string; probe: (timeoutMs: number) => Promise<unknown> };
  nodes: readonly NodeClient[];
}

/**
 * Asks every configured upstream once, in parallel, for its cheapest answer (the Data API's
 * readiness call, each node's `info.getNetworkID`), each bounded by {@link STARTUP_PROBE_TIMEOUT_MS},
 * and logs one warning per upstream that does not answer, naming the cause and the setting to
 * check. It never fails the start: an upstream may come up later, and `/ready` follows it.
 */
export async function probeUpstreams(targets: StartupProbeTargets, logger: Logger): Promise<ProbeFailure[]> {
  const probes: { upstream: UpstreamName; url: string; variable: string; ask: () => Promise<unknown> }[] = [
    { upstream: 'data-api', url: targets.dataApi.url, variable: 'DATA_API_URL', ask: () => targets.dataApi.probe(STARTUP_PROBE_TIMEOUT_MS) },
    ...targets.nodes.map((node) => ({
      upstream: `node:${node.name}` as const,
      url: node.url,
      variable: 'NODE_URLS',
      ask: () => node.call('info.getNetworkID', {}, { timeoutMs: STARTUP_PROBE_TIMEOUT_MS }),
    })),
  ];
  const outcomes = await Promise.all(probes.map(async (probe) => {
    try {
      await probe.ask();
      return undefined;
    } catch (error) {
      return failureOf(probe, error);
    }
  }));
  const failures = outcomes.filter((failure): failure is ProbeFailure => failure !== undefined);
  for (const failure of failures) logger.warn(failure, `upstream not answering at start: ${failure.message}`);
  return failures;
}

function failureOf(probe: { upstream: UpstreamName; url: string; variable: string }, error: unknown): ProbeFailure {
  const url = originOf(probe.url);
  const name = probe.upstream === 'data-api' ? 'The Data API' : `Node "${probe.upstream.slice(5)}"`;
  if (isUpstreamError(error)) {
    const diagnosis = diagnose(error, undefined, true);
    if (diagnosis) {
      return {
        upstream: probe.upstream,
        url,
        cause: diagnosis.cause,
        ...(diagnosis.variable ? { variable: diagnosis.variable } : {}),
        message: diagnosis.sentence ?? `${name} at ${url} does not answer (${diagnosis.short})${diagnosis.check ? `: ${diagnosis.check}` : ''}.`,
      };
    }
    // An answer it could not use (a JSON-RPC error, a 400): it is up, but maybe not what the setting should point at.
    return { upstream: probe.upstream, url, cause: error.kind, variable: probe.variable, message: `${name} at ${url} did not answer its probe as expected (${error.kind}): check ${probe.variable}.` };
  }
  return { upstream: probe.upstream, url, cause: 'unknown', variable: probe.variable, message: `${name} at ${url} could not be probed: check ${probe.variable}.` };
}

/** A URL's origin: scheme, host and port, without the path, user info or query that may carry credentials. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(unparsable URL)';
  }
}
