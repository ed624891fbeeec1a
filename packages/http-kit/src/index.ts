export * from './read-body';
export * from './json';
export * from './answer-error';
