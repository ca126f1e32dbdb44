export * from './client-types.ts';
export * from './data-api.ts';
export * from './errors.ts';
export * from './http.ts';
export * from './node-client.ts';
export * from './normalize.ts';
export * from '../shapes/index.ts';
