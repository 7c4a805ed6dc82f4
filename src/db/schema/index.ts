export * from './accounts.js';
export * from './catalog.js';
export * from './wallet.js';
export * from './payments.js';
export * from './orders.js';
export * from './platform.js';
export * from './support.js';
export * from './sandbox.js';
