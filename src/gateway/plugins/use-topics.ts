import type { Plugin } from 'graphql-yoga';
import type { Topics, TopicsContext } from '../../loaders/topics.ts';

/** Options of {@link useTopics}. */
export interface TopicsPluginOptions {
  /** Closes the topics (stops every poller, gives every lease up) when the gateway is disposed. Default false: their owner closes them. */
  closeOnDispose?: boolean;
}

/**
 * Puts the gateway's subscription topics (src/loaders/topics.ts) in every operation's context, over
 * every transport (HTTP, SSE in both graphql-sse modes, graphql-ws), so the subscriptions share one
 * poller per topic.
 */
export function useTopics(topics: Topics, options: TopicsPluginOptions = {}): Plugin<TopicsContext> {
  return {
    onContextBuilding({ extendContext }) {
      extendContext({ topics });
    },
    ...(options.closeOnDispose ? { onDispose: () => topics.close() } : {}),
  };
}
