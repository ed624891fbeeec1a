export * from './client';
export * from './api-error';
