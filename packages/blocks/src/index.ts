export * from './locator';
export * from './signature';
export * from './remote';
export * from './manifest-blocks';
export * from './rendezvous';
export * from './manifest-tree';
