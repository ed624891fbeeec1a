export * from './errors';
export * from './volume';
export * from './verify';
export * from './directory';
export * from './s3';
export * from './open';
export * from './block-store';
export * from './hash-pool';
