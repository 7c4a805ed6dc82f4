import type { EsimProvider } from '../types.js';
import type { EsimAccessClient } from './client.js';

/** package/list → ProviderPackage. Owned by the catalog work (issue: catalog, wallet, top-ups). */
export function createEsimAccessPackages(_client: EsimAccessClient): Pick<EsimProvider, 'listPackages'> {
  return {
    async listPackages() {
      throw new Error('not implemented yet');
    },
  };
}
