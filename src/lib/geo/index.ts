/** Country and region facts: used by the catalog and by the sandbox eSIM provider's catalogue. */
export * from './countries.js';
export * from './regions.js';
