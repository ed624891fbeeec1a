export * from './schema';
export * from './errors';
export * from './validate';
export * from './load';
export * from './public-config';
export * from './load-deployment';
export * from './data-dir';
export * from './run-service';
export { derivedBlobSigningKey } from './validate-storage';
