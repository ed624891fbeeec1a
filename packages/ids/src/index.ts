export * from './uuid';
export * from './token';
export * from './gateway-proof';
export * from './request-id';
export * from './manifest';
