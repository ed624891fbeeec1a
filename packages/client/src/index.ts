export * from './client';
export * from './containers';
