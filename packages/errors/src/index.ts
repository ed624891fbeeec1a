export * from './api-error';
export * from './error-body';
