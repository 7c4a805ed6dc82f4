/**
 * Country data, names and locales live in src/lib/geo (shared with the sandbox provider's
 * catalogue); the catalog reads them through this module.
 */
export * from '../../lib/geo/countries.js';
