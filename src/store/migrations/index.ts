import type { Migration } from 'kysely';
import * as core from './001_core.ts';
import * as oauthGrants from './002_oauth_grants.ts';
import * as digestLeases from './003_digest_leases.ts';
import * as themeRecency from './004_theme_recency.ts';
import * as memoryBuilds from './005_memory_builds.ts';
import * as liveSources from './006_live_sources.ts';
import * as search from './007_search.ts';
import * as nameSizes from './008_name_sizes.ts';
import * as nameHardware from './009_name_hardware.ts';

/** Applied in name order; a new migration is a new file and one line here. */
export const migrations: Record<string, Migration> = {
  '001_core': core,
  '002_oauth_grants': oauthGrants,
  '003_digest_leases': digestLeases,
  '004_theme_recency': themeRecency,
  '005_memory_builds': memoryBuilds,
  '006_live_sources': liveSources,
  '007_search': search,
  '008_name_sizes': nameSizes,
  '009_name_hardware': nameHardware,
};
