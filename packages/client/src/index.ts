export * from './client';
export * from './api-error';
export * from './containers';
