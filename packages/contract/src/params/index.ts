export * from './types';
export * from './body';
export * from './method-override';
export * from './convert';
export * from './merge';
