/** The upstream APIs' data, described once (see types.ts); every layer and the devnet import it from here. */
export * from './types.ts';
export * from './pages.ts';
