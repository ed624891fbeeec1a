/**
 * The part of the contract a browser needs (the web console, through @svc/client's browser
 * build): the resource registry, attributes, the API table and the call encoder. Nothing here
 * parses requests or validates bodies, so nothing needs Node.js (busboy, node:crypto).
 */
export * from './types';
export * from './attributes';
export * from './registry';
export * from './api';
export * from './endpoints';
export * from './call/encode';
export * from './trusted-clients';
