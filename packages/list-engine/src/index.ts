export * from './plan';
export * from './sql';
export * from './parse-order';
export * from './parse-select';
export * from './parse-list';
export * from './select-columns';
export * from './compile';
export { compileFilters } from './filters';
export { OPERATORS, type Operator } from './filters/types';
