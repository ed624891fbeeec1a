export * from './uuid';
export * from './token';
export * from './token-salting';
export * from './token-secret-box';
export * from './gateway-proof';
export * from './request-id';
export * from './manifest';
