export * from './read-body';
export * from './json';
