export * from './read-body';
export * from './json';
export * from './answer-error';
export * from './redact';
export * from './client-error';
